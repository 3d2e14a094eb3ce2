const stream = {
  offset: 0,
  async *[Symbol.asyncIterator]() {
    while (true) {
      const { records, nextOffset } = await tools.kafka.consume({ topic: "orders", offset: this.offset, max: 500 });
      if (!records.length) return;
      this.offset = nextOffset;
      yield* records;
    }
  },
};

let count = 0, revenue = 0;
const failedPayments = [];
for await (const rec of stream) {
  const order = JSON.parse(rec.value);
  count++;
  if (order.payment?.status === "failed") failedPayments.push(order.id);
  else revenue += order.total ?? 0;
  if (count >= 5_000) break;
}
return { count, revenue: revenue.toFixed(2), failedPayments: failedPayments.slice(0, 50), committedOffset: stream.offset };
