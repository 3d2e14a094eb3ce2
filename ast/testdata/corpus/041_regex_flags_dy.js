const { text } = await tools.docs.getDocument({ id: "spec-2024-07" });

const headingRe = /^(?<level>#{1,6})\s+(?<title>.+)$/gm;
const headings = [...text.matchAll(headingRe)].map(m => ({ level: m.groups.level.length, title: m.groups.title }));

const linkRe = /\[(?<label>[^\]]+)\]\((?<href>https?:\/\/[^)\s]+)\)/dg;
const links = [];
for (const m of text.matchAll(linkRe)) {
  const [start, end] = m.indices.groups.href;
  links.push({ label: m.groups.label, href: m.groups.href, start, end });
}

const tokenRe = /\s*(\d+|[A-Za-z_]\w*|[+\-*/()])/y;
function tokenize(src) {
  const out = [];
  tokenRe.lastIndex = 0;
  let m;
  while (tokenRe.lastIndex < src.length && (m = tokenRe.exec(src))) out.push(m[1]);
  return out;
}

const fenced = text.match(/```[\s\S]*?```/g) ?? [];
const dotAll = /BEGIN.(.*?).END/s.exec(text)?.[1] ?? null;
const emoji = text.match(/\p{Extended_Pictographic}/gu)?.length ?? 0;

return { headings, links, tokens: tokenize("total = price * (qty + 2)"), fencedBlocks: fenced.length, dotAll, emoji };
