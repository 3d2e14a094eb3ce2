const { employees } = await tools.hr.listEmployees({ includeInactive: false });
const sorted = employees.toSorted
  ? employees.toSorted((a, b) => a.department.localeCompare(b.department) || b.level - a.level || a.lastName.localeCompare(b.lastName))
  : [...employees].sort((a, b) => a.department.localeCompare(b.department) || b.level - a.level || a.lastName.localeCompare(b.lastName));

const lines = [];
let dept = null;
for (const e of sorted) {
  if (e.department !== dept) {
    dept = e.department;
    lines.push(`\n## ${dept}`);
  }
  lines.push(`- L${e.level} ${e.lastName}, ${e.firstName}`);
}
return lines.join("\n").trim();
