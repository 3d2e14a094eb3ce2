const customers = await tools.crm.listCustomers({});
const byId = new Map<number, { name: string; tags?: string[] }>();
for (const c of customers) byId.set(c.id, c);
const first = byId.get(1)!;
const tagCount = first.tags!.length;
return { name: first.name, tagCount, second: byId.get(2)!.name };
