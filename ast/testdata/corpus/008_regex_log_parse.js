const { lines } = await tools.logs.tail({ service: "gateway", count: 2000 });
const re = /^(?<ts>\d{4}-\d{2}-\d{2}T[\d:.]+Z)\s+(?<level>INFO|WARN|ERROR)\s+\[(?<route>[^\]]+)\]\s+(?<status>\d{3})\s+(?<ms>\d+)ms$/;

const stats = {};
let unmatched = 0;
for (const line of lines) {
  const m = re.exec(line);
  if (!m) { unmatched++; continue; }
  const { route, status, ms } = m.groups;
  const s = (stats[route] ??= { count: 0, errors: 0, totalMs: 0, maxMs: 0 });
  s.count++;
  if (+status >= 500) s.errors++;
  s.totalMs += Number(ms);
  s.maxMs = Math.max(s.maxMs, Number(ms));
}

return Object.entries(stats)
  .map(([route, s]) => ({ route, ...s, avgMs: Math.round(s.totalMs / s.count) }))
  .sort((a, b) => b.errors - a.errors || b.avgMs - a.avgMs)
  .concat([{ route: "(unmatched)", count: unmatched }]);
