class Cache<K, V> {
  private store = new Map<K, V>();
  private hits: number = 0;
  get(key: K, make: () => V): V {
    if (this.store.has(key)) {
      this.hits++;
      return this.store.get(key)!;
    }
    const v: V = make();
    this.store.set(key, v);
    return v;
  }
  stats(): { size: number; hits: number } {
    return { size: this.store.size, hits: this.hits };
  }
}
const cache = new Cache<string, number>();
for (const w of ["a", "b", "a", "c", "a"]) cache.get(w, () => w.charCodeAt(0));
return cache.stats();
