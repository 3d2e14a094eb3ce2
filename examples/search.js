// Search, then drill down: find audio products and who ordered them.
const { products } = await tools.demo.searchProducts({ query: "audio" });
const skus = new Set(products.map((p) => p.sku));

const { orders } = await tools.demo.listOrders({});
const buyers = new Map();
for (const o of orders) {
  if (o.status === "cancelled") continue;
  for (const item of o.items) {
    if (!skus.has(item.sku)) continue;
    const entry = buyers.get(o.customerId) ?? { units: 0, skus: new Set() };
    entry.units += item.qty;
    entry.skus.add(item.sku);
    buyers.set(o.customerId, entry);
  }
}

const customers = await Promise.all([...buyers.keys()].map((id) => tools.demo.getCustomer({ id })));
return {
  products: products.map(({ sku, name, price }) => ({ sku, name, price })),
  buyers: customers.map((c) => ({ name: c.name, city: c.city, units: buyers.get(c.id).units, skus: [...buyers.get(c.id).skus] })),
};
