const { events } = await tools.pagerduty.listIncidents({ since: new Date(Date.now() - 864e5).toISOString() });
const counts = { critical: 0, high: 0, other: 0, escalate: 0 };

for (const ev of events) {
  switch (ev.urgency) {
    case "critical":
      counts.critical++;
      // falls through
    case "high":
      counts.high++;
      if (ev.status === "triggered") counts.escalate++;
      break;
    case "low":
    case "info":
    default:
      counts.other++;
  }
}

if (counts.escalate > 0) {
  await tools.pagerduty.escalate({ incidentIds: events.filter(e => e.status === "triggered" && e.urgency !== "low").map(e => e.id) });
}
return counts;
