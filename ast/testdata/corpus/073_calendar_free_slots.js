const attendees = ["ana@example.com", "bo@example.com", "cy@example.com"];
const day = "2024-07-15";
const { calendars } = await tools.calendar.freeBusy({
  timeMin: `${day}T09:00:00-04:00`,
  timeMax: `${day}T17:00:00-04:00`,
  items: attendees.map(id => ({ id })),
});

const busy = Object.values(calendars)
  .flatMap(c => c.busy)
  .map(({ start, end }) => [Date.parse(start), Date.parse(end)])
  .sort(([a], [b]) => a - b);

const merged = [];
for (const [s, e] of busy) {
  const last = merged.at(-1);
  if (last && s <= last[1]) last[1] = Math.max(last[1], e);
  else merged.push([s, e]);
}

const dayStart = Date.parse(`${day}T09:00:00-04:00`);
const dayEnd = Date.parse(`${day}T17:00:00-04:00`);
const free = [];
let cursor = dayStart;
for (const [s, e] of merged) {
  if (s - cursor >= 30 * 60e3) free.push([cursor, s]);
  cursor = Math.max(cursor, e);
}
if (dayEnd - cursor >= 30 * 60e3) free.push([cursor, dayEnd]);

const fmt = t => new Date(t).toISOString().slice(11, 16);
free.map(([s, e]) => `${fmt(s)}–${fmt(e)} UTC (${(e - s) / 60e3} min)`)
