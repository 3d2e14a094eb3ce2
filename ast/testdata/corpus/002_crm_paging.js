let cursor;
const contacts = [];
do {
  const page = await tools.crm.listContacts({ cursor, limit: 100 });
  contacts.push(...page.items);
  cursor = page.next;
} while (cursor);

const byDomain = new Map();
for (const c of contacts) {
  const domain = c.email?.split("@")[1]?.toLowerCase();
  if (!domain) continue;
  byDomain.set(domain, (byDomain.get(domain) ?? 0) + 1);
}

const top = [...byDomain.entries()]
  .sort((a, b) => b[1] - a[1])
  .slice(0, 10)
  .map(([domain, count]) => ({ domain, count }));

console.log(`fetched ${contacts.length} contacts across ${byDomain.size} domains`);
return top;
