const orders = await tools.orders.list({});
const [first, ...rest] = orders;
const { id, items: [firstItem] } = first;
const summarize = ({ total, status }, { currency = "USD" } = {}) =>
  `${status}:${total}${currency}`;
return { id, sku: firstItem.sku, rest: rest.length, s: summarize(first) };
