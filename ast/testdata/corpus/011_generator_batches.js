function* chunk(arr, size) {
  for (let i = 0; i < arr.length; i += size) {
    yield arr.slice(i, i + size);
  }
}

const { skus } = await tools.inventory.listSkus({ warehouse: "EU-1" });
const levels = [];
for (const batch of chunk(skus, 50)) {
  const res = await tools.inventory.getStockLevels({ skus: batch });
  levels.push(...res.levels);
}

const low = levels.filter(l => l.onHand < l.reorderPoint);
return {
  checked: levels.length,
  lowStock: low.map(({ sku, onHand, reorderPoint }) => `${sku}: ${onHand}/${reorderPoint}`),
};
