class TTLCache {
  #store = new Map();
  #ttl;
  hits = 0;
  misses = 0;

  constructor(ttlMs = 60_000) { this.#ttl = ttlMs; }

  #expired(entry) { return Date.now() - entry.at > this.#ttl; }

  static #instances = 0;
  static count() { return TTLCache.#instances; }

  async getOrLoad(key, loader) {
    const e = this.#store.get(key);
    if (e && !this.#expired(e)) { this.hits++; return e.value; }
    this.misses++;
    const value = await loader(key);
    this.#store.set(key, { value, at: Date.now() });
    TTLCache.#instances = Math.max(TTLCache.#instances, this.#store.size);
    return value;
  }

  has(key) { return #store in this && this.#store.has(key); }
}

const cache = new TTLCache(5 * 60_000);
const { commits } = await tools.github.listCommits({ owner: "acme", repo: "api", per_page: 100 });
const authors = [];
for (const c of commits) {
  const user = await cache.getOrLoad(c.author?.login ?? c.commit.author.email, k => tools.github.getUser({ username: k }).catch(() => ({ login: k, name: null })));
  authors.push(user.name ?? user.login);
}
return { hits: cache.hits, misses: cache.misses, uniqueAuthors: [...new Set(authors)] };
