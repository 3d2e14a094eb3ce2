const org = "acme", project = "web";
const { issues } = await tools.sentry.listIssues({ org, project, query: "is:unresolved firstSeen:-24h", sort: "freq", limit: 25 });
const details = await Promise.all(issues.slice(0, 10).map(async issue => {
  const ev = await tools.sentry.getLatestEvent({ issueId: issue.id });
  const frame = ev.entries
    ?.find(e => e.type === "exception")
    ?.data?.values?.at(-1)
    ?.stacktrace?.frames?.findLast(f => f.inApp);
  return {
    title: issue.title,
    count: Number(issue.count),
    users: issue.userCount,
    where: frame ? `${frame.filename}:${frame.lineNo} in ${frame.function ?? "<anonymous>"}` : "unknown",
    link: issue.permalink,
  };
}));
const total = details.reduce((s, d) => s + d.count, 0);
console.log(`new issues: ${issues.length}, events in top 10: ${total}`);
return details;
