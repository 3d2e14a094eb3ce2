const { products } = await tools.shopify.listProducts({ limit: 250, status: "active" });
const rows = products.flatMap(p => p.variants.map(v => ({
  productId: p.id,
  title: `${p.title} / ${v.title}`,
  sku: v.sku,
  price: Number(v.price),
  inStock: v.inventory_quantity > 0,
})));
const mk = (k, v) => ({ [k]: v });
const toPair = ({ sku, price }) => ({ sku, price });
const cheapest = rows.filter(r => r.inStock).sort((a, b) => a.price - b.price).slice(0, 5).map(toPair);
return { ...mk("variantCount", rows.length), ...mk("cheapest", cheapest) };
