const owner = "acme";
const repo = "widgets";
const [repoInfo, issues] = await Promise.all([
  tools.github.getRepo({ owner, repo }),
  tools.jira.search({ jql: "project = WID AND status != Done ORDER BY priority DESC", maxResults: 50 }),
]);

const openByPriority = {};
for (const issue of issues.issues) {
  const p = issue.fields.priority?.name ?? "None";
  openByPriority[p] = (openByPriority[p] || 0) + 1;
}

return {
  repo: repoInfo.full_name,
  stars: repoInfo.stargazers_count,
  openIssues: issues.total,
  openByPriority,
};
