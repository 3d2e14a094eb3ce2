const orders = await tools.orders.list({});
const bySku = new Map<string, number>();
for (const order of orders as { items: { sku: string; qty: number }[] }[]) {
  for (const { sku, qty } of order.items) {
    bySku.set(sku, (bySku.get(sku) ?? 0) + qty);
  }
}
console.log(`skus: ${bySku.size}`);
const top: [string, number][] = [...bySku.entries()].sort((a, b) => b[1] - a[1]);
console.log("top", top[0]);
return top;
