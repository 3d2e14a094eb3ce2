class Tally {
  counts = {};
  add(k) { this.counts[k] = (this.counts[k] ?? 0) + 1; }
  result() { return { ...this.counts }; }
}
const orders = await tools.orders.list({});
const t = new Tally();
orders.forEach((o) => t.add(o.status));
return t.result();
