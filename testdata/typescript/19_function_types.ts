type Handler = (input: { n: number }) => number;
type Middleware = (next: Handler) => Handler;
const double: Middleware = (next) => (input) => next({ n: input.n * 2 });
const addOne: Middleware = (next: Handler): Handler => (input) => next({ n: input.n + 1 });
const base: Handler = ({ n }) => n;
const pipeline: Handler = [double, addOne].reduceRight((h: Handler, m: Middleware) => m(h), base);
return [1, 2, 3].map((n) => pipeline({ n }));
