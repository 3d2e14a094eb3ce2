const lock = await tools.locks.acquire({ name: "nightly-reindex", ttlSeconds: 600 });
if (!lock.acquired) return { skipped: true, holder: lock.holder };

let processed = 0;
try {
  const { indices } = await tools.search.listIndices({ prefix: "products-" });
  for (const idx of indices) {
    await tools.search.reindex({ source: idx.name, dest: `${idx.name}-v2` });
    processed++;
  }
} catch (err) {
  console.log("reindex failed:", err.message);
  throw err;
} finally {
  await tools.locks.release({ name: "nightly-reindex", token: lock.token });
  console.log(`released lock after ${processed} indices`);
}
return { processed };
