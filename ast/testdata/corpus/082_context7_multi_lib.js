const libs = ["next.js", "prisma", "zod"];
const resolved = await Promise.all(libs.map(async libraryName => {
  const r = await tools.context7["resolve-library-id"]({ libraryName });
  const best = r.results?.toSorted?.((a, b) => (b.trustScore ?? 0) - (a.trustScore ?? 0))[0];
  return { libraryName, id: best?.id };
}));

const docs = {};
for (const { libraryName, id } of resolved) {
  if (!id) { docs[libraryName] = null; continue; }
  const { content } = await tools.context7["get-library-docs"]({ context7CompatibleLibraryID: id, topic: "migration", tokens: 3000 });
  const snippets = content.match(/```[a-z]*\n[\s\S]*?```/g) ?? [];
  docs[libraryName] = { id, snippetCount: snippets.length, firstSnippet: snippets[0]?.slice(0, 400) };
}
docs
