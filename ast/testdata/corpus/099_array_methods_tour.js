const { scores } = await tools.exams.getScores({ examId: "calc-101-final" });
const values = scores.map(s => s.points);
const sorted = values.toSorted((a, b) => a - b);
const mean = values.reduce((a, b) => a + b, 0) / values.length;
const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length);
const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;

return {
  n: values.length,
  mean: +mean.toFixed(2),
  sd: +sd.toFixed(2),
  median,
  min: sorted.at(0),
  max: sorted.at(-1),
  anyPerfect: values.some(v => v === 100),
  allPassed: values.every(v => v >= 50),
  firstFail: scores.find(s => s.points < 50)?.student ?? null,
  lastFailIdx: scores.findLastIndex(s => s.points < 50),
  topIdx: values.indexOf(sorted.at(-1)),
  includes42: values.includes(42),
  reversedTop3: sorted.toReversed().slice(0, 3),
  withBonus: values.with(0, values[0] + 5).slice(0, 3),
  spliced: sorted.toSpliced(0, 2).length,
  histogram: Array.from({ length: 10 }, (_, i) => values.filter(v => v >= i * 10 && v < (i + 1) * 10 + (i === 9)).length),
  flat: [[1, [2]], [3]].flat(Infinity),
  filled: new Array(3).fill(0),
  keys: [...["a", "b"].keys()],
  joined: sorted.slice(0, 5).join("|"),
  reduced: sorted.reduceRight((acc, v) => acc + v, 0),
};
