const [teamA, teamB] = await Promise.all([
  tools.github.listTeamMembers({ org: "acme", team: "backend" }),
  tools.github.listTeamMembers({ org: "acme", team: "platform" }),
]);
const a = new Set(teamA.map(m => m.login));
const b = new Set(teamB.map(m => m.login));

const both = [...a].filter(x => b.has(x));
const onlyA = [...a].filter(x => !b.has(x));
const onlyB = [...b].filter(x => !a.has(x));
const union = new Set([...a, ...b]);

return { both, onlyA, onlyB, unionSize: union.size };
