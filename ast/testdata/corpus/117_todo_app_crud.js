const list = await tools.todoist.getProjects().then(ps => ps.find(p => p.name === "Groceries"));
const projectId = list?.id ?? (await tools.todoist.createProject({ name: "Groceries" })).id;
const existing = await tools.todoist.getTasks({ projectId });
const wanted = ["milk", "eggs", "sourdough bread", "coffee beans", "bananas"];
const have = new Set(existing.map(t => t.content.toLowerCase()));
const added = [];
for (const item of wanted) {
  if (have.has(item)) continue;
  const t = await tools.todoist.createTask({ projectId, content: item, dueString: "today" });
  added.push(t.id);
}
const closed = [];
for (const t of existing) {
  if (!wanted.includes(t.content.toLowerCase())) {
    await tools.todoist.closeTask({ id: t.id });
    closed.push(t.content);
  }
}
return { projectId, added: added.length, closed };
