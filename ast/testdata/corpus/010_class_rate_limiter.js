class RateLimiter {
  #tokens;
  #capacity;
  static instances = 0;

  constructor(capacity) {
    this.#capacity = capacity;
    this.#tokens = capacity;
    RateLimiter.instances++;
  }

  get available() {
    return this.#tokens;
  }

  async take() {
    while (this.#tokens <= 0) {
      await tools.util.sleep({ ms: 250 });
      this.#tokens = this.#capacity;
    }
    this.#tokens--;
  }
}

const limiter = new RateLimiter(5);
const ids = Array.from({ length: 23 }, (_, i) => 1000 + i);
const out = [];
for (const id of ids) {
  await limiter.take();
  const order = await tools.shop.getOrder({ id });
  out.push({ id, total: order.total, status: order.status });
}
return { fetched: out.length, remaining: limiter.available, orders: out };
