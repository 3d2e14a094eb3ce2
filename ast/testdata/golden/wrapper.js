async () => {
  const r = await tools.github.search({ q: "x" });
  return r.items.length;
}
