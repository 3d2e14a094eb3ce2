// Generates the String.prototype method cases that strmethods_test.go checks
// against value/strmethods.go, from what V8 (node) answers:
//
//	node gen_strmethods.js
//
// writes, next to this script,
//
//	strmethods.jsonl          one case a line: [method, receiver, [args], result]
//	strmethods_unicode.jsonl  per code point: the case mappings that change
//	                          something, and the WhiteSpace, Cased and
//	                          Case_Ignorable sets as V8's ICU sees them
//
// Encoding: a well-formed string is a JSON string; a string holding a lone
// surrogate is {"u":[code units]} (JSON text cannot hold one exactly); a
// number is a JSON number, except {"n":"Infinity"} and {"n":"-Infinity"};
// undefined and NaN results are null; a RangeError is {"err":"RangeError"}.
// Arguments are already what the Go functions take (integers, the split
// limit after ToUint32), so the cases test the methods, not coercion.
// The output is deterministic (a seeded generator makes the random strings).
// The checked-in data was made with node 26 (ICU 78, Unicode 17).
"use strict";
const fs = require("fs");
const path = require("path");

const units = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
function enc(v) {
  if (typeof v === "string") return v.isWellFormed() ? v : { u: units(v) };
  if (typeof v === "number") {
    if (v === Infinity) return { n: "Infinity" };
    if (v === -Infinity) return { n: "-Infinity" };
    if (Number.isNaN(v)) return null;
    return v;
  }
  if (v === undefined) return null;
  if (Array.isArray(v)) return v.map(enc);
  return v;
}

// mulberry32: a small seeded generator, so the data does not change between runs.
let seed = 0x5eed1234;
function rand() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];

const lone = String.fromCharCode(0xd800);
const loneLow = String.fromCharCode(0xdc00);
const allSpace = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";

// The receivers.
const strings = [
  "", "a", "ab", "abc", "Hello, World!", "  padded  ", "aaaa", "abcabcabc", "a,b,,c,", "one two  three",
  "x".repeat(40), "ab".repeat(20) + "c", "$&$`$'$$", "0123456789",
  allSpace + "x y" + allSpace, allSpace, "\u180e x \u200b", "\u0085abc\u0085", "\ufeffbom\ufeff",
  "café", "naïve résumé", "ÀÉÎÕÜ àéîõü ÿ µ", "straße", "STRASSE", "ß", "ẞ", "ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ", "ŉ ǰ ẖ ẗ ẘ ẙ ẚ",
  "ΑΣ", "ΟΔΥΣΣΕΥΣ", "Σ", "ΣΑ", "ΑΣ Β", "ΑΣ.Β", "Α'Σ", "ΑΣ'", "ὈΔΥΣΣΕΎΣ", "ΐ ΰ ᾳ ᾼ ῳ ᾀ ᾈ ᾷ", "σς", "ʰΣ", "AʰΣ",
  "AΣb", "AΣ\u0301", "AΣ\u0301b", "Σ\u00ada", "A\u0345Σ", "ΣΣΣ", "Α\u00adΣ\u00ad", "1Σ", "AΣ1",
  "İstanbul", "ISTANBUL ı i İ I", "DİYARBAKIR", "Ĩ Ì Í i\u0307\u0300 Į", "և ﬓ ﬔ ﬕ ﬖ ﬗ", "ǅ ǈ ǋ ǲ ǆ",
  "ᏸᏹ ꭰ Ᏸ", "ა Ა", "ⓐⓩ Ⓐ", "Ꞵ ꞵ ɐ Ɐ ꟋꟌ", "\u{10D50}\u{10D70}", "\u{16EA0}\u{16EBB}",
  "😀", "a😀b", "👨‍👩‍👧", "𐐀𐐨 𐐷", "𞤀𞤢", "😀😀😀", "𐐀Σ Σ𐐨 𐐀Σ𐐨 \u{10D50}Σ \u{1E900}Σ",
  lone, "a" + lone + "b", loneLow + lone, "\ud83d", "x\ude00", lone + lone + loneLow, "😀" + loneLow + "Σ" + lone,
];

