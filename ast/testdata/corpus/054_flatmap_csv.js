const { csv } = await tools.files.read({ path: "/data/orders.csv" });
const [header, ...lines] = csv.trim().split(/\r?\n/);
const cols = header.split(",").map(h => h.trim());
const parseLine = line => {
  const out = [];
  let cur = "", quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === "," && !quoted) { out.push(cur); cur = ""; }
    else cur += ch;
  }
  out.push(cur);
  return out;
};
const rows = lines.map(l => Object.fromEntries(parseLine(l).map((v, i) => [cols[i], v])));
const items = rows.flatMap(r => (r.items ?? "").split(";").filter(Boolean).map(it => {
  const [sku, qty] = it.split(":");
  return { order: r.order_id, sku, qty: parseInt(qty, 10) || 1 };
}));
const bySku = items.reduce((m, { sku, qty }) => m.set(sku, (m.get(sku) ?? 0) + qty), new Map());
return { orders: rows.length, lineItems: items.length, topSkus: [...bySku].sort((a, b) => b[1] - a[1]).slice(0, 10) };
