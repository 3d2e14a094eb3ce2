const tz = "Europe/Berlin";
const now = new Date();
const startOfWeek = new Date(now);
startOfWeek.setUTCDate(now.getUTCDate() - ((now.getUTCDay() + 6) % 7));
startOfWeek.setUTCHours(0, 0, 0, 0);
const endOfWeek = new Date(startOfWeek.getTime() + 7 * 24 * 60 * 60 * 1000 - 1);

const { events } = await tools.calendar.listEvents({
  calendarId: "primary",
  timeMin: startOfWeek.toISOString(),
  timeMax: endOfWeek.toISOString(),
  timeZone: tz,
});

const minutesByDay = {};
for (const e of events) {
  const start = new Date(e.start.dateTime ?? e.start.date);
  const end = new Date(e.end.dateTime ?? e.end.date);
  const day = start.toLocaleDateString("en-US", { weekday: "short", timeZone: tz });
  minutesByDay[day] = (minutesByDay[day] ?? 0) + (end - start) / 60000;
}

const busiest = Object.entries(minutesByDay).reduce((best, cur) => (cur[1] > best[1] ? cur : best), ["none", 0]);
return { week: `${startOfWeek.toISOString().slice(0, 10)}..${endOfWeek.toISOString().slice(0, 10)}`, minutesByDay, busiest: busiest[0] };
