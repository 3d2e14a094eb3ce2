const meta = new WeakMap();
const kSource = Symbol("source");
const [gh, gl] = await Promise.all([
  tools.github.searchIssues({ q: "is:open label:security org:acme" }),
  tools.gitlab.listIssues({ group: "acme", labels: "security", state: "opened" }),
]);
const unified = [
  ...gh.items.map(i => ({ title: i.title, url: i.html_url, created: i.created_at, [kSource]: "github" })),
  ...gl.map(i => ({ title: i.title, url: i.web_url, created: i.created_at, [kSource]: "gitlab" })),
];
for (const item of unified) meta.set(item, { ageDays: Math.floor((Date.now() - Date.parse(item.created)) / 864e5) });
const old = unified.filter(i => meta.get(i).ageDays > 30);
return old.map(i => ({ source: i[kSource], title: i.title, ageDays: meta.get(i).ageDays, url: i.url }));
