interface HasId { id: number | string }
function indexById<T extends HasId = HasId>(items: readonly T[]): Record<string, T> {
  const out: Record<string, T> = {};
  items.forEach((item: T) => { out[String(item.id)] = item; });
  return out;
}
const orders = await tools.orders.list({});
const idx = indexById<{ id: string; total: number }>(orders);
return Object.keys(idx);
