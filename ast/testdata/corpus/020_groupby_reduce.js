const { transactions } = await tools.bank.listTransactions({ accountId: "chk_01", from: "2024-01-01", to: "2024-03-31" });

const byCategory = Object.groupBy
  ? Object.groupBy(transactions, t => t.category ?? "uncategorized")
  : transactions.reduce((acc, t) => ((acc[t.category ?? "uncategorized"] ??= []).push(t), acc), {});

const summary = Object.entries(byCategory)
  .map(([category, txs]) => ({
    category,
    count: txs.length,
    total: Math.round(txs.reduce((s, t) => s + t.amount, 0) * 100) / 100,
  }))
  .sort((x, y) => x.total - y.total);

const monthly = transactions.reduce((acc, { date, amount }) => {
  const month = date.slice(0, 7);
  acc[month] = (acc[month] ?? 0) + amount;
  return acc;
}, {});

return { summary, monthly };
