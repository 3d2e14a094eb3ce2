const { data: { users = [], meta: { total, page: currentPage = 1 } = {} } = {} } =
  await tools.admin.listUsers({ page: 1, perPage: 200 });

const summary = users.map(({ id, profile: { firstName: first, lastName: last } = {}, roles: [primaryRole = "viewer", ...otherRoles] = [] }) => ({
  id,
  name: [first, last].filter(Boolean).join(" "),
  primaryRole,
  extraRoles: otherRoles.length,
}));

for (const { name, primaryRole } of summary.slice(0, 5)) {
  console.log(`${name}: ${primaryRole}`);
}

return { total, currentPage, admins: summary.filter(u => u.primaryRole === "admin") };
