// gen.js regenerates the reference tables used by the jsnum tests.
//
// Usage (from this directory):  node gen.js
//
// Every double is written as its 16-hex-digit IEEE-754 bit pattern so that
// -0, subnormals and exact values survive the round trip. The PRNG is
// seeded, so re-running the script with the same node version reproduces the
// files byte for byte.
'use strict';
const fs = require('fs');
const path = require('path');

const dv = new DataView(new ArrayBuffer(8));
function bits(x) {
  dv.setFloat64(0, x);
  return dv.getBigUint64(0).toString(16).padStart(16, '0');
}
function fromBits(b) {
  dv.setBigUint64(0, BigInt.asUintN(64, b));
  return dv.getFloat64(0);
}
function nextUp(x) {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  dv.setFloat64(0, x);
  let b = dv.getBigUint64(0);
  b = x > 0 ? b + 1n : b - 1n;
  dv.setBigUint64(0, b);
  return dv.getFloat64(0);
}
function nextDown(x) { return -nextUp(-x); }

// mulberry32-style PRNG, 32-bit output.
let seed = 0x9e3779b9;
function rnd32() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}
function rnd() { return rnd32() / 4294967296; }
function rndInt(n) { return Math.floor(rnd() * n); }
function rndBits() { return (BigInt(rnd32()) << 32n) | BigInt(rnd32()); }
function rndFinite() {
  for (;;) {
    const x = fromBits(rndBits());
    if (Number.isFinite(x)) return x;
  }
}

// ---------------------------------------------------------------- values

function specials() {
  const v = [NaN, Infinity, -Infinity, 0, -0, Number.MAX_VALUE, -Number.MAX_VALUE,
    Number.MIN_VALUE, -Number.MIN_VALUE, Number.EPSILON, Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 2 ** 31, 2 ** 32, -(2 ** 31),
    2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 32 - 1, 2 ** 32 + 1, 2 ** 64, -(2 ** 64), 2 ** 63,
    1e21, nextDown(1e21), nextUp(1e21), 1e-7, nextUp(1e-7), nextDown(1e-7),
    1e-6, nextDown(1e-6), nextUp(1e-6), 9.5e-7, 1.5e-7, 123e-20, 1e20, 1e22, 1e23,
    2.2250738585072014e-308, 2.225073858507201e-308, 4.9406564584124654e-324,
    0.1, 0.2, 0.3, 0.1 + 0.2, 1 / 3, 2 / 3, Math.PI, Math.E, Math.SQRT2, Math.LN2,
    0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 0.25, 0.125, 0.375, 0.05, 0.15, 0.25, 0.35,
    0.45, 0.55, 1.005, 1.0049999, 1.0049999999999999, 1.045, 1.25, 1.35, 1.45,
    8.345, 10.235, 1.255, 2.675, 1.0000000000000002, 0.9999999999999999, 123.456,
    -123.456, 0.000001234, 1e-10, 1e-300, 1e300, 1.7976931348623157e308,
    5e-324, 1e-323, 2e-323, 9.999999999999999e22, 4.35, 0.035, 1.15, 1.65,
    99.995, 999.9995, 9.995, 0.0005, 0.00005, 5e-5, 15, 25, 255, 255.5, 4095.9375,
    -10, -255, 36, 35, 1295, 1296, 123456789, 1234567890123456789, 0xfffffffffffff,
    25.5, 99.5, 999.5, 0.95, 0.995, 9.5, 95, 950, 1e15 + 0.3, 4.5e15, 5e-7,
  ];
  return v;
}

