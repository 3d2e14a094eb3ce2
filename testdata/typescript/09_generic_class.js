class Cache {
  store = new Map();
  hits = 0;
  get(key, make) {
    if (this.store.has(key)) {
      this.hits++;
      return this.store.get(key);
    }
    const v = make();
    this.store.set(key, v);
    return v;
  }
  stats() {
    return { size: this.store.size, hits: this.hits };
  }
}
const cache = new Cache();
for (const w of ["a", "b", "a", "c", "a"]) cache.get(w, () => w.charCodeAt(0));
return cache.stats();
