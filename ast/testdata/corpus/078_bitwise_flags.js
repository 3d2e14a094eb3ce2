const READ = 1 << 0, WRITE = 1 << 1, ADMIN = 1 << 2, BILLING = 1 << 3;
const names = { [READ]: "read", [WRITE]: "write", [ADMIN]: "admin", [BILLING]: "billing" };
const { members } = await tools.workspace.listMembers({ workspaceId: "ws_42" });
const decoded = members.map(m => {
  const perms = Object.entries(names).filter(([bit]) => (m.permissions & Number(bit)) !== 0).map(([, n]) => n);
  return { email: m.email, perms, superuser: (m.permissions & (ADMIN | BILLING)) === (ADMIN | BILLING) };
});
let mask = 0;
for (const m of members) mask |= m.permissions;
const unused = Object.keys(names).map(Number).filter(b => !(mask & b));
return { decoded, everyoneCanRead: members.every(m => m.permissions & READ), unused: unused.map(b => names[b]), inverted: ~mask >>> 0, shifted: mask >> 1 ^ 3 };
