const { sales } = await tools.pos.dailySales({ storeIds: ["de-01", "fr-02", "jp-03"], date: "2024-06-30" });
const locales = { "de-01": ["de-DE", "EUR"], "fr-02": ["fr-FR", "EUR"], "jp-03": ["ja-JP", "JPY"] };
const lines = sales.map(({ storeId, total, units }) => {
  const [locale, currency] = locales[storeId] ?? ["en-US", "USD"];
  const money = new Intl.NumberFormat(locale, { style: "currency", currency }).format(total);
  const count = new Intl.NumberFormat(locale).format(units);
  return `${storeId}: ${money} (${count} units)`;
});
const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const list = new Intl.ListFormat("en", { style: "long", type: "conjunction" });
lines.push(`Report generated ${rtf.format(-1, "day")} for ${list.format(Object.keys(locales))}.`);
return lines.join("\n");
