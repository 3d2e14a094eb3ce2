function* walk(node, depth = 0) {
  yield { node, depth };
  for (const child of node.children ?? []) {
    yield* walk(child, depth + 1);
  }
}

const tree = await tools.confluence.getPageTree({ spaceKey: "ENG", rootTitle: "Engineering Handbook" });
const outline = [];
let stale = 0;
const yearAgo = Date.now() - 365 * 864e5;
for (const { node, depth } of walk(tree)) {
  outline.push(`${"  ".repeat(depth)}- ${node.title}`);
  if (Date.parse(node.lastUpdated) < yearAgo) stale++;
}

const gen = walk(tree);
const firstThree = [gen.next().value, gen.next().value, gen.next().value].filter(Boolean).map(x => x.node.title);
return { outline: outline.join("\n"), stale, firstThree };
