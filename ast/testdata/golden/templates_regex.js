const s = `a${b}c${`d${e}f`}g`;
const t = tag`raw\n${1}\unicode`;
const r = /(?<year>\d{4})-(?<m>\d\d)/gu;
const q = a / b / c;
if (ok) /x/.test(s);
