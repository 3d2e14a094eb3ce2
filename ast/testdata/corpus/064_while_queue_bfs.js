const start = "https://docs.example.com/";
const seen = new Set([start]);
const queue = [start];
const pages = [];
const MAX = 60;

while (queue.length && pages.length < MAX) {
  const url = queue.shift();
  let html;
  try {
    ({ body: html } = await tools.http.get({ url }));
  } catch (e) {
    pages.push({ url, error: e.message });
    continue;
  }
  const title = html.match(/<title>([^<]*)<\/title>/i)?.[1]?.trim() ?? "";
  pages.push({ url, title });
  for (const [, href] of html.matchAll(/href="([^"#]+)"/g)) {
    let abs;
    try { abs = new URL(href, url).href; } catch { continue; }
    if (!abs.startsWith(start) || seen.has(abs)) continue;
    seen.add(abs);
    queue.push(abs);
  }
}
return { crawled: pages.length, pending: queue.length, pages };
