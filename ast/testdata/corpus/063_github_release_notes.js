const owner = "acme", repo = "cli";
const { data: tags } = await tools.github.listTags({ owner, repo, per_page: 2 });
const [head, base] = tags;
const { commits } = await tools.github.compareCommits({ owner, repo, base: base.name, head: head.name });

const sections = { feat: [], fix: [], perf: [], docs: [], chore: [], other: [] };
const conv = /^(?<type>\w+)(?:\((?<scope>[^)]+)\))?(?<breaking>!)?:\s*(?<subject>.+)$/;
const breaking = [];

for (const c of commits) {
  const [firstLine, ...bodyLines] = c.commit.message.split("\n");
  const m = firstLine.match(conv);
  const { type = "other", scope, subject = firstLine, breaking: bang } = m?.groups ?? {};
  const entry = `${scope ? `**${scope}:** ` : ""}${subject} (${c.sha.slice(0, 7)})`;
  (sections[type] ?? sections.other).push(entry);
  if (bang || bodyLines.some(l => l.startsWith("BREAKING CHANGE:"))) breaking.push(entry);
}

const titles = { feat: "Features", fix: "Bug Fixes", perf: "Performance", docs: "Documentation", chore: "Chores", other: "Other" };
let notes = `# ${head.name}\n\n`;
if (breaking.length) notes += `## ⚠ Breaking Changes\n${breaking.map(b => `- ${b}`).join("\n")}\n\n`;
for (const [k, list] of Object.entries(sections)) {
  if (!list.length) continue;
  notes += `## ${titles[k]}\n${list.map(e => `- ${e}`).join("\n")}\n\n`;
}

const release = await tools.github.createRelease({ owner, repo, tag_name: head.name, name: head.name, body: notes.trimEnd(), draft: true });
return { url: release.html_url, commits: commits.length, breaking: breaking.length };
