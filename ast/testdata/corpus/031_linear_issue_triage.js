const { issues } = await tools.linear.searchIssues({ query: "label:bug state:Triage", first: 100 });

const rules = [
  { match: /crash|panic|segfault/i, priority: 1, team: "core" },
  { match: /login|auth|sso|oauth/i, priority: 2, team: "identity" },
  { match: /slow|latency|timeout/i, priority: 2, team: "perf" },
  { match: /typo|copy|wording/i, priority: 4, team: "docs" },
];

const updates = [];
for (const issue of issues) {
  const text = `${issue.title}\n${issue.description ?? ""}`;
  const rule = rules.find(r => r.match.test(text));
  if (!rule) continue;
  updates.push(tools.linear.updateIssue({ id: issue.id, priority: rule.priority, teamKey: rule.team.toUpperCase() }));
}

const settled = await Promise.allSettled(updates);
const failed = settled.filter(s => s.status === "rejected");
return { triaged: settled.length - failed.length, failed: failed.length, untouched: issues.length - settled.length };
