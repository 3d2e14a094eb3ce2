/*
 * Find stale feature branches and open a cleanup issue.
 * A branch is stale when its last commit is older than 90 days and it has no open PR.
 */
const owner = "acme", repo = "monolith"; // target repo
const cutoff = Date.now() - 90 * 24 * 60 * 60 * 1000;

const branches = [];
for (let page = 1; ; page++) {
  const batch = await tools.github.listBranches({ owner, repo, per_page: 100, page });
  branches.push(...batch);
  if (batch.length < 100) break; // last page
}

const { data: pulls } = await tools.github.listPulls({ owner, repo, state: "open", per_page: 100 });
const withPr = new Set(pulls.map(p => p.head.ref));

const stale = [];
for (const b of branches) {
  if (b.protected || /^(main|master|develop|release\/.*)$/.test(b.name) || withPr.has(b.name)) continue;
  const { commit } = await tools.github.getCommit({ owner, repo, ref: b.commit.sha });
  const when = Date.parse(commit.committer.date);
  if (when < cutoff) stale.push({ name: b.name, author: commit.author.name, days: Math.floor((Date.now() - when) / 864e5) });
}

/* nothing to do */
if (!stale.length) return "no stale branches";

const body = stale
  .sort((a, b) => b.days - a.days)
  .map(s => `- [ ] \`${s.name}\` — ${s.author}, ${s.days}d`) /* checklist */
  .join("\n");
const issue = await tools.github.createIssue({ owner, repo, title: `Stale branches (${stale.length})`, body });
return issue.html_url;
