const xs = [5, 1, 4];
const n = xs.length;
let count = 0;
for (let i = 0; i<n; i++) {
  if (xs[i]<n && xs[i]>(1)) count++;
}
const big = xs.filter((x) => x > 3 && x < 10);
return { count, big, cmp: n < 4 };
