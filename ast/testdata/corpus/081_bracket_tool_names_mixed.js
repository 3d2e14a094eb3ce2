const mcp = tools["filesystem-mcp"];
const listing = await mcp["list-directory"]({ path: "/workspace/reports" });
const csvs = listing.entries.filter(e => e.type === "file" && e.name.endsWith(".csv"));
const contents = await Promise.all(csvs.map(f => mcp["read-file"]({ path: `/workspace/reports/${f.name}` })));
const rowCounts = Object.fromEntries(csvs.map((f, i) => [f.name, contents[i].text.split("\n").filter(Boolean).length - 1]));
const summary = await tools["openai-compat"]["chat.completions.create"]({
  model: "small",
  messages: [{ role: "user", content: `Summarize row counts: ${JSON.stringify(rowCounts)}` }],
});
return { rowCounts, summary: summary.choices?.[0]?.message?.content };
