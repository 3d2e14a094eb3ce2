// Assemble a postmortem draft for an incident: timeline from PagerDuty, Slack and deploys,
// metrics around the window, and action items from Jira. Writes a Google Doc.
const INCIDENT_ID = "PD-48213";
const SLACK_CHANNEL = "inc-48213";
const PAD_MINUTES = 30;

const incident = await tools.pagerduty.getIncident({ id: INCIDENT_ID });
const startedAt = new Date(incident.created_at);
const resolvedAt = incident.resolved_at ? new Date(incident.resolved_at) : new Date();
const windowStart = new Date(startedAt.getTime() - PAD_MINUTES * 60_000);
const windowEnd = new Date(resolvedAt.getTime() + PAD_MINUTES * 60_000);
const durationMin = Math.round((resolvedAt - startedAt) / 60_000);

const iso = d => d.toISOString();
const hhmm = d => iso(d).slice(11, 16);

const [logEntries, slackHistory, deploys, errorRate, latency, followUps] = await Promise.all([
  tools.pagerduty.listLogEntries({ incidentId: INCIDENT_ID, isOverview: true }),
  tools.slack.findChannel({ name: SLACK_CHANNEL })
    .then(({ channel }) => tools.slack.conversationsHistory({ channel: channel.id, oldest: String(windowStart / 1000), latest: String(windowEnd / 1000), limit: 1000 }))
    .catch(err => {
      console.log("slack unavailable:", err.message);
      return { messages: [] };
    }),
  tools.deploys.list({ env: "production", from: iso(windowStart), to: iso(windowEnd) }),
  tools.metrics.query({ expr: 'sum(rate(http_requests_total{code=~"5.."}[1m])) / sum(rate(http_requests_total[1m]))', start: iso(windowStart), end: iso(windowEnd), step: "60s" }),
  tools.metrics.query({ expr: "histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket[1m])))", start: iso(windowStart), end: iso(windowEnd), step: "60s" }),
  tools.jira.search({ jql: `labels = "${INCIDENT_ID}" ORDER BY priority DESC`, fields: ["summary", "assignee", "status", "duedate"] }),
]);

const timeline = [];
const push = (at, source, text) => timeline.push({ at: new Date(at), source, text: text.replace(/\s+/g, " ").trim() });

for (const e of logEntries.log_entries ?? []) {
  switch (e.type) {
    case "trigger_log_entry":
      push(e.created_at, "pagerduty", `Triggered: ${e.summary}`);
      break;
    case "acknowledge_log_entry":
      push(e.created_at, "pagerduty", `Acknowledged by ${e.agent?.summary ?? "unknown"}`);
      break;
    case "escalate_log_entry":
    case "assign_log_entry":
      push(e.created_at, "pagerduty", e.summary);
      break;
    case "resolve_log_entry":
      push(e.created_at, "pagerduty", `Resolved by ${e.agent?.summary ?? "system"}`);
      break;
    default:
      break;
  }
}

const IMPORTANT = /\b(root cause|rollback|rolled back|mitigat\w*|fixed|deploy(ed)?|revert(ed)?|hypothesis|customer impact)\b/i;
for (const m of slackHistory.messages ?? []) {
  if (m.subtype === "channel_join" || !m.text) continue;
  const pinned = (m.pinned_to?.length ?? 0) > 0;
  if (pinned || IMPORTANT.test(m.text)) {
    push(Number(m.ts) * 1000, "slack", `${pinned ? "📌 " : ""}${m.user_profile?.real_name ?? m.user}: ${m.text.slice(0, 200)}`);
  }
}

for (const d of deploys.items ?? []) {
  push(d.finishedAt ?? d.startedAt, "deploy", `${d.service}@${d.version} by ${d.author}${d.rollback ? " (ROLLBACK)" : ""}`);
}

timeline.sort((a, b) => a.at - b.at);

const series = res => (res?.data?.result?.[0]?.values ?? []).map(([t, v]) => [t * 1000, parseFloat(v)]);
const errSeries = series(errorRate);
const latSeries = series(latency);
const peak = arr => arr.reduce((best, cur) => (cur[1] > best[1] ? cur : best), [0, -Infinity]);
const [errPeakAt, errPeak] = peak(errSeries);
const [latPeakAt, latPeak] = peak(latSeries);

const firstBad = errSeries.find(([, v]) => v > 0.01);
const detectionLagMin = firstBad ? Math.round((startedAt - firstBad[0]) / 60_000) : null;

const suspects = (deploys.items ?? [])
  .filter(d => new Date(d.finishedAt ?? d.startedAt) <= startedAt && !d.rollback)
  .sort((a, b) => Date.parse(b.finishedAt) - Date.parse(a.finishedAt))
  .slice(0, 3);

const actionItems = (followUps.issues ?? []).map(({ key, fields: { summary, assignee, status, duedate } }) =>
  `- [${status.name === "Done" ? "x" : " "}] ${key}: ${summary} — ${assignee?.displayName ?? "unassigned"}${duedate ? ` (due ${duedate})` : ""}`);

const md = [
  `# Postmortem: ${incident.title}`,
  "",
  `**Incident:** ${INCIDENT_ID}  `,
  `**Severity:** ${incident.priority?.summary ?? "unknown"}  `,
  `**Duration:** ${durationMin} min (${hhmm(startedAt)}–${hhmm(resolvedAt)} UTC)  `,
  `**Detection lag:** ${detectionLagMin ?? "n/a"}${detectionLagMin != null ? " min" : ""}`,
  "",
  "## Impact",
  `Peak 5xx rate ${(errPeak * 100).toFixed(2)}% at ${errPeakAt ? hhmm(new Date(errPeakAt)) : "n/a"}; ` +
    `peak p99 latency ${Number.isFinite(latPeak) ? latPeak.toFixed(2) + "s" : "n/a"} at ${latPeakAt ? hhmm(new Date(latPeakAt)) : "n/a"}.`,
  "",
  "## Suspect changes",
  ...(suspects.length ? suspects.map(d => `- ${d.service}@${d.version} (${d.author}, ${hhmm(new Date(d.finishedAt))})`) : ["- none in window"]),
  "",
  "## Timeline (UTC)",
  ...timeline.map(({ at, source, text }) => `- **${hhmm(at)}** [${source}] ${text}`),
  "",
  "## Action items",
  ...(actionItems.length ? actionItems : ["- _none filed yet_"]),
  "",
  "## Root cause",
  "_TODO_",
].join("\n");

let docUrl = null;
try {
  const doc = await tools.gdocs.createDocument({ title: `Postmortem ${INCIDENT_ID} — ${incident.title}`, markdown: md, folderId: "postmortems" });
  docUrl = doc.url;
  await tools.slack.postMessage({ channel: `#${SLACK_CHANNEL}`, text: `Draft postmortem: ${docUrl}` });
} catch (err) {
  console.log("failed to publish doc:", err.message);
}

return {
  docUrl,
  durationMin,
  timelineEvents: timeline.length,
  suspects: suspects.map(s => `${s.service}@${s.version}`),
  actionItems: actionItems.length,
  preview: md.split("\n").slice(0, 12).join("\n"),
};
