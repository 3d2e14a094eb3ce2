const settings = await tools.config.getAll({ namespace: "payments" });
const flat = {};
function flatten(obj, prefix = "") {
  for (const key in obj) {
    if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
    const val = obj[key];
    const path = prefix ? `${prefix}.${key}` : key;
    if (val && typeof val === "object" && !Array.isArray(val)) flatten(val, path);
    else flat[path] = val;
  }
}
flatten(settings);
const secrets = Object.keys(flat).filter(k => /(secret|token|password|key)$/i.test(k));
for (const k of secrets) flat[k] = "***";
return flat;
