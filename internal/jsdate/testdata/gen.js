// gen.js regenerates the reference tables used by the jsdate tests.
//
// Usage (from this directory, with node 26):
//
//   TZ=UTC LANG=en_US node gen.js
//
// Every file is JSON lines. Numbers are written as strings the way
// String(x) prints them, except that -0 is "-0", so NaN, the infinities and
// -0 survive (Go's strconv.ParseFloat reads "NaN" and "Infinity"). The PRNG
// is seeded, so re-running the script with the same node version reproduces
// the files byte for byte.
//
//   time.jsonl    [x, tv, year, month, date, weekday, hours, minutes, seconds,
//                  ms, iso, utc, dateString, timeString, locale, localeDate,
//                  localeTime]
//                 tv is new Date(x).getTime() (TimeClip(x)); the rest are the
//                 UTC getters and string methods of that date (iso is null
//                 when toISOString throws).
//   utc.jsonl     [[args...], Date.UTC(...args)]; for two or more arguments
//                 the script checks that new Date(...args) agrees.
//   parse.jsonl   [string, Date.parse(string)]; the script checks that
//                 new Date(string) agrees.
//   setters.jsonl [tv, method, [args...], result] where result is the value
//                 date.method(...args) returned for a date holding tv; the
//                 script checks that the date then holds it.
'use strict';
const fs = require('fs');
const path = require('path');

if (new Date(0).getTimezoneOffset() !== 0 || new Date(0).toString().indexOf('GMT+0000') < 0) {
  throw new Error('run with TZ=UTC');
}
if (new Date(0).toLocaleString() !== '1/1/1970, 12:00:00 AM') {
  throw new Error('run with LANG=en_US (got ' + JSON.stringify(new Date(0).toLocaleString()) + ')');
}

function num(x) {
  if (Object.is(x, -0)) return '-0';
  return String(x);
}

// mulberry32-style PRNG.
let seed = 0x2545f491;
function rnd32() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}
function rnd() { return rnd32() / 4294967296; }
function rndInt(n) { return Math.floor(rnd() * n); }
function pick(a) { return a[rndInt(a.length)]; }

function write(name, rows) {
  const text = rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  fs.writeFileSync(path.join(__dirname, name), text);
  console.log(name, rows.length, 'rows', text.length, 'bytes');
}

// utcOf builds a time value for any year (Date.UTC maps 0..99 to 19xx).
function utcOf(y, mo, d, h, mi, s, ms) {
  const dt = new Date(0);
  dt.setUTCFullYear(y, mo, d);
  dt.setUTCHours(h || 0, mi || 0, s || 0, ms || 0);
  return dt.getTime();
}