// Random strings from an alphabet chosen to hit the special cases.
const alphabet = [
  "a", "Z", "i", "I", " ", "\t", "\u00a0", "\u3000", "\ufeff", "\u2028", ".", "'", "ß", "é", "É", "ÿ", "µ",
  "Σ", "σ", "ς", "Α", "ά", "\u0301", "\u0345", "\u00ad", "ʰ", "İ", "ı", "ŉ", "ﬀ", "ᾳ", "ᾼ", "ΐ", "և", "ǅ",
  "Ꭰ", "ꭰ", "😀", "𐐀", "𐐨", "\u{10D70}", lone, loneLow, "\ud83d", "\ude00", "1", "-", "$",
];
// The shorter ones, for the methods with many argument combinations.
const short = strings.filter((s) => s.length <= 24);

const randoms = [];
for (let i = 0; i < 300; i++) {
  let s = "";
  const n = 1 + Math.floor(rand() * 8);
  for (let k = 0; k < n; k++) s += pick(alphabet);
  randoms.push(s);
}

const out = [];
const seen = new Set();
function emit(m, s, args, result) {
  const line = JSON.stringify([m, enc(s), args.map(enc), result]);
  if (!seen.has(line)) {
    seen.add(line);
    out.push(line);
  }
}
function call(m, s, args, f) {
  let r;
  try {
    r = enc(f());
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    r = { err: "RangeError" };
  }
  emit(m, s, args, r);
}

const noArg = ["trim", "trimStart", "trimEnd", "toUpperCase", "toLowerCase", "isWellFormed", "toWellFormed"];
for (const s of strings.concat(randoms)) for (const m of noArg) call(m, s, [], () => s[m]());

// Index methods.
const idx = [-Infinity, -100, -5, -2, -1, 0, 1, 2, 3, 5, 10, 100, Infinity];
for (const s of strings) {
  for (const i of idx) for (const m of ["at", "charAt", "charCodeAt", "codePointAt"]) call(m, s, [i], () => s[m](i));
  if (s.length < 20) for (let i = 0; i <= s.length; i++) for (const m of ["at", "codePointAt"]) call(m, s, [i], () => s[m](i));
}

// Slicing methods: every pair of offsets on a subset of the strings.
const offs = [-Infinity, -100, -3, -1, 0, 1, 2, 5, 100, Infinity];
const sliced = short.filter((_, i) => i % 5 === 0).concat(["a😀b", lone + "xy" + loneLow, "ΑΣ Β"]);
for (const s of sliced) for (const a of offs) for (const b of offs) {
  for (const m of ["slice", "substring", "substr"]) call(m, s, [a, b], () => s[m](a, b));
}

// Searching methods, on every other string.
const fixedSubs = ["", "a", "ab", "Σ", "😀", "\ud83d", "\ude00", lone, " ", "zz"];
for (const s of short.filter((_, i) => i % 2 === 1)) {
  const subs = new Set(fixedSubs.slice(0, 4));
  if (s.length) {
    subs.add(s);
    subs.add(s + "x");
    subs.add(s.slice(0, 1));
    subs.add(s.slice(-1));
    subs.add(s.slice(Math.floor(s.length / 2)));
  }
  for (const x of fixedSubs.slice(4)) if (s.includes(x) || rand() < 0.1) subs.add(x);
  const pos = [-Infinity, -1, 0, 1, s.length - 1, s.length, Infinity];
  for (const sub of subs) for (const p of pos) {
    for (const m of ["includes", "startsWith", "endsWith", "lastIndexOf"]) {
      if (p !== -Infinity || m === "lastIndexOf") call(m, s, [sub, p], () => s[m](sub, p));
    }
  }
}

// split with a string separator; the limit recorded is ToUint32(limit).
for (const s of strings.filter((_, i) => i % 2 === 0)) {
  const seps = new Set(["", ",", " ", "a", "ab", "😀", "\ud83d", "\ude00", "Σ", "not-there"]);
  if (s.length) {
    seps.add(s);
    seps.add(s.slice(1, 2));
  }
  for (const sep of seps) for (const lim of [0, 1, 3, -1]) {
    call("split", s, [sep, lim >>> 0], () => s.split(sep, lim));
  }
}

