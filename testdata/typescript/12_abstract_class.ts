abstract class Report {
  abstract title: string;
  abstract rows(): Promise<string[]>;
  async render(): Promise<string> {
    const rows = await this.rows();
    return [this.name(), ...rows].join("\n");
  }
  protected name(): string { return "Report"; }
}
class OrderReport extends Report implements Iterable<string> {
  title = "Orders";
  async rows(): Promise<string[]> {
    const orders = await tools.orders.list({});
    return orders.map((o: { id: string; total: number }) => `${o.id}: ${o.total}`);
  }
  protected override name(): string { return this.title; }
  *[Symbol.iterator](): Iterator<string> { yield this.title; }
}
return await new OrderReport().render();
