interface Config { limit: number; states: string[]; verbose?: boolean }
const config = { limit: 2, states: ["open"] } satisfies Config;
const res = await tools.github.searchIssues({ q: "is:issue" });
const open = res.items.filter((i: { state: string }) => config.states.includes(i.state));
return open.slice(0, config.limit).map((i: { number: number }) => i.number);
