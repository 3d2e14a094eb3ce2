class Budget {
  #limit = 0;
  #spent = 0;
  constructor(limit) { this.limit = limit; }
  get limit() { return this.#limit; }
  set limit(v) {
    if (typeof v !== "number" || v < 0) throw new TypeError("limit must be a non-negative number");
    this.#limit = v;
  }
  get remaining() { return this.#limit - this.#spent; }
  spend(n) {
    if (n > this.remaining) return false;
    this.#spent += n;
    return true;
  }
  static from({ limit }) { return new this(limit); }
}

const budget = Budget.from(await tools.ads.getBudget({ campaignId: "cmp_1" }));
const { keywords } = await tools.ads.keywordSuggestions({ seed: "running shoes", limit: 40 });
const chosen = [];
for (const kw of keywords.toSorted((a, b) => b.volume / b.cpc - a.volume / a.cpc)) {
  const cost = kw.cpc * 100;
  if (budget.spend(cost)) chosen.push(kw.text);
}
await tools.ads.setKeywords({ campaignId: "cmp_1", keywords: chosen });
return { chosen, remaining: budget.remaining.toFixed(2) };
