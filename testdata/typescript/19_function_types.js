const double = (next) => (input) => next({ n: input.n * 2 });
const addOne = (next) => (input) => next({ n: input.n + 1 });
const base = ({ n }) => n;
const pipeline = [double, addOne].reduceRight((h, m) => m(h), base);
return [1, 2, 3].map((n) => pipeline({ n }));
