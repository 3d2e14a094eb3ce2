class NotFound extends Error {
  name = "NotFound";
  constructor(public_id) {
    super(`no customer ${public_id}`);
  }
}
async function load(id) {
  try {
    const c = await tools.crm.getCustomer({ id });
    return c.name;
  } catch (err) {
    throw new NotFound(id);
  }
}
const out = [];
for (const id of [1, 42]) {
  try {
    out.push(await load(id));
  } catch (e) {
    out.push(e.name + ": " + e.message);
  }
}
return out;