function formatValues() {
  const v = specials();
  for (let k = -324; k <= 308; k++) {
    const p = Number('1e' + k);
    v.push(p);
    if (k % 7 === 0 || (k >= -9 && k <= 23)) v.push(nextUp(p), nextDown(p), -p);
  }
  for (let k = -1074; k <= 1023; k += 3) v.push(2 ** k);
  for (let k = 0; k <= 70; k++) v.push(2 ** k - 1, 2 ** k + 1, -(2 ** k));
  for (let i = 0; i < 1200; i++) v.push(rndFinite());
  for (let i = 0; i < 400; i++) v.push(Math.floor(rnd() * 10 ** rndInt(22)) * (rnd() < 0.3 ? -1 : 1));
  for (let i = 0; i < 400; i++) v.push(rndInt(1e6) / 10 ** rndInt(9));
  for (let i = 0; i < 200; i++) v.push(rnd() * 10 ** (rndInt(60) - 30));
  for (let i = 0; i < 100; i++) v.push(rndInt(2000) / 8 + 0.5);
  return v;
}

// Smaller sets for the (more verbose) per-value tables.
function commonValues(n) {
  const v = specials();
  for (let k = -12; k <= 25; k++) v.push(Number('1e' + k), -Number('5e' + k));
  for (let k = -60; k <= 80; k += 7) v.push(2 ** k, 3 * 2 ** k);
  for (let i = 0; i < n; i++) {
    switch (i % 5) {
      case 0: v.push(rndFinite()); break;
      case 1: v.push(rndInt(1e7) / 10 ** rndInt(8)); break;
      case 2: v.push(rnd() * 10 ** (rndInt(44) - 22)); break;
      case 3: v.push((rndInt(20000) + 0.5) / 10 ** rndInt(5)); break;
      case 4: v.push(-Math.floor(rnd() * 10 ** rndInt(20)) / 2 ** rndInt(12)); break;
    }
  }
  return v;
}

function radixValues() {
  const v = [NaN, Infinity, -Infinity, 0, -0, 0.5, -0.5, 255.5, 0.1, 0.2, 0.3, 1 / 3,
    -10, 1e21, 123.456, -123.456, Math.PI, 2 ** 53, 2 ** 53 + 2, 2 ** 60, 1e300,
    Number.MAX_VALUE, Number.MIN_VALUE, 1e-300, 2 ** -1022, Number.EPSILON, 1e-7,
    0.000001, 35, 36, 1295, 1296, 4095.9375, 1e15 + 0.3, 12345.6789, 1 - 2 ** -53,
    nextDown(1), nextUp(1), 0.99999, 1e100, 1e-10, 2 ** 52 + 0.5, 1.1, 10.1];
  for (let i = 0; i < 260; i++) {
    switch (i % 4) {
      case 0: v.push(rnd() * 10 ** (rndInt(30) - 10)); break;
      case 1: v.push(rndInt(1e6) / 10 ** rndInt(6)); break;
      case 2: v.push(-Math.floor(rnd() * 10 ** rndInt(22))); break;
      case 3: v.push(rndInt(1 << 20) / 2 ** rndInt(30)); break;
    }
  }
  for (let i = 0; i < 8; i++) v.push(rndFinite());
  return v;
}

// ---------------------------------------------------------------- strings

