async function listAll({ resource, filters = {}, pageSize = 50, max = Infinity } = {}, { verbose = false, onPage = () => {} } = {}) {
  const out = [];
  for (let page = 0; out.length < max; page++) {
    const { items = [], hasMore = false } = await tools.api.list({ resource, filters, offset: page * pageSize, limit: pageSize });
    out.push(...items);
    onPage(page, items.length);
    if (verbose) console.log(`page ${page}: ${items.length}`);
    if (!hasMore) break;
  }
  return out.slice(0, max);
}

const [users, teams] = await Promise.all([
  listAll({ resource: "users", filters: { active: true }, max: 500 }, { verbose: true }),
  listAll({ resource: "teams" }),
]);
const teamNames = new Map(teams.map(({ id, attributes: { name } }) => [id, name]));
const byTeam = users.reduce((acc, { teamId = "none", ...u }) => {
  const name = teamNames.get(teamId) ?? "Unassigned";
  (acc[name] ??= []).push(u.email);
  return acc;
}, {});
return byTeam;
