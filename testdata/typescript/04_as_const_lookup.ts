const TIER_DISCOUNT = { gold: 0.2, silver: 0.1, bronze: 0 } as const;
type Tier = keyof typeof TIER_DISCOUNT;
const customers = await tools.crm.listCustomers({});
return customers.map((c: { name: string; tier: Tier; spend: number }) => ({
  name: c.name,
  price: Math.round(c.spend * (1 - TIER_DISCOUNT[c.tier])),
}));
