const scores = [["ann", 3], ["bob", 5], ["cy", 4]];
const best = scores.reduce((a, b) => (b[1] > a[1] ? b : a));
const entries = Object.entries({ x: 1, y: 2 });
return { best, entries: entries.map(([k, v]) => k + v) };
