const customers = await tools.crm.listCustomers({});
const gold = customers.filter((c) => c.tier === "gold");
return gold.map((c) => c.name);
