const fetchCustomer = async (id) => {
  try {
    return await tools.crm.getCustomer({ id });
  } catch (e) {
    return null;
  }
};
const results = await Promise.all([1, 2, 99].map((id) => fetchCustomer(id)));
return results.map((r) => (r ? r.name : "missing"));
