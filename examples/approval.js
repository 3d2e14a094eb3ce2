// Customer 3 asked to cancel every order that has not shipped yet. The
// lookups are harmless; a cancellation changes an order, so a host can
// make each tools.demo.updateOrderStatus call wait for a person to
// approve it:
//
//   codemode run --approve demo.updateOrderStatus --state cancel.state examples/approval.js
//   codemode resume cancel.state --approve call-3 --deny call-4='paid: refund it first'
//
// A denied call rejects like a failed one, so the program keeps that
// order and says why. Run plainly (codemode run examples/approval.js),
// nothing waits and both orders are cancelled.
const customerId = 3;
const [customer, { orders }] = await Promise.all([
  tools.demo.getCustomer({ id: customerId }),
  tools.demo.listOrders({ customerId }),
]);
const open = orders.filter((o) => o.status === "pending" || o.status === "paid");

const outcomes = await Promise.allSettled(
  open.map((o) => tools.demo.updateOrderStatus({ id: o.id, status: "cancelled" })),
);
const cancelled = [];
const kept = [];
outcomes.forEach((r, i) => {
  if (r.status === "fulfilled") cancelled.push({ id: r.value.id, status: r.value.status, total: r.value.total });
  else kept.push({ id: open[i].id, status: open[i].status, reason: r.reason.message });
});

const refund = cancelled.reduce((sum, o) => sum + o.total, 0);
console.log(`${customer.name}: ${cancelled.length} cancelled, ${kept.length} kept`);
return { customer: customer.name, cancelled, kept, refund: refund.toFixed(2) };
