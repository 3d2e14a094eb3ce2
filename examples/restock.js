// Find the products at or below their reorder level, order enough to get
// each back to twice that level, and report what changed.
const { items: low } = await tools.demo.listInventory({ lowStock: true });
if (low.length === 0) return { restocked: [] };

const restocked = [];
for (const item of low) {
  const quantity = item.reorderLevel * 2 - item.stock;
  const after = await tools.demo.restock({ sku: item.sku, quantity });
  restocked.push({ sku: item.sku, name: item.name, before: item.stock, ordered: quantity, after: after.stock });
  console.log(`restocked ${item.sku}: ${item.stock} -> ${after.stock}`);
}

// Check the result the way a careful model would: nothing is low any more.
const { items: stillLow } = await tools.demo.listInventory({ lowStock: true });
const cost = restocked.reduce((sum, r) => sum + r.ordered * low.find((i) => i.sku === r.sku).price, 0);
return { restocked, stillLow: stillLow.map((i) => i.sku), cost: cost.toFixed(2) };
