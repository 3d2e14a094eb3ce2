// A typical code-mode program: fan out tool calls, page through results,
// shape the data, and return one value.
const [repo, issues] = await Promise.all([
  tools.github.getRepo({ owner: "go-codemode", repo: "codemode" }),
  tools.github.listIssues({ owner: "go-codemode", repo: "codemode", state: "open" }),
]);

const byLabel = Object.groupBy(issues.items, (i) => i.labels[0]?.name ?? "unlabeled");

let cursor, commits = [];
do {
  const page = await tools.github.listCommits({ repo: repo.fullName, cursor, limit: 100 });
  commits.push(...page.items);
  cursor = page.next;
} while (cursor && commits.length < 500);

const authors = new Map();
for (const { author } of commits) authors.set(author, (authors.get(author) ?? 0) + 1);

console.log(`checked ${commits.length} commits`);
return {
  stars: repo.stars,
  openByLabel: Object.fromEntries(Object.entries(byLabel).map(([k, v]) => [k, v.length])),
  topAuthors: [...authors].sort((a, b) => b[1] - a[1]).slice(0, 3),
};
