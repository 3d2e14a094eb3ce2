// A code-mode program that needs no tools: shape some data the way a model
// would after fetching it, and return one JSON value.
const orders = [
  { id: 1, customer: "ada", items: [{ sku: "A", qty: 2, price: 9.5 }], placed: "2026-11-02T10:00:00Z" },
  { id: 2, customer: "bob", items: [{ sku: "B", qty: 1, price: 120 }, { sku: "A", qty: 1, price: 9.5 }], placed: "2026-11-03T16:30:00Z" },
  { id: 3, customer: "ada", items: [{ sku: "C", qty: 5, price: 3.2 }], placed: "2026-11-28T08:15:00Z" },
];

class Money {
  #cents;
  constructor(amount) { this.#cents = Math.round(amount * 100); }
  add(other) { return new Money((this.#cents + other.#cents) / 100); }
  toJSON() { return (this.#cents / 100).toFixed(2); }
}

async function totalOf(order) {
  await null; // stands in for a tool call
  return order.items.reduce((sum, { qty, price }) => sum.add(new Money(qty * price)), new Money(0));
}

const totals = await Promise.all(orders.map(totalOf));
const byCustomer = Object.groupBy(orders, (o) => o.customer);
const skus = new Set(orders.flatMap((o) => o.items.map((i) => i.sku)));

console.log(`processed ${orders.length} orders`);
return {
  revenue: totals.reduce((a, b) => a.add(b)),
  customers: Object.fromEntries(Object.entries(byCustomer).map(([name, list]) => [name, list.map((o) => o.id)])),
  skus: [...skus].sort(),
  lastOrder: new Date(Math.max(...orders.map((o) => Date.parse(o.placed)))).toISOString(),
};
