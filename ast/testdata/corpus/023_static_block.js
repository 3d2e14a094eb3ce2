class Currency {
  static rates = new Map();
  static base;

  static {
    Currency.base = "USD";
    for (const [code, rate] of [["EUR", 0.92], ["GBP", 0.79], ["JPY", 151.3]]) {
      Currency.rates.set(code, rate);
    }
  }

  static convert(amount, to) {
    if (to === this.base) return amount;
    const rate = this.rates.get(to);
    if (rate === undefined) throw new RangeError(`unsupported currency ${to}`);
    return Math.round(amount * rate * 100) / 100;
  }
}

const live = await tools.fx.latest({ base: "USD", symbols: ["EUR", "GBP", "JPY", "CHF"] });
for (const [code, rate] of Object.entries(live.rates ?? {})) Currency.rates.set(code, rate);

const { invoices } = await tools.billing.listInvoices({ status: "open" });
return invoices.map(inv => ({
  id: inv.id,
  usd: inv.amountUsd,
  local: Currency.convert(inv.amountUsd, inv.customerCurrency ?? "USD"),
  currency: inv.customerCurrency ?? "USD",
}));
