class NotFound extends Error {
  override name: string = "NotFound";
  constructor(public_id: number) {
    super(`no customer ${public_id}`);
  }
}
async function load(id: number): Promise<string> {
  try {
    const c = await tools.crm.getCustomer({ id });
    return c.name as string;
  } catch (err: unknown) {
    throw new NotFound(id);
  }
}
const out: string[] = [];
for (const id of [1, 42]) {
  try {
    out.push(await load(id));
  } catch (e) {
    out.push((e as Error).name + ": " + (e as Error).message);
  }
}
return out;
