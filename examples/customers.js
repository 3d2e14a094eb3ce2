// Fan out, then aggregate: fetch every customer's orders in parallel and
// summarise spending by tier, the way a model answers "who are our best
// customers?" with the demo tools.
const { customers } = await tools.demo.listCustomers({});

const histories = await Promise.all(
  customers.map(async (c) => {
    const { orders } = await tools.demo.listOrders({ customerId: c.id });
    const live = orders.filter((o) => o.status !== "cancelled");
    const spent = live.reduce((sum, o) => sum + o.total, 0);
    return { id: c.id, name: c.name, tier: c.tier, orders: live.length, spent: Math.round(spent * 100) / 100 };
  }),
);

const byTier = Object.groupBy(histories, (h) => h.tier);
const tiers = Object.fromEntries(
  Object.entries(byTier).map(([tier, list]) => [
    tier,
    { customers: list.length, spent: Math.round(list.reduce((s, h) => s + h.spent, 0) * 100) / 100 },
  ]),
);

const top = histories.toSorted((a, b) => b.spent - a.spent).slice(0, 3);
const idle = histories.filter((h) => h.orders === 0).map((h) => h.name);

console.log(`looked at ${customers.length} customers`);
return { top, tiers, idle };
