const Status = { Open: "open", Closed: "closed" } as const;
type Status = (typeof Status)[keyof typeof Status];
const res = await tools.github.searchIssues({ q: "repo:x" });
const counts: Record<Status, number> = { open: 0, closed: 0 };
for (const issue of res.items as { state: Status }[]) counts[issue.state]++;
return counts;
