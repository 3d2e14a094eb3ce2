const { results } = await tools.lighthouse.runBatch({ urls: ["https://example.com/", "https://example.com/pricing", "https://example.com/blog"], formFactor: "mobile" });
const cols = ["performance", "accessibility", "best-practices", "seo"];
const pct = v => v == null ? "n/a" : `${Math.round(v * 100)}`;
const head = `| URL | ${cols.join(" | ")} |`;
const sep = `|${" --- |".repeat(cols.length + 1)}`;
const body = results.map(r => `| ${new URL(r.url).pathname} | ${cols.map(c => pct(r.categories[c]?.score)).join(" | ")} |`);
const worst = results.flatMap(r => cols.map(c => ({ url: r.url, c, s: r.categories[c]?.score ?? 1 }))).sort((a, b) => a.s - b.s)[0];
[head, sep, ...body, "", `Worst: ${worst.c} on ${worst.url} (${pct(worst.s)})`].join("\n")
