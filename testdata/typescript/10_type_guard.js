function isCircle(s) {
  return s.kind === "circle";
}
const shapes = [{ kind: "circle", r: 1 }, { kind: "rect", w: 2, h: 3 }, { kind: "circle", r: 2 }];
const area = (s) => (isCircle(s) ? Math.PI * s.r ** 2 : s.w * s.h);
return shapes.map(area).map((a) => Number(a.toFixed(2)));
