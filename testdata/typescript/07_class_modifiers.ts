class Ledger {
  private readonly entries: Array<{ label: string; amount: number }> = [];
  public static readonly currency: string = "USD";
  protected total: number = 0;

  public add(label: string, amount: number): this {
    this.entries.push({ label, amount });
    this.total += amount;
    return this;
  }

  get balance(): number {
    return this.total;
  }

  public summary(): string {
    return `${this.entries.length} entries, ${this.balance} ${Ledger.currency}`;
  }
}
const orders = await tools.orders.list({});
const ledger = new Ledger();
for (const o of orders) ledger.add(o.id, o.total);
return ledger.summary();
