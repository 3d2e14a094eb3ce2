// A typical suspended run: a restock plan that looked up the stock,
// the suppliers and the prices (three tool calls), holds the 50 records
// it got back, and waits for approval of the order (a fourth call).
const low = await tools.inventory.lowStock({ below: 10 });
const suppliers = await tools.inventory.suppliers({});
const prices = await tools.inventory.prices({ ids: low.map(i => i.id) });

const bySupplier = new Map();
for (const item of low) {
  const price = prices[item.id] ?? 0;
  const supplier = suppliers.find(s => s.id === item.supplier);
  if (!supplier) continue;
  const line = { id: item.id, qty: 20 - item.qty, cost: price * (20 - item.qty) };
  if (!bySupplier.has(supplier.id)) bySupplier.set(supplier.id, []);
  bySupplier.get(supplier.id).push(line);
}

const orders = [];
for (const [supplier, lines] of bySupplier) {
  const total = lines.reduce((t, l) => t + l.cost, 0);
  orders.push({ supplier, lines: lines.length, total });
}
orders.sort((a, b) => b.total - a.total);

const budget = 5000;
let spent = 0;
const approved = [];
for (const o of orders) {
  if (spent + o.total > budget) break;
  spent += o.total;
  approved.push(o.supplier);
}

// The purchase needs a person's approval: the run waits here.
const receipt = await tools.inventory.order({ suppliers: approved, total: spent });

return {
  ordered: approved.length,
  spent,
  receipt: receipt.id,
  skipped: orders.length - approved.length,
};
