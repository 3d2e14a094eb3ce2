function sql(strings, ...values) {
  let text = "";
  const params = [];
  strings.forEach((s, i) => {
    text += s;
    if (i < values.length) {
      params.push(values[i]);
      text += `$${params.length}`;
    }
  });
  return { text, params };
}

const since = new Date(Date.now() - 7 * 24 * 3600 * 1000).toISOString();
const status = "active";
const q = sql`SELECT id, email, plan FROM customers WHERE status = ${status} AND created_at > ${since} ORDER BY created_at DESC LIMIT ${50}`;
const { rows } = await tools.postgres.query(q);

return rows.map(r => `${r.id}\t${r.email}\t${r.plan ?? `(none: ${`id ${r.id}`})`}`).join("\n");
