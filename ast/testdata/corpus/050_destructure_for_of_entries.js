const { repos } = await tools.github.listOrgRepos({ org: "acme", type: "all", per_page: 100 });
const langTotals = {};
for (const { name, language, size, archived } of repos) {
  if (archived) continue;
  const key = language ?? "Unknown";
  langTotals[key] ??= { repos: [], size: 0 };
  langTotals[key].repos.push(name);
  langTotals[key].size += size;
}
const lines = [];
for (const [lang, { repos: names, size }] of Object.entries(langTotals)) {
  lines.push(`${lang.padEnd(12)} ${String(names.length).padStart(3)} repos ${(size / 1024).toFixed(1)} MB`);
}
for (const [i, [lang]] of Object.entries(langTotals).entries()) {
  if (i >= 3) break;
  console.log("top lang candidate:", lang);
}
return lines.join("\n");
