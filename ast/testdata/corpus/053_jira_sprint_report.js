const board = await tools.jira.getBoard({ name: "Payments" });
const { values: sprints } = await tools.jira.listSprints({ boardId: board.id, state: "active,closed" });
const [active] = sprints.filter(s => s.state === "active");
if (!active) return "no active sprint";

let startAt = 0;
const issues = [];
while (true) {
  const page = await tools.jira.getSprintIssues({ sprintId: active.id, startAt, maxResults: 100 });
  issues.push(...page.issues);
  startAt += page.issues.length;
  if (startAt >= page.total || page.issues.length === 0) break;
}

const points = i => i.fields.customfield_10016 ?? 0;
const done = issues.filter(i => i.fields.status.statusCategory.key === "done");
const inProgress = issues.filter(i => i.fields.status.statusCategory.key === "indeterminate");
const todo = issues.filter(i => i.fields.status.statusCategory.key === "new");

const daysLeft = Math.ceil((new Date(active.endDate) - new Date()) / 86_400_000);
const sum = arr => arr.reduce((s, i) => s + points(i), 0);

return {
  sprint: active.name,
  daysLeft,
  points: { done: sum(done), inProgress: sum(inProgress), todo: sum(todo) },
  completion: `${Math.round((sum(done) / (sum(issues) || 1)) * 100)}%`,
  atRisk: inProgress
    .filter(i => points(i) >= 5)
    .map(i => `${i.key} ${i.fields.summary} (${i.fields.assignee?.displayName ?? "unassigned"})`),
};
