async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const idx = next++;
      results[idx] = await fn(items[idx], idx);
    }
  });
  await Promise.all(workers);
  return results;
}

const { urls } = await tools.sitemap.fetch({ url: "https://docs.example.com/sitemap.xml" });
const checks = await mapLimit(urls, 8, async url => {
  const started = Date.now();
  try {
    const res = await tools.http.head({ url, timeoutMs: 10_000 });
    return { url, status: res.status, ms: Date.now() - started };
  } catch (e) {
    return { url, status: 0, error: e.message, ms: Date.now() - started };
  }
});

const broken = checks.filter(c => c.status === 0 || c.status >= 400);
return { checked: checks.length, broken, slowest: checks.reduce((a, b) => (b.ms > a.ms ? b : a), { ms: -1 }) };
