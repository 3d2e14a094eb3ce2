interface Order { id: string; customerId: number; total: number; status: string; items: { sku: string; qty: number; price: number }[] }
const orders: Order[] = await tools.orders.list({});
const [first, ...rest]: Order[] = orders;
const { id, items: [firstItem] }: Order = first;
const summarize = ({ total, status }: Pick<Order, "total" | "status">, { currency = "USD" }: { currency?: string } = {}): string =>
  `${status}:${total}${currency}`;
return { id, sku: firstItem.sku, rest: rest.length, s: summarize(first) };
