function groupBy(items, key) {
  const out = {};
  for (const item of items) {
    const k = key(item);
    (out[k] ||= []).push(item);
  }
  return out;
}
const customers = await tools.crm.listCustomers({});
const byTier = groupBy(customers, (c) => c.tier);
return Object.fromEntries(Object.entries(byTier).map(([k, v]) => [k, v.length]));
