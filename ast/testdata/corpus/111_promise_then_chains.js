let cleanedUp = false;
const summary = await tools.reports.generate({ type: "quarterly", quarter: "2024-Q2" })
  .then(({ reportId }) => tools.reports.waitFor({ reportId, timeoutSec: 120 }))
  .then(report => report.sections.filter(s => s.kind === "kpi"))
  .then(kpis => kpis.map(({ title, value, target }) => ({ title, value, met: value >= target })))
  .catch(err => {
    console.log("report failed", err?.message);
    return [];
  })
  .finally(() => { cleanedUp = true; });
return { kpis: summary, missed: summary.filter(k => !k.met).map(k => k.title), cleanedUp };