// ---------------------------------------------------------------- time.jsonl
{
  const xs = new Set();
  const add = (x) => xs.add(num(x));
  for (const x of [0, -0, 1, -1, 999, 1000, -999, -1000, 86399999, 86400000, -86400000, -86400001,
    8.64e15, -8.64e15, 8.64e15 - 1, -8.64e15 + 1, 8.64e15 + 1, -8.64e15 - 1, 8.64e15 + 0.5, -8.64e15 - 0.5,
    NaN, Infinity, -Infinity, 1e300, -1e300, Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE,
    0.5, -0.5, 1.5, -1.5, 0.999, -0.999, 1705312800000.7, -1705312800000.7, 2 ** 53, -(2 ** 53),
    1705312800000, 1705352400000, 1705356000000, 1705395599999, 951782400000, 946684800000]) add(x);
  const years = [-271821, -271820, -200000, -100000, -10001, -10000, -9999, -1001, -1000, -401, -400, -399,
    -101, -100, -99, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 49, 50, 99, 100, 101, 399, 400, 401, 999, 1000,
    1581, 1582, 1583, 1599, 1600, 1601, 1700, 1752, 1800, 1899, 1900, 1901, 1969, 1970, 1971, 1972,
    1999, 2000, 2001, 2004, 2020, 2023, 2024, 2025, 2038, 2099, 2100, 2101, 2400, 9999, 10000, 10001,
    99999, 100000, 200000, 275759, 275760];
  for (let i = 0; i < 15; i++) years.push(rndInt(547581) - 271821);
  for (let i = 0; i < 15; i++) years.push(1800 + rndInt(400));
  for (const y of years) {
    add(utcOf(y, 0, 1));
    add(utcOf(y, 0, 1) - 1);
    add(utcOf(y, 0, 1, 12));
    add(utcOf(y, 1, 28, 23, 59, 59, 999));
    add(utcOf(y, 1, 29, 12, 30, 30, 500));
    add(utcOf(y, 2, 1));
    add(utcOf(y, 2, 1) - 1);
    add(utcOf(y, 11, 31, 23, 59, 59, 999));
    add(utcOf(y, rndInt(12), 1 + rndInt(31), rndInt(24), rndInt(60), rndInt(60), rndInt(1000)));
    for (let m = 0; m < 12; m++) add(utcOf(y, m + 1, 1) - 1); // month ends
  }
  // Every hour of one day, for AM/PM.
  for (let h = 0; h < 24; h++) add(utcOf(2024, 0, 15, h, 7, 9, 11));
  // Random time values over the whole range and over recent years.
  for (let i = 0; i < 700; i++) add(Math.round((rnd() * 2 - 1) * 8.64e15));
  for (let i = 0; i < 400; i++) add(Math.round((rnd() * 2 - 1) * 4e12));
  for (let i = 0; i < 60; i++) add((rnd() * 2 - 1) * 1e13); // fractional
  const rows = [];
  for (const sx of xs) {
    const x = Number(sx === '-0' ? -0 : sx);
    const d = new Date(x);
    const tv = d.getTime();
    let iso = null;
    try { iso = d.toISOString(); } catch (e) { if (!(e instanceof RangeError) || !isNaN(tv)) throw e; }
    rows.push([sx, num(tv), num(d.getUTCFullYear()), num(d.getUTCMonth()), num(d.getUTCDate()), num(d.getUTCDay()),
      num(d.getUTCHours()), num(d.getUTCMinutes()), num(d.getUTCSeconds()), num(d.getUTCMilliseconds()),
      iso, d.toUTCString(), d.toDateString(), d.toTimeString(), d.toLocaleString(), d.toLocaleDateString(),
      d.toLocaleTimeString()]);
    // Local getters must agree with UTC ones under TZ=UTC.
    if (!Object.is(d.getHours(), d.getUTCHours()) || !Object.is(d.getFullYear(), d.getUTCFullYear())) throw new Error('TZ');
  }
  write('time.jsonl', rows);
}

