const baseId = "appXYZ", table = "Customers";
const existing = new Map();
let offset;
do {
  const res = await tools.airtable.listRecords({ baseId, table, offset, pageSize: 100, fields: ["Email", "Plan", "MRR"] });
  for (const r of res.records) existing.set(r.fields.Email?.toLowerCase(), r);
  offset = res.offset;
} while (offset);

const { data: subs } = await tools.stripe.listSubscriptions({ status: "active", limit: 100, expand: ["data.customer"] });
const toCreate = [], toUpdate = [];
for (const s of subs) {
  const email = s.customer.email?.toLowerCase();
  if (!email) continue;
  const mrr = s.items.data.reduce((t, it) => t + (it.price.unit_amount * (it.quantity ?? 1)) / 100, 0);
  const fields = { Email: email, Plan: s.items.data[0]?.price.nickname ?? "unknown", MRR: mrr };
  const rec = existing.get(email);
  if (!rec) toCreate.push({ fields });
  else if (rec.fields.Plan !== fields.Plan || rec.fields.MRR !== fields.MRR) toUpdate.push({ id: rec.id, fields });
}

const chunks = (arr, n) => arr.length ? [arr.slice(0, n), ...chunks(arr.slice(n), n)] : [];
for (const batch of chunks(toCreate, 10)) await tools.airtable.createRecords({ baseId, table, records: batch });
for (const batch of chunks(toUpdate, 10)) await tools.airtable.updateRecords({ baseId, table, records: batch });
return { created: toCreate.length, updated: toUpdate.length, unchanged: subs.length - toCreate.length - toUpdate.length };
