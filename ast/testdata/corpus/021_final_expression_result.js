const { items } = await tools.todo.list({ project: "home" });
const overdue = items.filter(t => !t.done && new Date(t.due) < new Date());
overdue.map(t => ({ title: t.title, daysLate: Math.floor((Date.now() - Date.parse(t.due)) / 86_400_000) }))
