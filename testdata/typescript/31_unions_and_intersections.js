const res = await tools.github.searchIssues({ q: "label:bug" });
const bugs = res.items.filter((i) => i.labels.some((l) => l.name === "bug"));
const titles = bugs.map((b) => b.title);
return titles;
