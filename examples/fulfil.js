// Move paid orders along: ship each paid order whose items are all in
// stock, in parallel, and list the ones that must wait.
const { orders: paid } = await tools.demo.listOrders({ status: "paid" });

const checked = await Promise.all(
  paid.map(async (order) => {
    const stock = await Promise.all(order.items.map((i) => tools.demo.getInventory({ sku: i.sku })));
    const short = order.items.filter((item, k) => stock[k].stock < item.qty).map((i) => i.sku);
    return { order, short };
  }),
);

const shipped = await Promise.all(
  checked.filter((c) => c.short.length === 0).map((c) => tools.demo.updateOrderStatus({ id: c.order.id, status: "shipped" })),
);
const waiting = checked.filter((c) => c.short.length > 0).map((c) => ({ id: c.order.id, waitingFor: c.short }));

console.log(`${shipped.length} shipped, ${waiting.length} waiting`);
return { shipped: shipped.map((o) => ({ id: o.id, status: o.status, total: o.total })), waiting };
