type Pair = [name: string, score: number];
const scores: Pair[] = [["ann", 3], ["bob", 5], ["cy", 4]];
const best = scores.reduce((a: Pair, b: Pair): Pair => (b[1] > a[1] ? b : a));
const entries = Object.entries({ x: 1, y: 2 }) as [string, number][];
return { best, entries: entries.map(([k, v]: [string, number]) => k + v) };
