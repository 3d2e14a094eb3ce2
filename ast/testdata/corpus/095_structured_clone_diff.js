const current = await tools.firewall.getRules({ policy: "edge-default" });
const desired = structuredClone(current);
desired.rules = desired.rules.filter(r => !(r.action === "allow" && r.source === "0.0.0.0/0" && r.port === 22));
desired.rules.push({ action: "allow", source: "10.0.0.0/8", port: 22, comment: "ssh from vpc only" });

const key = r => `${r.action}|${r.source}|${r.port}`;
const before = new Set(current.rules.map(key));
const after = new Set(desired.rules.map(key));
const added = [...after].filter(k => !before.has(k));
const removed = [...before].filter(k => !after.has(k));

if (!added.length && !removed.length) return "no changes";
const dryRun = await tools.firewall.validate({ policy: "edge-default", rules: desired.rules });
if (!dryRun.valid) throw new Error(`validation failed: ${dryRun.errors.join("; ")}`);
await tools.firewall.applyRules({ policy: "edge-default", rules: desired.rules, reason: "restrict ssh" });
return { added, removed };
