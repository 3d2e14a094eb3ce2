const all = [];
let after;
do {
  const { results, paging } = await tools.hubspot.searchContacts({
    filterGroups: [{ filters: [{ propertyName: "createdate", operator: "GTE", value: "2024-01-01" }] }],
    properties: ["email", "firstname", "lastname", "company", "lastmodifieddate"],
    limit: 100,
    after,
  });
  all.push(...results);
  after = paging?.next?.after;
} while (after);

const normalize = e => e?.trim().toLowerCase().replace(/\+[^@]*(?=@)/, "");
const groups = new Map();
for (const c of all) {
  const key = normalize(c.properties.email);
  if (!key) continue;
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key).push(c);
}

const merges = [];
for (const [email, dupes] of groups) {
  if (dupes.length < 2) continue;
  dupes.sort((a, b) => Date.parse(b.properties.lastmodifieddate) - Date.parse(a.properties.lastmodifieddate));
  const [keep, ...drop] = dupes;
  for (const d of drop) {
    merges.push(tools.hubspot.mergeContacts({ primaryObjectId: keep.id, objectIdToMerge: d.id }).then(() => ({ email, merged: d.id }), e => ({ email, failed: d.id, reason: e.message })));
  }
}
const outcomes = await Promise.all(merges);
return { scanned: all.length, duplicateGroups: [...groups.values()].filter(g => g.length > 1).length, outcomes };
