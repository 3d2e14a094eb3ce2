const orders = await tools.orders.list({});
const bySku = new Map();
for (const order of orders) {
  for (const { sku, qty } of order.items) {
    bySku.set(sku, (bySku.get(sku) ?? 0) + qty);
  }
}
console.log(`skus: ${bySku.size}`);
const top = [...bySku.entries()].sort((a, b) => b[1] - a[1]);
console.log("top", top[0]);
return top;
