const customers = await tools.crm.listCustomers({});
const result = { count: customers.length, names: customers.map((c) => c.name) };
return result;
