const candidates = search({ query: "create calendar event", limit: 5 });
console.log(candidates.map(c => `${c.name}: ${c.description}`).join("\n"));

const pick = candidates.find(c => /calendar/i.test(c.name) && /create|insert/i.test(c.name));
if (!pick) throw new Error("no calendar creation tool found");

const [ns, fn] = pick.name.split(".");
const start = new Date();
start.setDate(start.getDate() + 1);
start.setHours(10, 0, 0, 0);
const end = new Date(start.getTime() + 30 * 60_000);

const created = await tools[ns][fn]({
  summary: "Sync with design",
  start: { dateTime: start.toISOString() },
  end: { dateTime: end.toISOString() },
  attendees: [{ email: "dana@example.com" }, { email: "lee@example.com" }],
});
return { tool: pick.name, id: created.id, link: created.htmlLink };
