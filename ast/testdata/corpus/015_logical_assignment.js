const config = (await tools.kv.get({ key: "deploy-config" }))?.value ?? {};
config.region ||= "us-east-1";
config.replicas ??= 3;
config.features ??= {};
config.features.darkLaunch &&= config.env !== "production";
config.timeoutMs ||= 30_000;

let changed = false;
for (const k in config) {
  if (Object.hasOwn(config, k) && config[k] === undefined) {
    delete config[k];
    changed = true;
  }
}

await tools.kv.set({ key: "deploy-config", value: config });
return { config, changed };
