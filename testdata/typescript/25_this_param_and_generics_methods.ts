interface Counter { n: number }
function bump(this: Counter, by: number): number {
  this.n += by;
  return this.n;
}
const obj = {
  n: 1,
  bump,
  map<T>(f: (n: number) => T): T { return f(this.n); },
};
obj.bump(4);
return [obj.n, obj.map<string>((n) => `n=${n}`)];
