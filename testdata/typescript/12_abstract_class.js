class Report {
  async render() {
    const rows = await this.rows();
    return [this.name(), ...rows].join("\n");
  }
  name() { return "Report"; }
}
class OrderReport extends Report {
  title = "Orders";
  async rows() {
    const orders = await tools.orders.list({});
    return orders.map((o) => `${o.id}: ${o.total}`);
  }
  name() { return this.title; }
  *[Symbol.iterator]() { yield this.title; }
}
return await new OrderReport().render();
