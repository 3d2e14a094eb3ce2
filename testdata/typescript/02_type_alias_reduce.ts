type Totals = Record<string, number>;
const orders = await tools.orders.list({}) as Array<{ customerId: number; total: number }>;
const totals: Totals = {};
for (const o of orders) {
  totals[String(o.customerId)] = (totals[String(o.customerId)] ?? 0) + o.total;
}
return totals;
