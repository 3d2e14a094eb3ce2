const row = { a: 1, b: null };
const first = [7, 8][0];
return { row, first };
