const { content } = await tools.files.read({ path: "/repo/CHANGELOG.md" });
const linked = content
  .replace(/#(\d+)\b/g, (m, n) => `[#${n}](https://github.com/acme/app/pull/${n})`)
  .replace(/@([a-z\d](?:[a-z\d-]{0,38}))/gi, "[@$1](https://github.com/$1)")
  .replace(/^(## )(\d+\.\d+\.\d+)(?: - )?(?<date>\d{4}-\d{2}-\d{2})?$/gm, (...args) => {
    const { date } = args.at(-1);
    const [, prefix, version] = args;
    return `${prefix}[${version}](https://github.com/acme/app/releases/tag/v${version})${date ? ` — ${date}` : ""}`;
  })
  .replace(/\bTODO\b/g, "**TODO**");
const changed = linked !== content;
if (changed) await tools.files.write({ path: "/repo/CHANGELOG.md", content: linked });
return { changed, delta: linked.length - content.length };
