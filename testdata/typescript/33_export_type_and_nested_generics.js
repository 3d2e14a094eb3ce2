const page = { items: [{ name: "a", stars: 3 }, { name: "b", stars: 10 }], next: null };
const m = new Map();
m.set("x", [new Map([["y", 1]])]);
const sorted = page.items.slice().sort((a, b) => b.stars - a.stars);
return { top: sorted[0].name, inner: m.get("x")[0].get("y") };
