const services = ["api", "billing", "search", "auth", "notifications"];
const results = await Promise.allSettled(
  services.map(name => tools.monitoring.healthCheck({ service: name }))
);

const report = results.map((r, i) => r.status === "fulfilled"
  ? { service: services[i], ok: r.value.healthy, latencyMs: r.value.latencyMs }
  : { service: services[i], ok: false, error: String(r.reason?.message ?? r.reason) });

const down = report.filter(r => !r.ok);
if (down.length) {
  await tools.slack.postMessage({
    channel: "#oncall",
    text: `:rotating_light: ${down.length} service(s) unhealthy: ${down.map(d => d.service).join(", ")}`,
  });
}
report
