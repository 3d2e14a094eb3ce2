const { tickets } = await tools.zendesk.searchTickets({ query: "type:ticket created>7days", per_page: 100 });
const stop = new Set("the a an and or to of in on for is it this that with my i we you be are was can not".split(" "));
const freq = new Map();
for (const t of tickets) {
  for (const w of `${t.subject} ${t.description}`.toLowerCase().match(/\p{L}[\p{L}'-]+/gu) ?? []) {
    if (stop.has(w) || w.length < 3) continue;
    freq.set(w, (freq.get(w) ?? 0) + 1);
  }
}
const top = [...freq].sort(([, x], [, y]) => y - x).slice(0, 25);
Object.fromEntries(top)
