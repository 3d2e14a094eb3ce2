async function folderSize(id, depth = 0) {
  const { files, folders } = await tools.drive.listFolder({ folderId: id });
  let size = files.reduce((s, f) => s + (f.size ?? 0), 0);
  const children = await Promise.all(folders.map(f => folderSize(f.id, depth + 1).then(r => ({ name: f.name, ...r }))));
  size += children.reduce((s, c) => s + c.size, 0);
  return { size, depth, children: depth < 2 ? children : undefined };
}
const root = await folderSize("root");
const human = b => {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let i = 0;
  while (b >= 1024 && i < units.length - 1) { b /= 1024; i++; }
  return `${b.toFixed(1)} ${units[i]}`;
};
const render = (node, name = "/", indent = "") =>
  [`${indent}${name} ${human(node.size)}`, ...(node.children ?? []).sort((a, b) => b.size - a.size).slice(0, 5).flatMap(c => render(c, c.name, indent + "  "))];
render(root).join("\n")
