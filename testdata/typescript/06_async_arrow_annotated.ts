const fetchCustomer = async (id: number): Promise<{ id: number; name: string } | null> => {
  try {
    return await tools.crm.getCustomer({ id });
  } catch (e: unknown) {
    return null;
  }
};
const results = await Promise.all([1, 2, 99].map((id: number) => fetchCustomer(id)));
return results.map((r) => (r ? r.name : "missing"));
