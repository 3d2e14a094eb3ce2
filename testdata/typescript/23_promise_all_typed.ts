const ids: number[] = [1, 2, 3];
const customers = await Promise.all<Promise<{ id: number; spend: number }>[]>(
  ids.map((id) => tools.crm.getCustomer({ id }))
);
const total: number = customers.reduce((sum: number, c) => sum + c.spend, 0);
const settled: PromiseSettledResult<unknown>[] = await Promise.allSettled([tools.crm.getCustomer({ id: 99 })]);
return { total, status: settled[0].status };