function parseStrings() {
  const core = ['', ' ', '0', '-0', '+0', '1', '-1', '+1', '12', '123', '1.5', '-1.5', '.5', '5.',
    '-.5', '+.5', '-5.', '.', '-.', '+', '-', '+-1', '--1', '1e1', '1E1', '1e+1', '1e-1', '1e',
    '1e+', '1e-', 'e1', '.e1', '1.e1', '.5e1', '1e1000', '-1e1000', '1e-1000', '1e-400',
    '1e-323', '1e-324', '2.4703282292062328e-324', '2.4703282292062327e-324',
    '0x', '0x10', '0X10', '-0x10', '+0x10', '0x1g', '0xG', '0xff', '0xFF', '0x1p3', '0x.8',
    '0o17', '0O17', '0o8', '0o', '-0o17', '0b101', '0B101', '0b2', '0b', '-0b1', '00x10',
    '0xx10', '010', '08', '019', '1_0', '1_000', '0x1_0', '1,000', '1 000', 'Infinity',
    '+Infinity', '-Infinity', 'infinity', 'INFINITY', 'Infinityx', 'Infinit', 'inf', '-inf',
    'NaN', 'nan', 'Inf', 'Infinity1', ' Infinity ', '- Infinity', '1x', 'x1', '1 1',
    '12abc', 'abc', '0.0000001', '0.1e-6', '123456789012345678901234567890',
    '9007199254740993', '9007199254740992.5', '9007199254740993.0000000001',
    '0.1', '0.30000000000000004', '1.7976931348623157e308', '1.7976931348623158e308',
    '1.7976931348623159e308', '5e-324', '4.9e-324', '1e21', '1e-7', '١٢٣', '１２３', '1n',
    '0n', '1.5.5', '1..5', '..5', '1e1.5', '1e1e1', '+-0', 'e', 'E', '0e0', '0.e0', '-0e-0',
    '0x0', '-0x0', '0xffffffffffffffffff', '0x1fffffffffffff', '0x20000000000001',
    '0x20000000000003', '0x20000000000002', '0x200000000000011', '0x7fffffffffffffff',
    '0b11111111111111111111111111111111111111111111111111111111',
    '0o777777777777777777777777', 'true', 'false', 'null', 'undefined', '[]', '{}',
    '\u0000', '1\u0000', '0.0', '00', '00.5', '-00', '000001', '1e01', '1e0001',
    '1e+0', '1e-0', '5e-1', '5e-0', '.0', '0.', '-.0', '-0.', '1e100000000000000000000',
    '1e-100000000000000000000', '0.' + '0'.repeat(400) + '1', '1' + '0'.repeat(400),
    '0'.repeat(400) + '1', '0'.repeat(400) + '123456789', '9'.repeat(330), '1' + '0'.repeat(308),
    '17976931348623157' + '0'.repeat(292), '17976931348623158' + '0'.repeat(292),
    'z', 'Z', 'zz', 'zZ', '10z', 'ZZZZZZZZZZZZZZZZ', 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz',
    '1a', 'a1', 'ff', 'FF', '-ff', '0xz', '0x0x', '-', '7', '8', '9', 'g', '11', '101',
    '777', '0.9', '-0.9', '0.5e', '12e-', '3.14abc', '-.e', 'Infinity.5', '-Infinityx',
    '\u00a0\u00a0', '\ufeff', '\u180e1', '1\u180e', '\u200b1', '1\u200b'];
  const ws = [' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u2005',
    '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u0085', '\u180e',
    '\u200b', '\u001c', '\u001f'];
  const out = new Set(core);
  for (const w of ws) {
    for (const c of ['1', '-1.5', '0x10', 'Infinity', '', '1e3', '.5', 'abc']) {
      out.add(w + c);
      out.add(c + w);
      out.add(w + c + w);
    }
  }
  // Random digit strings in assorted radixes (long ones exercise rounding).
  const alpha = '0123456789abcdefghijklmnopqrstuvwxyz';
  for (const r of [2, 3, 7, 8, 10, 12, 16, 30, 32, 36]) {
    for (let i = 0; i < 14; i++) {
      const len = [1, 3, 8, 12, 15, 16, 17, 20, 25, 40, 60, 80, 200, 400][i];
      let s = '';
      for (let j = 0; j < len; j++) s += alpha[rndInt(r)];
      if (i % 3 === 0) s = s.toUpperCase();
      out.add(s);
    }
  }
  // Long decimal strings with fractions/exponents.
  for (let i = 0; i < 80; i++) {
    let s = '';
    const il = rndInt(25), fl = rndInt(25);
    for (let j = 0; j < il; j++) s += alpha[rndInt(10)];
    if (fl > 0 || rnd() < 0.3) {
      s += '.';
      for (let j = 0; j < fl; j++) s += alpha[rndInt(10)];
    }
    if (rnd() < 0.5) s += 'e' + ['', '+', '-'][rndInt(3)] + rndInt(400);
    if (rnd() < 0.3) s = '-' + s;
    out.add(s);
  }
  // Random junk over a number-ish alphabet.
  const junk = '0123456789abefxXoObBeE+-. _iInN';
  for (let i = 0; i < 900; i++) {
    let s = '';
    const len = 1 + rndInt(8);
    for (let j = 0; j < len; j++) s += junk[rndInt(junk.length)];
    out.add(s);
  }
  // Shortest strings of random doubles round-trip.
  for (let i = 0; i < 150; i++) {
    const x = rndFinite();
    out.add(String(x));
    if (i % 3 === 0) out.add(x.toExponential(25));
    if (i % 5 === 0) out.add(x.toString(16));
  }
  return [...out];
}

