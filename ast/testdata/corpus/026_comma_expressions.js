const { nodes } = await tools.k8s.listNodes({ cluster: "prod-eu" });
let ready = 0, notReady = 0, cpu = 0, mem = 0;
for (let i = 0, n = nodes.length; i < n; i++, cpu += nodes[i - 1].allocatable.cpu) {
  const cond = nodes[i].conditions.find(c => c.type === "Ready");
  cond?.status === "True" ? ready++ : notReady++;
  mem += (0, Number)(nodes[i].allocatable.memoryGi);
}
const last = (console.log("nodes scanned", nodes.length), nodes.at(-1)?.name);
return { ready, notReady, cpu, mem, last };
