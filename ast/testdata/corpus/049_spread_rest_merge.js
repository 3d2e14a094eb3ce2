const defaults = { retries: 3, timeoutMs: 5_000, headers: { "user-agent": "codemode/1.0" } };
const { overrides = {} } = await tools.kv.get({ key: "http-overrides" }) ?? {};
const { headers: extraHeaders = {}, ...restOverrides } = overrides;
const opts = { ...defaults, ...restOverrides, headers: { ...defaults.headers, ...extraHeaders } };

function fetchAllUrls(...urls) {
  return Promise.all(urls.map(url => tools.http.get({ url, ...opts })));
}

const urls = ["https://example.com/a", "https://example.com/b", "https://example.com/c"];
const [first, ...rest] = await fetchAllUrls(...urls, "https://example.com/d");
const sizes = [first, ...rest].map(r => r.body?.length ?? 0);
const max = Math.max(...sizes);
return { opts, sizes, max, firstStatus: first.status };
