const raw = await tools.webhooks.listDeliveries({ hookId: "wh_77", limit: 100 });
const normalize = d => {
  if (typeof d === "string") return { id: d, ok: null };
  if (d instanceof Array) return { id: d[0], ok: d[1] === 200 };
  if ("status_code" in d) return { id: d.id, ok: d.status_code >= 200 && d.status_code < 300, ms: d.duration };
  if (typeof d.ok === "boolean") return d;
  return { id: d.id ?? "?", ok: false };
};
const items = (Array.isArray(raw) ? raw : raw.deliveries).map(normalize);
const failed = items.filter(i => i.ok === false);
for (const f of failed.slice(0, 5)) {
  await tools.webhooks.redeliver({ hookId: "wh_77", deliveryId: f.id });
}
return { total: items.length, failed: failed.length, redelivered: Math.min(5, failed.length), typeofTools: typeof tools, voided: void 0 };
