const base = new URL("https://api.example.com/v2/search");
const params = new URLSearchParams({ q: "wireless headphones", sort: "rating", page: "1" });
params.append("filter", "price<200");
params.append("filter", "brand:sony,bose");
base.search = params.toString();

const res = await tools.http.get({ url: base.href, headers: { accept: "application/json" } });
const { results = [], next } = JSON.parse(res.body);
const nextPage = next ? new URL(next).searchParams.get("page") : null;
return {
  requested: base.href,
  count: results.length,
  nextPage: nextPage && Number(nextPage),
  top: results.slice(0, 3).map(r => `${r.title} — $${r.price} (${r.rating}★)`),
};
