const raw = await tools.s3.getObject({ bucket: "exports", key: "daily/2024-05-01.json" });
let data;
try {
  data = JSON.parse(raw.body);
} catch {
  return { error: "invalid JSON in export", preview: raw.body.slice(0, 200) };
}

const cleaned = JSON.parse(JSON.stringify(data, (k, v) => (k.startsWith("_") ? undefined : v)));
const out = JSON.stringify(cleaned, null, 2);
await tools.s3.putObject({ bucket: "exports", key: "daily/2024-05-01.clean.json", body: out, contentType: "application/json" });
return { originalBytes: raw.body.length, cleanedBytes: out.length };