// ----------------------------------------------------------------- utc.jsonl
{
  const yearsV = [2024, 1970, 0, 1, 49, 50, 99, 99.9, 100, -1, -0.5, -0, 0.5, 1899, 1900, 2000, 275760, 275761,
    -271821, -271822, 1e6, 1e6 + 1, -1e6, -1e6 - 1, 1e6 + 0.5, -1e6 - 0.5, 999999.5, NaN, Infinity, -Infinity, 1e20];
  const monthsV = [0, 1, 11, 12, 13, 24, -1, -12, -13, 1.5, -0.5, 0.9, 1e7, 1e7 + 1, -1e7, -1e7 - 1, 120000, NaN, Infinity, -Infinity];
  const datesV = [1, 0, -1, 28, 29, 30, 31, 32, 60, 366, 1.9, -0.1, 1e8, -1e8, 1e9, 1e17, NaN, Infinity];
  const hoursV = [0, 1, 11, 12, 23, 24, 25, -1, -24, 1.9, -0.9, 1e9, 2.4e9, -2.4e9, NaN, -Infinity];
  const minutesV = [0, 30, 59, 60, -1, 1440, 1e10, 1.5, NaN, Infinity];
  const secondsV = [0, 59, 60, -1, 86400, 1e12, 0.999, NaN];
  const msV = [0, 1, 999, 1000, -1, 0.5, -0.5, 1.9999, 86400000, 8.64e15, -8.64e15, 1e16, NaN, Infinity];
  const rows = [];
  const seen = new Set();
  const add = (args) => {
    const key = args.map(num).join(',');
    if (seen.has(key)) return;
    seen.add(key);
    const r = Date.UTC(...args);
    if (args.length >= 2) {
      const c = new Date(...args).getTime();
      if (!Object.is(c, r) && !(isNaN(c) && isNaN(r))) throw new Error('ctor/UTC mismatch ' + key);
    }
    rows.push([args.map(num), num(r)]);
  };
  add([]);
  for (const y of yearsV) add([y]);
  for (const y of yearsV) for (const m of monthsV) add([y, m]);
  for (const y of [2024, 99, -1, 275760, -271821, 1e6, NaN]) for (const m of [0, 1, 11, 12, -1, 1e7, NaN]) for (const d of datesV) add([y, m, d]);
  for (const h of hoursV) for (const mi of minutesV) add([2024, 0, 15, h, mi]);
  for (const s of secondsV) for (const ms of msV) add([2024, 0, 15, 10, 0, s, ms]);
  for (const ms of msV) add([1970, 0, 1, 0, 0, 0, ms]);
  // Edges of the time-value range.
  add([275760, 8, 13]); add([275760, 8, 13, 0, 0, 0, 1]); add([275760, 8, 13, 0, 0, 0, -1]); add([275760, 8, 14]);
  add([-271821, 3, 20]); add([-271821, 3, 20, 0, 0, 0, -1]); add([-271821, 3, 19, 23, 59, 59, 999]); add([-271821, 3, 19]);
  add([1970, 0, 1, 0, 0, 0, 8.64e15]); add([1970, 0, 1, 0, 0, 0, 8.64e15 + 1]);
  add([1970, 0, 1e8 + 1]); add([1970, 0, 1e8 + 2]); add([1970, 0, -1e8 + 1]); add([1970, 0, -1e8]);
  add([2e6, 0, -7.3e8]); add([1e6, 0, -3e8]); add([1e6 + 0.5, 0, -3e8]); add([-1e6, 0, 3e8]); add([-1e6 - 0.5, 0, 3e8]);
  add([1970, 1e7, -3e8]); add([1970, 1e7 + 1, -3e8]); add([1970, -1e7, 3e8]);
  add([2024, 0, 15, 10, 0, 0, 0, 123]); // an eighth argument is ignored
  const pools = [yearsV, monthsV, datesV, hoursV, minutesV, secondsV, msV];
  const typical = [[1900, 1970, 2000, 2024, 2100, 75, 5], [0, 1, 5, 11, 12, -1], [1, 15, 28, 31, 0, 32],
    [0, 10, 23, 24, -1], [0, 30, 59, 60], [0, 30, 59, 60], [0, 500, 999, 1000]];
  for (let i = 0; i < 2200; i++) {
    const argc = 1 + rndInt(7);
    const args = [];
    for (let k = 0; k < argc; k++) args.push(rnd() < 0.25 ? pick(pools[k]) : pick(typical[k]));
    add(args);
  }
  for (let i = 0; i < 400; i++) {
    const args = [rndInt(600000) - 300000, rndInt(40) - 14, rndInt(80) - 20, rndInt(50) - 12,
      rndInt(200) - 70, rndInt(200) - 70, rndInt(4000) - 1500];
    add(args.slice(0, 2 + rndInt(6)));
  }
  write('utc.jsonl', rows);
}

