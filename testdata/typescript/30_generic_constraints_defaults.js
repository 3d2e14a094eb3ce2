function indexById(items) {
  const out = {};
  items.forEach((item) => { out[String(item.id)] = item; });
  return out;
}
const orders = await tools.orders.list({});
const idx = indexById(orders);
return Object.keys(idx);
