type Shape = { kind: "circle"; r: number } | { kind: "rect"; w: number; h: number };
function isCircle(s: Shape): s is { kind: "circle"; r: number } {
  return s.kind === "circle";
}
const shapes: Shape[] = [{ kind: "circle", r: 1 }, { kind: "rect", w: 2, h: 3 }, { kind: "circle", r: 2 }];
const area = (s: Shape): number => (isCircle(s) ? Math.PI * s.r ** 2 : s.w * s.h);
return shapes.map(area).map((a: number) => Number(a.toFixed(2)));
