const { metrics } = await tools.analytics.query({ metric: "requests", range: "7d", step: "1h" });
const total = metrics.reduce((a, m) => a + m.value, 0);
const hours = metrics.length;
const perHour = total / hours / 1;
const ratio = (total / hours) / (metrics[0]?.value || 1);
let g = 2, i = 3;
const weird = total / g / i;
const pathPattern = /\/api\/v\d+\//g;
const paths = metrics.map(m => m.path ?? "").filter(p => pathPattern.test(p));
const a = 10, b = 4, c = 2;
const chained = a / b / c;
const notRegex = a
  / b
  / c;

return { perHour, ratio, weird, chained, notRegex, apiPaths: paths.length };
