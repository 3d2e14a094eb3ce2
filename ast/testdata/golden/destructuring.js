const { a, b: [c = 1, , ...d], ...rest } = await tools.x.y({ q: "z" });
let x, y;
[x, y] = [y, x];
({ k: x = 2, [`${a}`]: y } = rest);
function f({ p = 1 } = {}, ...more) { return [p, more]; }