// --------------------------------------------------------------- parse.jsonl
{
  const base = [
    // ECMAScript date time string format.
    '2024', '2024-01', '2024-01-15', '2024-01-15T10:00', '2024-01-15T10:00:00', '2024-01-15T10:00:00.000',
    '2024-01-15T10:00:00Z', '2024-01-15T10:00:00.000Z', '2024-01-15T10:00:00.123Z', '2024-01-15T10:00:00.1Z',
    '2024-01-15T10:00:00.12Z', '2024-01-15T10:00:00.1234Z', '2024-01-15T10:00:00.123456789Z',
    '2024-01-15T10:00:00.1234567891234Z', '2024-01-15T10:00:00.999999Z', '2024-01-15T10:00:00.Z',
    '2024-01-15T10:00:00+02:00', '2024-01-15T10:00:00-05:30', '2024-01-15T10:00:00+0200', '2024-01-15T10:00:00-0530',
    '2024-01-15T10:00:00+24:00', '2024-01-15T10:00:00+23:59', '2024-01-15T10:00:00+02:60', '2024-01-15T10:00:00+2:00',
    '2024-01-15T10:00:00+02', '2024-01-15T10:00:00+020', '2024-01-15T10:00+02:00', '2024-01-15T10:00Z',
    '2024-01-15T24:00', '2024-01-15T24:00:00', '2024-01-15T24:00:00.000Z', '2024-01-15T24:00:01', '2024-01-15T24:01',
    '2024-01-15T24:00:00.001', '2024-01-15T25:00', '2024-01-15T23:60', '2024-01-15T23:59:60', '2024-01-15T23:59:59.999Z',
    '2024-01-15t10:00:00z', '2024-01-15T10', '2024-01-15T1:00', '2024-01-15T10:0', '2024-01-15T10:00:0',
    '2024-01-15T', '2024-01-15T10:00:00ZZ', '2024-01-15T10:00:00Z ', ' 2024-01-15', '2024-01-15 ',
    '2024-01-15T10:00:00 Z', '2024-01-15T10:00:00 GMT', '2024-01-15T10:00:00GMT', '2024-01-15T10:00:00UTC',
    '2024-00-15', '2024-13-15', '2024-01-00', '2024-01-32', '2024-02-30', '2024-02-29', '2023-02-29', '2024-04-31',
    '2024-1-15', '2024-01-5', '24-01-15', '02024-01-15', '+002024-01-15', '-002024-01-15', '+2024-01-15',
    '+275760-09-13T00:00:00.000Z', '+275760-09-13T00:00:00.001Z', '-271821-04-20T00:00:00.000Z',
    '-271821-04-19T23:59:59.999Z', '-271821-04-20', '-271821-04-19', '+275760-09-13', '+275760-09-14',
    '+275760-09-13T00:00:00', '+275760-09-13T00:00:00.001', '-271821-04-20T00:00:00', '-271821-04-19T23:59:59.999',
    '-000000-01-01T00:00:00Z', '+000000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '+000001-01-01', '-000001',
    '+999999-12-31', '-999999-01-01', '+010000-01-01T00:00:00.000Z', '0000-01-01', '0001-01-01T00:00:00Z',
    '0099-12-31', '0049-01-01T00:00', '9999-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '1970',
    '1969-12-31T23:59:59.999Z', '2024-01-15T10:00:00.000+00:00', '2024-01-15T10:00:00.000-00:00',
    '2024-01-15T10:00:00.000+14:00', '2024-01-15T10:00:00.000-12:00', '2024-01-15T00:00:00+23:59',
    // Legacy formats.
    'Jan 15, 2024', 'January 15, 2024', 'January 15, 2024 10:00:00', 'Jan 15 2024 10:00', 'Jan 15 2024 10:00 AM',
    'Jan 15 2024 10:00 PM', 'Jan 15 2024 12:00 AM', 'Jan 15 2024 12:00 PM', 'Jan 15 2024 0:00 PM', 'Jan 15 2024 13:00 PM',
    'Jan 15 2024 10 PM', 'Jan 15 2024 10PM', 'Jan 15 2024 10:30pm', 'Jan 15 2024 10:30 p.m.', 'Jan 15 2024 AM',
    '15 Jan 2024', '15 January 2024 10:00:00 GMT', '15-Jan-2024', 'Jan-15-2024', '2024 Jan 15', '2024-Jan-15',
    'Mon, 15 Jan 2024 10:00:00 GMT', 'Monday, 15 January 2024 10:00:00 GMT', 'Mon Jan 15 2024',
    'Mon Jan 15 2024 10:00:00 GMT+0000 (Coordinated Universal Time)', 'Mon Jan 15 2024 10:00:00 GMT+0200 (EET)',
    'Mon Jan 15 2024 10:00:00 GMT-0800 (Pacific Standard Time)', 'Thu Jan 01 1970 00:00:00 GMT+0000',
    'Mon Jan 15 2024 10:00:00 GMT+02:00', 'Mon Jan 15 2024 10:00:00 GMT+2', 'Mon Jan 15 2024 10:00:00 GMT-8',
    'Mon Jan 15 2024 10:00:00 GMT+12345', 'Mon Jan 15 2024 10:00:00 GMT+', 'Mon Jan 15 2024 10:00:00 GMT+9999',
    'Mon Jan 15 2024 10:00:00 UTC', 'Mon Jan 15 2024 10:00:00 UT', 'Mon Jan 15 2024 10:00:00 Z', 'Mon Jan 15 2024 10:00:00 z',
    'Mon Jan 15 2024 10:00:00 EST', 'Mon Jan 15 2024 10:00:00 EDT', 'Mon Jan 15 2024 10:00:00 CST',
    'Mon Jan 15 2024 10:00:00 CDT', 'Mon Jan 15 2024 10:00:00 MST', 'Mon Jan 15 2024 10:00:00 MDT',
    'Mon Jan 15 2024 10:00:00 PST', 'Mon Jan 15 2024 10:00:00 PDT', 'Mon Jan 15 2024 10:00:00 CET',
    'Mon Jan 15 2024 10:00:00 +0200', 'Mon Jan 15 2024 10:00:00 -05:30', 'Mon Jan 15 2024 10:00:00+0200',
    'Mon Jan 15 2024 10:00:00 UTC+5', 'Mon Jan 15 2024 10:00:00 UTC-05:00', 'Jan 15 2024 UTC', 'Jan 15 2024 GMT+1',
    '2024/01/15', '2024/1/15', '2024/01/15 10:00', '2024/01/15 10:00:00', '2024/01/15 10:00:00 UTC', '2024/13/15',
    '1/15/2024', '01/15/2024', '1/15/24', '1/15/49', '1/15/50', '1/15/99', '1/15/100', '1/15/0', '12/31/1999 23:59:59',
    '15/1/2024', '1/32/2024', '13/1/2024', '1/15', '1/15/2024 10:00', '1/15/2024, 10:00:00 AM', '1/15/2024 10:00:00 PM',
    '2024-01-15 10:00:00', '2024-01-15 10:00', '2024-01-15 10:00:00Z', '2024-01-15 10:00:00 Z', '2024-01-15 10:00:00 UTC',
    '2024-01-15 10:00:00.123', '2024-01-15 10:00:00.5', '2024-01-15 10:00:00.', '2024-01-15 10:00:00 +02:00',
    '2024-01-15 10:00:00+02:00', '2024-01-15 10:00:00 GMT+0200', '2024-01-15 10:00:00 PM', '2024-01-15 24:00:00',
    '2024-01-15 25:00:00', '2024-01-15T10:00:00 PM', '2024-1-5', '2024-1-5 1:2:3', '2024-01-15 10', '2024-01-15 10:',
    '2024-01-15 10::', '2024-01-15 10:00::', '2024-01-15 10:00:00:00', '10:00 2024-01-15', '10:00:00 Jan 15 2024',
    'Jan 15 10:00:00 2024', '15 Jan 10:00 2024', 'Jan 2024', 'January 2024', 'Jan', 'January', 'Jan 15', '15 Jan',
    '2024 Jan', 'Jan 1 0', 'Jan 1 49', 'Jan 1 50', 'Jan 1 99', 'Jan 1 100', 'Jan 1 1000', 'Jan 1 99999',
    'Jan 1 999999999', 'Jan 1 1234567890123', 'Dec 25, 1999', 'Feb 29, 2023', 'Feb 30, 2024', 'Feb 31 2024',
    'Sept 5, 2024', 'Sep 5 2024', 'June 1 2024', 'Juneteenth 19 2024', 'Mayday 1 2024', 'mar 3 2024', 'MAR 3 2024',
    'Octopus 3 2024', 'Jan Feb 3 2024', '3 2024 Jan', 'Jan 3 4 5', 'Jan 3 4 5 6', '1 2 3', '1 2 3 4', '2024 1 15',
    '32 1 2024', '2024 32 1', 'Tue 15 Jan 2024', 'Tuesday, January 15, 2024', 'Hello 15 Jan 2024', 'x15 Jan 2024',
    'Jan 15 2024 hello', 'Jan 15 2024 (comment)', 'Jan 15 2024 (nested (comment))', 'Jan 15 2024 (unclosed',
    '(c) Jan 15 2024', 'Jan 15 2024)', 'Jan 15 2024 +', 'Jan 15 2024 -', 'Jan 15 2024 10:00 +', 'Jan -15 2024',
    'Jan 15 -2024', '-Jan 15 2024', '+Jan 15 2024', '- 2024-01-15', 'T10:00', 'Jan 15 2024 T 10:00', 'Jan 15 2024T10:00',
    'Jan 15 2024 10:00:00.123', 'Jan 15 2024 10:00:00.1234', 'Jan 15 2024 10:00:00.', 'Jan 15 2024 10.30',
    'Jan 15 2024 10:30.45', 'Jan 15 2024 10:30:45.5 PM', 'Jan 15 2024 10:30 45', 'Jan 15 2024 10:30:45 123',
    'Jan 15 2024 10:60', 'Jan 15 2024 10:00:60', 'Jan 15 2024 24:00', 'Jan 15 2024 24:00:01', 'Jan 15 2024 10:00x',
    'Jan 15 2024 10:00,', 'Jan 15 2024 10:00Z', 'Jan 15 2024 10:00+01', 'Jan 15 2024 10:00:00 GMT+05:30',
    'Jan 15 2024 10:00:00 GMT+05:', 'Jan 15 2024 10:00:00 GMT+05:60', 'Jan 15 2024 10:00:00 GMT+0560',
    'Jan 15 2024 10:00:00 GMT+596523:00', 'Jan 15 2024 10:00:00 GMT+596524:00', 'Jan 15 2024 10:00:00 GMT+298261:00',
    'Jan 15 2024 10:00:00 GMT+298262:00', 'Jan 15 2024 10:00:00 GMT+1193047:00', 'Jan 15 2024 10:00:00 GMT+999999999:00',
    'Jan 15 2024 10:00:00 GMT+05:30:00', 'Jan 15 2024 10:00:00 GMT 0530', 'Jan 15 2024 10:00:00 EST+1',
    'Jan 15 2024 10:00:00 PST PDT', 'Jan 15 2024 10:00 AM PM', 'Jan 15 2024 AM 10:00', 'Jan 15 2024 10 AM',
    '10 AM', '10:00 AM', '10:00', '10:00:00', 'Z', 'UTC', 'GMT', '2024', '24', '1', '0', '-1', '+1', '20240115',
    '2024011510', '1705312800000', '12345', '123456', '+123456', '-123456', '1e3', '2024.01.15', '15.01.2024',
    '2024_01_15', '2024|01|15', '2024\\01\\15', '2024@01@15', '2024,01,15', '2024;01;15', '2024 01 15', '15 01 2024',
    '', ' ', 'garbage', 'Invalid Date', 'null', 'undefined', 'NaN', 'true', '{}', 'today', 'now', 'tomorrow',
    'yesterday', 'Jan 15th, 2024', 'January 15th 2024', '15th January 2024', '2024-01-15T10:00:00.000Z garbage',
    'Mon, 15 Jan 2024 10:00:00 +0000', 'Mon, 15 Jan 2024 10:00:00 -0000', 'Mon, 15 Jan 24 10:00:00 GMT',
    'Mon, 15 Jan 2024 10:00 GMT', 'Mon, 15 Jan 2024 10 GMT', 'Mon, 15 Jan 2024 GMT', 'Fri, 01 Jan -0001 00:00:00 GMT',
    'Sat, 13 Sep 275760 00:00:00 GMT', 'Sat, 13 Sep 275760 00:00:01 GMT', 'Tue, 20 Apr -271821 00:00:00 GMT',
    'Sep 13 275760', 'Sep 14 275760', 'Sep 13 275760 00:00:00 GMT-0100', 'Sep 13 275760 00:00:00 GMT+0100',
    'Apr 19 271821', '1/1/1970 00:00:00 GMT+0000', '1/1/1970 00:00:00 GMT-0000', '1/1/1970 GMT', '1/1/1970 UTC+1',
    '12:00:00 AM 1/15/2024', '1/15/2024 12:00 AM', '1/15/2024 12:30 PM', '1/15/2024 00:30 AM', '1/15/2024 12:30 am',
    '2024-01-15T10:00:00.000Z\u0000', '2024-01-15\u0000garbage', 'Jan 15\u0000 2024', '\u00002024',
    '2024-01-15\u00a010:00', 'Jan\u00a015 2024', 'Jan 15\t2024\n10:00', '2024-01-15\r\n', '\ufeff2024-01-15',
    '\u20282024-01-15', 'Jän 15 2024', 'Jan 15 2024 ☃', '☃ Jan 15 2024', '😀 Jan 15 2024', 'Jan 15 2024 😀',
    'Jan😀 15 2024', 'JAN 15 2024', 'jan 15 2024', 'JANUARY 15 2024', 'Jan. 15, 2024', 'Jan.15.2024',
    'Jan 15, 2024, 10:00 AM', 'Jan 15 2024 10:00:00 GMT+0000 (UTC)', 'Jan 15 2024 10:00:00 (UTC) GMT+0100',
    '[Jan 15 2024]', 'Jan 15 2024 [10:00]', '{Jan 15 2024}', 'Jan_15_2024', '~Jan 15 2024', '\u001c2024-01-15',
    '2024-01-15\u001f', '\u000b2024-01-15', '\f2024-01-15', '2024-W03', '2024-015', '2024-01-15T10:00:00,5Z',
    '2024-01-15T10:00:00.5+01:00', '2024-01-15T10:00:00.5-01:00', '2024-01-15T10:00:00.500000000001Z',
    '2024-01-15T10h00', '2024-01-15 T10:00', '2024-01-15T 10:00', '2024-01-15T10 :00', '2024-01-15T10: 00',
    '-2024-01-15', '+-2024', '--2024', '2024--01', '2024-01--15', '2024-01-15-', '2024-', '2024-01-', 'T',
    // Leading zeros count toward a numeral's length, not its nine significant digits.
    '000000123456', '0000002024-01-15', 'Jan 15 0000002024', '00002024-01-15', 'Jan 15 2024 010:00', 'Jan 015 02024',
    '2024-01-15T10:00:00.0001Z', '2024-01-15T10:00:00.0000000012345678Z', '2024-01-15T10:00:00.000000000999Z',
    'Jan 15 2024 10:00:00.0000000001234567', 'Jan 15 2024 10:00:00.0999', '1/15/0000000000000000002024',
  ];
  const strs = new Set(base);
  // Combinations of legacy building blocks.
  const dates = ['Jan 15 2024', '15 Jan 2024', '2024 Jan 15', '1/15/2024', '2024/01/15', '2024-01-15', 'January 5, 99',
    '5 Dec 49', 'Feb 29 2024', 'Jul 4 1776', 'Dec 31 9999', '1/1/0', '6/15'];
  const times = ['', ' 10:00', ' 10:00:00', ' 10:00:00.123', ' 9:05 PM', ' 12:00 AM', ' 23:59:59', ' 0:0:0', ' 10:00:00.5',
    ' 7 am', ' 24:00'];
  const zones = ['', ' GMT', ' UTC', ' Z', ' GMT+0200', ' GMT-05:30', ' +0100', ' -8', ' EST', ' PDT', ' (Some Zone)',
    ' GMT+0000 (Coordinated Universal Time)', 'Z', '+01:00'];
  for (const d of dates) for (const t of times) for (const z of zones) strs.add(d + t + z);
  // Random ISO strings.
  const p2 = (n) => String(n).padStart(2, '0');
  for (let i = 0; i < 250; i++) {
    let s = String(rndInt(10000)).padStart(4, '0');
    if (rnd() < 0.2) s = (rnd() < 0.5 ? '-' : '+') + String(rndInt(300000)).padStart(6, '0');
    const parts = rndInt(3);
    if (parts >= 1) s += '-' + p2(rndInt(14));
    if (parts >= 2) s += '-' + p2(rndInt(33));
    if (rnd() < 0.7) {
      s += 'T' + p2(rndInt(26)) + ':' + p2(rndInt(62));
      if (rnd() < 0.7) s += ':' + p2(rndInt(62));
      if (rnd() < 0.5) s += '.' + String(rndInt(100000)).slice(0, 1 + rndInt(5));
      const z = rndInt(4);
      if (z === 1) s += 'Z';
      if (z === 2) s += (rnd() < 0.5 ? '+' : '-') + p2(rndInt(25)) + ':' + p2(rndInt(61));
      if (z === 3) s += (rnd() < 0.5 ? '+' : '-') + p2(rndInt(25)) + p2(rndInt(61));
    }
    strs.add(s);
  }
  // toISOString / toUTCString / toString outputs of random dates.
  for (let i = 0; i < 150; i++) {
    const d = new Date(Math.round((rnd() * 2 - 1) * 8.64e15));
    strs.add(d.toISOString()); strs.add(d.toUTCString()); strs.add(d.toString());
  }
  for (let i = 0; i < 60; i++) {
    const d = new Date(Math.round((rnd() * 2 - 1) * 4e12));
    strs.add(d.toLocaleString()); strs.add(d.toDateString()); strs.add(d.toString().slice(0, 24));
  }
  // White space and other characters around and between the parts.
  const chars = ['\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u2028',
    '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u0085', '\u180e', '\u200b', '\u001c', '\u001f', '\u0000',
    '\u00e9', '\ud800', '\udfff', '\u{1f600}', '@', '[', '`', '{', '~', '\u007f', '_', '/', ',', '#', '*', '"'];
  const templates = ['2024-01-15#10:00', '#2024-01-15', '2024-01-15#', 'Jan#15 2024', 'Jan 15 2024#', 'Jan 15#2024',
    'Jan 15 2024 10:00#', '10:00#PM Jan 15 2024', '2024-01-15T10:00:00Z#', '#Jan 15 2024', 'J#an 15 2024',
    'Jan 15 2024 10:00:00 GMT#+0100', 'Jan 15 2024 10#:00', '1#/15/2024'];
  for (const c of chars) for (const tpl of templates) strs.add(tpl.replace('#', c));
  // Mutations of valid strings: delete, duplicate, replace or insert one character.
  const alphabet = '0123456789:-+.,/() TZtzAPMGUCamp\tx\u00e9';
  const seeds = [...strs].filter((s) => !isNaN(Date.parse(s)));
  for (let i = 0; i < 2000; i++) {
    const s = pick(seeds);
    const k = rndInt(s.length + 1);
    const c = alphabet[rndInt(alphabet.length)];
    let m;
    switch (rndInt(4)) {
      case 0: m = s.slice(0, k) + s.slice(k + 1); break;
      case 1: m = s.slice(0, k) + s[k] + s.slice(k); break;
      case 2: m = s.slice(0, k) + c + s.slice(k + 1); break;
      default: m = s.slice(0, k) + c + s.slice(k);
    }
    strs.add(m);
  }
  const rows = [];
  for (const s of strs) {
    const r = Date.parse(s);
    const c = new Date(s).getTime();
    if (!Object.is(c, r) && !(isNaN(c) && isNaN(r))) throw new Error('ctor/parse mismatch ' + s);
    rows.push([s, num(r)]);
  }
  write('parse.jsonl', rows);
}

