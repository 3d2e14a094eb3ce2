function bump(by) {
  this.n += by;
  return this.n;
}
const obj = {
  n: 1,
  bump,
  map(f) { return f(this.n); },
};
obj.bump(4);
return [obj.n, obj.map((n) => `n=${n}`)];
