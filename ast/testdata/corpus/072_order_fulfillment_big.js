// Reconcile unfulfilled orders against warehouse stock, split shipments, and notify customers.
const WAREHOUSES = ["NYC", "LAX", "CHI"];
const ZONE_PREF = {
  east: ["NYC", "CHI", "LAX"],
  central: ["CHI", "NYC", "LAX"],
  west: ["LAX", "CHI", "NYC"],
};

const zoneFor = zip => {
  const n = parseInt(String(zip).slice(0, 3), 10);
  if (Number.isNaN(n)) return "central";
  if (n < 400) return "east";
  if (n < 800) return "central";
  return "west";
};

class StockLedger {
  #stock = new Map();
  #reservations = [];

  load(warehouse, levels) {
    for (const { sku, available } of levels) {
      this.#stock.set(`${warehouse}:${sku}`, available);
    }
  }

  available(warehouse, sku) {
    return this.#stock.get(`${warehouse}:${sku}`) ?? 0;
  }

  reserve(warehouse, sku, qty, orderId) {
    const key = `${warehouse}:${sku}`;
    const have = this.#stock.get(key) ?? 0;
    if (have < qty) throw new RangeError(`insufficient ${sku} at ${warehouse}: ${have} < ${qty}`);
    this.#stock.set(key, have - qty);
    this.#reservations.push({ warehouse, sku, qty, orderId });
  }

  get reservations() {
    return [...this.#reservations];
  }
}

const ledger = new StockLedger();
const stockResults = await Promise.allSettled(
  WAREHOUSES.map(w => tools.wms.getStock({ warehouse: w }).then(r => ({ w, levels: r.levels })))
);
const offline = [];
stockResults.forEach((r, i) => {
  if (r.status === "fulfilled") ledger.load(r.value.w, r.value.levels);
  else offline.push(WAREHOUSES[i]);
});
if (offline.length === WAREHOUSES.length) {
  throw new Error("all warehouses offline", { cause: stockResults.map(r => r.reason) });
}

const orders = [];
for (let cursor = null, first = true; first || cursor; first = false) {
  const res = await tools.shop.listOrders({ fulfillmentStatus: "unfulfilled", cursor, limit: 50 });
  orders.push(...res.orders);
  cursor = res.nextCursor ?? null;
}
orders.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));

const plans = [];
const backorders = [];

for (const order of orders) {
  const prefs = ZONE_PREF[zoneFor(order.shippingAddress?.zip)].filter(w => !offline.includes(w));
  const shipments = new Map();
  let complete = true;

  lineLoop: for (const { sku, quantity } of order.lineItems) {
    let remaining = quantity;
    for (const w of prefs) {
      const take = Math.min(remaining, ledger.available(w, sku));
      if (take <= 0) continue;
      ledger.reserve(w, sku, take, order.id);
      if (!shipments.has(w)) shipments.set(w, []);
      shipments.get(w).push({ sku, quantity: take });
      remaining -= take;
      if (remaining === 0) continue lineLoop;
    }
    complete = false;
    backorders.push({ orderId: order.id, sku, missing: remaining });
  }

  plans.push({
    orderId: order.id,
    email: order.customer?.email,
    complete,
    shipments: [...shipments].map(([warehouse, items]) => ({ warehouse, items })),
  });
}

const created = [];
const failures = [];
for (const plan of plans) {
  for (const s of plan.shipments) {
    try {
      const { shipmentId, trackingNumber } = await tools.wms.createShipment({
        orderId: plan.orderId,
        warehouse: s.warehouse,
        items: s.items,
      });
      created.push({ orderId: plan.orderId, shipmentId, trackingNumber, warehouse: s.warehouse });
    } catch (e) {
      failures.push({ orderId: plan.orderId, warehouse: s.warehouse, error: e.message });
    }
  }
}

const byOrder = Object.groupBy?.(created, c => c.orderId) ??
  created.reduce((acc, c) => ((acc[c.orderId] ??= []).push(c), acc), {});

const notifications = plans
  .filter(p => p.email && byOrder[p.orderId]?.length)
  .map(p => {
    const tracking = byOrder[p.orderId].map(s => `  - ${s.warehouse}: ${s.trackingNumber}`).join("\n");
    const note = p.complete ? "" : "\nSome items are backordered and will ship separately.";
    return tools.email.send({
      to: p.email,
      subject: `Your order ${p.orderId} has shipped`,
      body: `Good news! Your order is on its way.\n\nTracking:\n${tracking}${note}`,
    });
  });
const notified = (await Promise.allSettled(notifications)).filter(r => r.status === "fulfilled").length;

return {
  orders: orders.length,
  offlineWarehouses: offline,
  shipmentsCreated: created.length,
  failures,
  backorders,
  notified,
  reservations: ledger.reservations.length,
};
