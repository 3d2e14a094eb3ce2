class Paginator {
  static async create(resource, pageSize = 100) {
    const p = new Paginator(resource, pageSize);
    await p.#prime();
    return p;
  }
  #resource; #pageSize; #first = null;
  constructor(resource, pageSize) {
    if (new.target !== Paginator) throw new TypeError("use Paginator.create");
    this.#resource = resource;
    this.#pageSize = pageSize;
  }
  async #prime() {
    this.#first = await tools.zendesk.list({ resource: this.#resource, per_page: this.#pageSize });
  }
  get total() { return this.#first?.count ?? 0; }
  async *[Symbol.asyncIterator]() {
    let page = this.#first;
    while (page) {
      yield* page.items;
      page = page.next_page ? await tools.zendesk.list({ url: page.next_page }) : null;
    }
  }
  *pageNumbers() {
    const pages = Math.ceil(this.total / this.#pageSize);
    for (let i = 1; i <= pages; i++) yield i;
  }
}

const tickets = await Paginator.create("tickets", 100);
const pages = [...tickets.pageNumbers()].length;
const tags = new Map();
for await (const t of tickets) {
  for (const tag of t.tags ?? []) tags.set(tag, (tags.get(tag) ?? 0) + 1);
}
return { total: tickets.total, pages, topTags: [...tags].sort((a, b) => b[1] - a[1]).slice(0, 15) };
