// Build a monthly expense report from card transactions, receipts and policy rules.
const MONTH = "2024-04";
const POLICY = {
  meals: { perDay: 75, requiresReceiptOver: 25 },
  travel: { perTrip: 1_500, requiresReceiptOver: 0 },
  software: { perMonth: 200, requiresReceiptOver: 0 },
  other: { perMonth: 300, requiresReceiptOver: 50 },
};

const categorize = merchant => {
  const m = merchant.toLowerCase();
  if (/(cafe|coffee|restaurant|grill|pizza|sushi|bar\b)/.test(m)) return "meals";
  if (/(airlines?|hotel|uber|lyft|rail|taxi|airbnb)/.test(m)) return "travel";
  if (/(github|aws|figma|notion|slack|jetbrains|adobe)/.test(m)) return "software";
  return "other";
};

async function fetchAll(fn, args) {
  const out = [];
  let page = 1;
  for (;;) {
    const res = await fn({ ...args, page, pageSize: 100 });
    out.push(...res.items);
    if (page >= res.totalPages) break;
    page++;
  }
  return out;
}

const [transactions, receipts, employees] = await Promise.all([
  fetchAll(tools.cards.listTransactions, { month: MONTH }),
  fetchAll(tools.receipts.list, { month: MONTH }),
  tools.hr.listEmployees({ fields: ["id", "name", "managerEmail", "cardLast4"] }).then(r => r.employees),
]);

const receiptIndex = new Map();
for (const r of receipts) {
  const key = `${r.cardLast4}|${r.date}|${Math.round(r.amount * 100)}`;
  receiptIndex.set(key, r);
}
const employeeByCard = new Map(employees.map(e => [e.cardLast4, e]));

const violations = [];
const perEmployee = new Map();

for (const tx of transactions) {
  const employee = employeeByCard.get(tx.cardLast4);
  if (!employee) {
    violations.push({ type: "unknown-card", tx: tx.id, card: tx.cardLast4 });
    continue;
  }
  const category = tx.category ?? categorize(tx.merchant);
  const receipt = receiptIndex.get(`${tx.cardLast4}|${tx.date}|${Math.round(tx.amount * 100)}`);
  const rule = POLICY[category];

  if (!receipt && tx.amount > rule.requiresReceiptOver) {
    violations.push({ type: "missing-receipt", employee: employee.name, tx: tx.id, amount: tx.amount, category });
  }

  let entry = perEmployee.get(employee.id);
  if (!entry) {
    entry = { employee, byCategory: {}, byDay: {}, total: 0 };
    perEmployee.set(employee.id, entry);
  }
  entry.total += tx.amount;
  entry.byCategory[category] = (entry.byCategory[category] ?? 0) + tx.amount;
  if (category === "meals") {
    entry.byDay[tx.date] = (entry.byDay[tx.date] ?? 0) + tx.amount;
  }
}

for (const { employee, byCategory, byDay } of perEmployee.values()) {
  for (const [day, amt] of Object.entries(byDay)) {
    if (amt > POLICY.meals.perDay) {
      violations.push({ type: "meal-limit", employee: employee.name, day, amount: +amt.toFixed(2) });
    }
  }
  if ((byCategory.software ?? 0) > POLICY.software.perMonth) {
    violations.push({ type: "software-limit", employee: employee.name, amount: +byCategory.software.toFixed(2) });
  }
  if ((byCategory.other ?? 0) > POLICY.other.perMonth) {
    violations.push({ type: "other-limit", employee: employee.name, amount: +byCategory.other.toFixed(2) });
  }
}

const fmt = n => n.toLocaleString("en-US", { style: "currency", currency: "USD" });
const rows = [...perEmployee.values()]
  .sort((a, b) => b.total - a.total)
  .map(({ employee, byCategory, total }) =>
    `| ${employee.name} | ${fmt(byCategory.meals ?? 0)} | ${fmt(byCategory.travel ?? 0)} | ${fmt(byCategory.software ?? 0)} | ${fmt(byCategory.other ?? 0)} | ${fmt(total)} |`);

const table = [
  "| Employee | Meals | Travel | Software | Other | Total |",
  "|---|---:|---:|---:|---:|---:|",
  ...rows,
].join("\n");

const byManager = violations.reduce((acc, v) => {
  const emp = employees.find(e => e.name === v.employee);
  const mgr = emp?.managerEmail ?? "finance@example.com";
  (acc[mgr] ||= []).push(v);
  return acc;
}, {});

const sent = [];
for (const [to, list] of Object.entries(byManager)) {
  const body = [
    `Expense policy exceptions for ${MONTH}:`,
    "",
    ...list.map(v => `• [${v.type}] ${v.employee ?? v.card}${v.amount != null ? ` — ${fmt(v.amount)}` : ""}${v.day ? ` on ${v.day}` : ""}`),
  ].join("\n");
  try {
    await tools.email.send({ to, subject: `Expense exceptions (${list.length})`, body });
    sent.push(to);
  } catch (e) {
    console.log(`failed to email ${to}: ${e.message}`);
  }
}

await tools.sheets.appendRows({
  spreadsheetId: "1AbCdEf",
  range: `Reports!A1`,
  values: [...perEmployee.values()].map(({ employee, total }) => [MONTH, employee.name, total]),
});

return {
  month: MONTH,
  transactions: transactions.length,
  receipts: receipts.length,
  employees: perEmployee.size,
  violations: violations.length,
  notified: sent,
  table,
};
