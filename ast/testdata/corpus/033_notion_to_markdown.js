const pageId = "3f1c9a2e-8b7d-4e2a-9c1a-000000000001";
const blocks = [];
let start_cursor;
do {
  const res = await tools.notion.getBlockChildren({ block_id: pageId, start_cursor, page_size: 100 });
  blocks.push(...res.results);
  start_cursor = res.has_more ? res.next_cursor : undefined;
} while (start_cursor);

const text = rich => (rich ?? []).map(r => {
  let t = r.plain_text;
  if (r.annotations?.code) t = `\`${t}\``;
  if (r.annotations?.bold) t = `**${t}**`;
  if (r.annotations?.italic) t = `_${t}_`;
  if (r.href) t = `[${t}](${r.href})`;
  return t;
}).join("");

const md = blocks.map(b => {
  switch (b.type) {
    case "heading_1": return `# ${text(b.heading_1.rich_text)}`;
    case "heading_2": return `## ${text(b.heading_2.rich_text)}`;
    case "heading_3": return `### ${text(b.heading_3.rich_text)}`;
    case "bulleted_list_item": return `- ${text(b.bulleted_list_item.rich_text)}`;
    case "numbered_list_item": return `1. ${text(b.numbered_list_item.rich_text)}`;
    case "to_do": return `- [${b.to_do.checked ? "x" : " "}] ${text(b.to_do.rich_text)}`;
    case "code": return "```" + (b.code.language ?? "") + "\n" + text(b.code.rich_text) + "\n```";
    case "divider": return "---";
    case "paragraph": return text(b.paragraph.rich_text);
    default: return `<!-- unsupported: ${b.type} -->`;
  }
}).join("\n\n");

return md;
