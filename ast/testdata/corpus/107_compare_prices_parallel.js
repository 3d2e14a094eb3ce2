const query = "Sony WH-1000XM5";
const vendors = ["amazon", "bestbuy", "walmart", "target"];
const results = await Promise.allSettled(vendors.map(v => tools.shopping.search({ vendor: v, query, limit: 5 })));
const offers = results.flatMap((r, i) =>
  r.status === "fulfilled"
    ? r.value.items
        .filter(it => /wh-?1000xm5/i.test(it.title) && !/case|cushion|pads?/i.test(it.title))
        .map(it => ({ vendor: vendors[i], title: it.title, price: it.price, url: it.url }))
    : []);
if (!offers.length) return "no matching offers";
const cheapest = offers.reduce((a, b) => (b.price < a.price ? b : a));
const avg = offers.reduce((s, o) => s + o.price, 0) / offers.length;
return `Cheapest: $${cheapest.price.toFixed(2)} at ${cheapest.vendor} (${((1 - cheapest.price / avg) * 100).toFixed(0)}% below avg)\n${cheapest.url}`;
