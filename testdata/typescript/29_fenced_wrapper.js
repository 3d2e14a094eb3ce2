const customers = await tools.crm.listCustomers({});
const top = customers.sort((a, b) => b.spend - a.spend)[0];
return { top: top.name };