// ------------------------------------------------------------- setters.jsonl
{
  const methods = {
    setUTCMilliseconds: 1, setUTCSeconds: 2, setUTCMinutes: 3, setUTCHours: 4, setUTCDate: 1, setUTCMonth: 2,
    setUTCFullYear: 3, setYear: 1,
  };
  const local = {
    setUTCMilliseconds: 'setMilliseconds', setUTCSeconds: 'setSeconds', setUTCMinutes: 'setMinutes',
    setUTCHours: 'setHours', setUTCDate: 'setDate', setUTCMonth: 'setMonth', setUTCFullYear: 'setFullYear',
  };
  const tvs = [NaN, 0, -1, 1705312800123, -62198755200000, 8.64e15, -8.64e15, 951825600000, 4102444799999,
    utcOf(2024, 0, 31, 10), utcOf(2024, 1, 29, 23, 59, 59, 999), utcOf(-271821, 3, 20), utcOf(275760, 8, 12)];
  const vals = [0, 1, -1, 12, 13, 24, 31, 59, 60, 99, 100, 999, 1000, 1.5, -0.5, 2024, 1970, 275760, -271821, 1e6,
    1e7, 1e8, 8.64e15, NaN, Infinity, -Infinity, -0];
  const rows = [];
  const one = (tv, m, args) => {
    const d = new Date(tv);
    const r = d[m](...args);
    if (!Object.is(r, d.getTime())) throw new Error('setter');
    if (local[m]) {
      const d2 = new Date(tv);
      const r2 = d2[local[m]](...args);
      if (!Object.is(r, r2)) throw new Error('local setter ' + m);
    }
    rows.push([num(tv), m, args.map(num), num(r)]);
  };
  for (const tv of tvs) {
    for (const m of Object.keys(methods)) {
      one(tv, m, []);
      for (const v of vals) one(tv, m, [v]);
      for (let i = 0; i < 40; i++) {
        const n = 1 + rndInt(methods[m] + 1); // sometimes one extra argument
        const args = [];
        for (let k = 0; k < n; k++) args.push(rnd() < 0.3 ? pick(vals) : rndInt(100) - 20);
        one(tv, m, args);
      }
    }
  }
  write('setters.jsonl', rows);
}