// replace and replaceAll with a string pattern and a replacement template.
const repls = ["", "-", "$$", "$&", "$`", "$'", "[$&|$`|$']", "$1$2$0$10$<n>$", "$", "$$$", "é😀", lone + "$&"];
for (const s of short.filter((_, i) => i % 2 === 0)) {
  const pats = new Set(["", "a", "Σ", "\ud83d", "zz"]);
  if (s.length) {
    pats.add(s);
    pats.add(s.slice(1, 3));
  }
  for (const p of pats) for (const r of repls) {
    if (rand() < 0.5 && r.length > 1) continue;
    call("replace", s, [p, r], () => s.replace(p, r));
    call("replaceAll", s, [p, r], () => s.replaceAll(p, r));
  }
}

// padStart and padEnd.
const fillers = ["", " ", "ab", "é😀", lone + "x", "0123456789"];
const padded = short.filter((_, i) => i % 4 === 0);
for (const s of padded) for (const n of [-1, 0, 1, 3, 5, 10, 21, Infinity]) for (const f of fillers) {
  for (const m of ["padStart", "padEnd"]) call(m, s, [n, f], () => s[m](n, f));
}

// repeat (the caller throws the RangeErrors for negative and infinite counts).
for (const s of strings) for (const n of [0, 1, 2, 3, 7]) call("repeat", s, [n], () => s.repeat(n));
call("repeat", "", [2 ** 30], () => "".repeat(2 ** 30));

// String.fromCharCode and String.fromCodePoint; the receiver is null.
const charCodes = [[], [0x61], [0x61, 0x62], [0xe9], [0xd800], [0xdc00, 0xd800], [0xd83d, 0xde00], [0xffff, 0], [0x3a3, 0x41]];
for (const c of charCodes) emit("fromCharCode", null, c, enc(String.fromCharCode(...c)));
const codePoints = [[], [0x61], [0x1f600], [0x10ffff], [0x110000], [-1], [0xd800], [0xdc00, 0xd800], [0xd83d, 0xde00],
  [0x61, 0x1f600, 0x62], [0], [0xffff, 0x10000], [0x61, 0x110000], [2 ** 31], [-(2 ** 31)]];
for (const c of codePoints) {
  let r;
  try {
    r = enc(String.fromCodePoint(...c));
  } catch (e) {
    r = { err: "RangeError" };
  }
  emit("fromCodePoint", null, c, r);
}

fs.writeFileSync(path.join(__dirname, "strmethods.jsonl"), out.join("\n") + "\n");

// Per code point data. Each case-mapping line is ["case", cp, upper, lower]
// for every code point whose toUpperCase or toLowerCase is not itself
// (surrogates excluded); a set is ["set", name, [[first, last], ...]].
const uni = [];
const cased = /\p{Cased}/u, ignorable = /\p{Case_Ignorable}/u;
const sets = { cased: [], ignorable: [], space: [] };
function addRange(ranges, cp) {
  const last = ranges[ranges.length - 1];
  if (last && last[1] === cp - 1) last[1] = cp;
  else ranges.push([cp, cp]);
}
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const s = String.fromCodePoint(cp);
  const u = s.toUpperCase(), l = s.toLowerCase();
  if (u !== s || l !== s) uni.push(JSON.stringify(["case", cp, u, l]));
  if (cased.test(s)) addRange(sets.cased, cp);
  if (ignorable.test(s)) addRange(sets.ignorable, cp);
  if (cp <= 0xffff && (s + "b").trimStart() === "b") addRange(sets.space, cp);
}
for (const [name, ranges] of Object.entries(sets)) uni.push(JSON.stringify(["set", name, ranges]));
fs.writeFileSync(path.join(__dirname, "strmethods_unicode.jsonl"), uni.join("\n") + "\n");
console.log(`${out.length} method cases, ${uni.length} unicode lines`);
