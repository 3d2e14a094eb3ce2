const { users } = await tools.idp.listUsers({ filter: 'status eq "ACTIVE"' });
const now = Date.now();
const DAY = 864e5;
const findings = [];
for (const u of users) {
  const issues = [];
  const changed = u.passwordChanged ? Date.parse(u.passwordChanged) : 0;
  if (now - changed > 180 * DAY) issues.push("password older than 180 days");
  if (!u.factors?.some(f => f.status === "ACTIVE")) issues.push("no MFA");
  if (u.lastLogin && now - Date.parse(u.lastLogin) > 90 * DAY) issues.push("inactive 90+ days");
  if (/@(gmail|yahoo|hotmail)\.com$/i.test(u.profile.email)) issues.push("personal email domain");
  if (issues.length) findings.push({ login: u.profile.login, issues });
}
const counts = findings.flatMap(f => f.issues).reduce((m, i) => ({ ...m, [i]: (m[i] ?? 0) + 1 }), {});
({ scanned: users.length, flagged: findings.length, counts, findings: findings.slice(0, 50) })
