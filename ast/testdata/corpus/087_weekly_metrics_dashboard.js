const weeks = 8;
const end = new Date();
end.setUTCHours(0, 0, 0, 0);
const ranges = Array.from({ length: weeks }, (_, i) => {
  const to = new Date(end.getTime() - i * 7 * 864e5);
  const from = new Date(to.getTime() - 7 * 864e5);
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}).reverse();

const metrics = await Promise.all(ranges.map(async ({ from, to }) => {
  const [signups, revenue, churn] = await Promise.all([
    tools.analytics.count({ event: "signup", from, to }),
    tools.billing.sum({ field: "amount", from, to }),
    tools.billing.count({ event: "subscription.canceled", from, to }),
  ]);
  return { week: from, signups: signups.value, revenue: revenue.value / 100, churn: churn.value };
}));

const delta = (cur, prev) => prev ? `${cur >= prev ? "▲" : "▼"}${Math.abs(((cur - prev) / prev) * 100).toFixed(0)}%` : "";
const spark = vals => {
  const bars = "▁▂▃▄▅▆▇█";
  const min = Math.min(...vals), max = Math.max(...vals);
  return vals.map(v => bars[Math.round(((v - min) / (max - min || 1)) * (bars.length - 1))]).join("");
};

const last = metrics.at(-1), prev = metrics.at(-2);
return [
  `Signups  ${spark(metrics.map(m => m.signups))}  ${last.signups} ${delta(last.signups, prev?.signups)}`,
  `Revenue  ${spark(metrics.map(m => m.revenue))}  $${last.revenue.toLocaleString()} ${delta(last.revenue, prev?.revenue)}`,
  `Churn    ${spark(metrics.map(m => m.churn))}  ${last.churn} ${delta(last.churn, prev?.churn)}`,
].join("\n");
