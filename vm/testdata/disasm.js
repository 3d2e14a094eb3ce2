function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
let total = 0;
for (let i = 0; i < 3; i++) {
  const add = () => i;
  try {
    total += add();
  } finally {
    total++;
  }
}
({ total, fib: fib(10) });
class Base { #n = 1; get n() { return this.#n } static s = 2 }
class Derived extends Base { constructor() { super(); super.n } }
function* gen(xs) { yield* xs; return yield 1 }
async function af(p) { for await (const x of p) await x }
