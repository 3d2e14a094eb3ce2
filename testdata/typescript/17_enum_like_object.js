const Status = { Open: "open", Closed: "closed" };
const res = await tools.github.searchIssues({ q: "repo:x" });
const counts = { open: 0, closed: 0 };
for (const issue of res.items) counts[issue.state]++;
return counts;
