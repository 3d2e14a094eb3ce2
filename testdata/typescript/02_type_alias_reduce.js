const orders = await tools.orders.list({});
const totals = {};
for (const o of orders) {
  totals[String(o.customerId)] = (totals[String(o.customerId)] ?? 0) + o.total;
}
return totals;
