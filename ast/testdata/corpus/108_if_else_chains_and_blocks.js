const { checks } = await tools.security.scanRepo({ repo: "acme/payments", ref: "main" });
let grade;
const crit = checks.filter(c => c.severity === "critical").length;
const high = checks.filter(c => c.severity === "high").length;
if (crit > 0) {
  grade = "F";
} else if (high > 5) {
  grade = "D";
} else if (high > 0) {
  grade = "C";
} else if (checks.length > 10) grade = "B";
else grade = "A";

{
  const summary = `Security grade ${grade}: ${crit} critical, ${high} high, ${checks.length} total`;
  console.log(summary);
  if (grade < "C") {
    // A and B sort before C
  } else {
    await tools.github.createIssue({ owner: "acme", repo: "payments", title: summary, body: checks.slice(0, 20).map(c => `- **${c.severity}** ${c.rule}: ${c.file}:${c.line}`).join("\n") });
  }
}
;[crit, high].forEach(n => console.log(n))
return grade;
