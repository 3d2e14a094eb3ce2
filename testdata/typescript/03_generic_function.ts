function groupBy<T, K extends string | number>(items: T[], key: (item: T) => K): Record<K, T[]> {
  const out = {} as Record<K, T[]>;
  for (const item of items) {
    const k: K = key(item);
    (out[k] ||= []).push(item);
  }
  return out;
}
const customers = await tools.crm.listCustomers({});
const byTier = groupBy(customers, (c: any) => c.tier as string);
return Object.fromEntries(Object.entries(byTier).map(([k, v]) => [k, v.length]));
