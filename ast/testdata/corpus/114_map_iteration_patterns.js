const { edges } = await tools.graph.getDependencies({ service: "checkout" });
const adj = new Map();
for (const { from, to } of edges) {
  if (!adj.has(from)) adj.set(from, new Set());
  adj.get(from).add(to);
  if (!adj.has(to)) adj.set(to, new Set());
}

const visiting = new Set(), done = new Set(), order = [], cycles = [];
function visit(node, stack = []) {
  if (done.has(node)) return;
  if (visiting.has(node)) { cycles.push([...stack.slice(stack.indexOf(node)), node]); return; }
  visiting.add(node);
  for (const next of adj.get(node) ?? []) visit(next, [...stack, node]);
  visiting.delete(node);
  done.add(node);
  order.push(node);
}
for (const node of adj.keys()) visit(node);

const fanOut = [];
for (const [node, deps] of adj) fanOut.push({ node, deps: deps.size });
adj.forEach((deps, node) => { if (deps.size === 0) console.log("leaf:", node); });
return { startupOrder: order, cycles, maxFanOut: fanOut.sort((a, b) => b.deps - a.deps)[0] };
