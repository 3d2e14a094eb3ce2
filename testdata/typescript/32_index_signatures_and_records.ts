interface Totals { [status: string]: number }
class Tally {
  [key: string]: unknown;
  private counts: Totals = {};
  add(k: string): void { this.counts[k] = (this.counts[k] ?? 0) + 1; }
  result(): Readonly<Totals> { return { ...this.counts }; }
}
const orders = await tools.orders.list({});
const t = new Tally();
orders.forEach((o: { status: string }) => t.add(o.status));
return t.result();