// ---------------------------------------------------------------- write

function write(name, lines) {
  fs.writeFileSync(path.join(__dirname, name), lines.join('\n') + '\n');
  console.log(name, lines.length, 'lines');
}

function dedup(values) {
  const seen = new Set();
  const out = [];
  for (const x of values) {
    const b = bits(x);
    if (!seen.has(b)) { seen.add(b); out.push(x); }
  }
  return out;
}

const header = (s) => '# generated by gen.js with node ' + process.version + '\n# columns: ' + s;

// format.tsv: bits, String(x), x|0, x>>>0
{
  const lines = [header('bits\tString(x)\tToInt32\tToUint32')];
  for (const x of dedup(formatValues())) {
    lines.push([bits(x), String(x), x | 0, x >>> 0].join('\t'));
  }
  write('format.tsv', lines);
}

// radix.tsv: bits, then x.toString(r) for r = 2..36
{
  const lines = [header('bits\ttoString(2)\t...\ttoString(36)')];
  for (const x of dedup(radixValues())) {
    const row = [bits(x)];
    for (let r = 2; r <= 36; r++) row.push(x.toString(r));
    lines.push(row.join('\t'));
  }
  write('radix.tsv', lines);
}

const digitArgs = {
  fixed: [...Array(21).keys(), 100],
  precision: [...Array(21).keys()].map((i) => i + 1).concat([100]),
  exponential: [undefined, ...Array(21).keys(), 100],
};
// fixed.tsv / precision.tsv / exponential.tsv: bits, then one column per
// digit argument listed in the header (u = undefined).
for (const [name, args] of Object.entries(digitArgs)) {
  const method = 'to' + name[0].toUpperCase() + name.slice(1);
  const lines = [header('bits\t' + args.map((a) => (a === undefined ? 'u' : a)).join('\t'))];
  for (const x of dedup(commonValues(330))) {
    const row = [bits(x)];
    for (const a of args) row.push(Number.prototype[method].call(x, a));
    lines.push(row.join('\t'));
  }
  write(name + '.tsv', lines);
}

// range.tsv: which digit arguments throw RangeError (for NaN, Infinity, 1).
{
  const lines = [header('method\tbits\tdigits\tresult-or-RangeError')];
  for (const method of ['toFixed', 'toPrecision', 'toExponential']) {
    for (const x of [NaN, Infinity, -Infinity, 1, -0]) {
      for (const a of [-1, 0, 1, 100, 101]) {
        let r;
        try { r = Number.prototype[method].call(x, a); } catch (e) { r = e.constructor.name; }
        lines.push([method, bits(x), a, r].join('\t'));
      }
    }
  }
  write('range.tsv', lines);
}

// parse.jsonl: one JSON array per input string:
//   [s, Number(s), parseFloat(s), parseInt(s, r) for r in the header's radixes]
// Results are written as String(x) (which round-trips exactly), with "-0" for
// negative zero.
{
  const radixes = [0, 1, 2, 3, 7, 8, 10, 16, 20, 32, 36, 37];
  const num = (x) => (Object.is(x, -0) ? '-0' : String(x));
  const lines = [JSON.stringify(['radixes', ...radixes])];
  for (const s of parseStrings()) {
    lines.push(JSON.stringify([s, num(Number(s)), num(parseFloat(s)), ...radixes.map((r) => num(parseInt(s, r)))]));
  }
  write('parse.jsonl', lines);
}
