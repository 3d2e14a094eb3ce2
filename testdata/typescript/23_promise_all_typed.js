const ids = [1, 2, 3];
const customers = await Promise.all(
  ids.map((id) => tools.crm.getCustomer({ id }))
);
const total = customers.reduce((sum, c) => sum + c.spend, 0);
const settled = await Promise.allSettled([tools.crm.getCustomer({ id: 99 })]);
return { total, status: settled[0].status };
