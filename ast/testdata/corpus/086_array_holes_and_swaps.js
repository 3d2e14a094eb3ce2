const { candidates } = await tools.hiring.listCandidates({ stage: "onsite" });
const scores = candidates.map(c => c.scores ?? []);
let [best, second] = [null, null];
for (const c of candidates) {
  const avg = (c.scores ?? []).reduce((s, x) => s + x, 0) / ((c.scores ?? []).length || 1);
  c.avg = avg;
  if (!best || avg > best.avg) [best, second] = [c, best];
  else if (!second || avg > second.avg) second = c;
}
const [, , third = null, ...others] = candidates.toSorted((a, b) => b.avg - a.avg);
const sparse = [1, , 3];
let a = 1, b = 2;
[a, b] = [b, a];
return { best: best?.name, second: second?.name, third: third?.name, others: others.length, scoreRows: scores.length, sparseLen: sparse.length, a, b };
