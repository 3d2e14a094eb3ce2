const lib = await tools.context7["resolve-library-id"]({ libraryName: "react" });
const id = lib.results?.[0]?.id;
if (!id) return { error: "library not found" };

const docs = await tools.context7["get-library-docs"]({
  context7CompatibleLibraryID: id,
  topic: "hooks",
  tokens: 5_000,
});

const sections = docs.content
  .split(/\n(?=#{1,3} )/)
  .map(s => s.trim())
  .filter(Boolean);

return {
  id,
  sectionCount: sections.length,
  headings: sections.map(s => s.split("\n")[0].replace(/^#+\s*/, "")),
};
