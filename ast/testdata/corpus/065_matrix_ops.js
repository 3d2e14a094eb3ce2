const { matrix: ratings, users, items } = await tools.recsys.getRatingsMatrix({ segment: "beta" });
const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0);
const norm = a => Math.sqrt(dot(a, a));
const cosine = (a, b) => { const d = norm(a) * norm(b); return d === 0 ? 0 : dot(a, b) / d; };

const target = 0;
const sims = ratings.map((row, i) => [i, i === target ? -Infinity : cosine(ratings[target], row)]);
sims.sort((x, y) => y[1] - x[1]);
const neighbors = sims.slice(0, 5);

const scores = items.map((item, j) => {
  if (ratings[target][j] > 0) return null;
  let num = 0, den = 0;
  for (const [u, s] of neighbors) {
    if (ratings[u][j] > 0) { num += s * ratings[u][j]; den += Math.abs(s); }
  }
  return den ? { item, score: num / den } : null;
}).filter(x => x !== null).sort((a, b) => b.score - a.score);

return { user: users[target], neighbors: neighbors.map(([u, s]) => ({ user: users[u], sim: +s.toFixed(3) })), recommend: scores.slice(0, 5) };
