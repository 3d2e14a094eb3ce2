const config = { limit: 2, states: ["open"] };
const res = await tools.github.searchIssues({ q: "is:issue" });
const open = res.items.filter((i) => config.states.includes(i.state));
return open.slice(0, config.limit).map((i) => i.number);
