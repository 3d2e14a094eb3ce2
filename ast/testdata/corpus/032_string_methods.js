const { articles } = await tools.cms.listArticles({ status: "draft" });
const slugify = s => s
  .normalize("NFKD")
  .replace(/[\u0300-\u036f]/g, "")
  .toLowerCase()
  .trim()
  .replace(/[^a-z0-9]+/g, "-")
  .replace(/^-+|-+$/g, "");

const fixed = articles.map(a => {
  const title = a.title.trimStart().trimEnd();
  const words = a.body.split(/\s+/).filter(Boolean);
  return {
    id: a.id,
    slug: a.slug || slugify(title),
    excerpt: words.slice(0, 30).join(" ").padEnd(10, ".") + (words.length > 30 ? "…" : ""),
    readingMinutes: Math.max(1, Math.ceil(words.length / 220)),
    titleCase: title.split(" ").map(w => w.charAt(0).toUpperCase() + w.slice(1)).join(" "),
    hasTodo: a.body.includes("TODO") || a.body.toUpperCase().indexOf("FIXME") !== -1,
    code: String(a.id).padStart(6, "0"),
    replaced: a.body.replaceAll("  ", " ").length,
  };
});
return fixed;
