// gen.js regenerates cases.jsonl, the reference table the jsregex tests
// compare against: every case is run through node's RegExp (V8).
//
// Usage (from this directory):  node gen.js
//
// One JSON object per line:
//   {"p": pattern, "f": flags, "e": message}                 compile error
//   {"p": pattern, "f": flags, "src": source, "s": [code units], "i": lastIndex,
//    "r": null | [start0, end0, start1, end1, ...] (-1 for unmatched groups),
//    "g": [[name, start, end], ...] (the groups object, in key order)}
// plus "pu", the pattern as code units, when it holds lone surrogates.
// Flags are in canonical order. Inputs are code-unit arrays so that lone
// surrogates survive. The random part uses a seeded PRNG, so a re-run with
// the same node version reproduces the file byte for byte. It also writes
// canon.jsonl (Canonicalize without /u, for TestCanonicalize).
//
// Exploring: JSREGEX_EXPLORE=N writes N random cases (only) to
// $JSREGEX_OUT (default /tmp/explore.jsonl); JSREGEX_SEED, JSREGEX_FLAGS
// (comma-separated) and JSREGEX_LEN (input length bound) vary them. Then
//   JSREGEX_CASES=/tmp/explore.jsonl go test -run TestTable ./internal/jsregex
// lists every difference from V8 (expect the quirks of skip.jsonl).
'use strict';
const fs = require('fs');
const path = require('path');

const out = [];
const seen = new Set();

function units(s) {
  const a = [];
  for (let i = 0; i < s.length; i++) a.push(s.charCodeAt(i));
  return a;
}

// hasLoneSurrogate tells patterns that JSON cannot carry to Go as text;
// they also get "pu", the pattern as code units.
function hasLoneSurrogate(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xD800 && c <= 0xDBFF) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xDC00 && d <= 0xDFFF) { i++; continue; }
      return true;
    }
    if (c >= 0xDC00 && c <= 0xDFFF) return true;
  }
  return false;
}

function canonFlags(f) {
  return [...'dgimsuvy'].filter((c) => f.includes(c)).join('');
}

// exec runs one case and records it.
function exec(p, f, s, li) {
  f = canonFlags(f);
  const key = JSON.stringify([p, f, s, li]);
  if (seen.has(key)) return undefined;
  seen.add(key);
  let re;
  try {
    re = new RegExp(p, f);
  } catch (e) {
    const ekey = JSON.stringify([p, f]);
    if (!seen.has(ekey)) {
      seen.add(ekey);
      const rec = { p, f, e: e.message };
      if (hasLoneSurrogate(p)) rec.pu = units(p);
      out.push(rec);
    }
    return undefined;
  }
  // d gives the indices; g makes exec honour lastIndex (y already does).
  let f2 = f.includes('d') ? f : f + 'd';
  if (!f2.includes('g') && !f2.includes('y')) f2 += 'g';
  const re2 = new RegExp(p, canonFlags(f2));
  re2.lastIndex = li;
  const m = re2.exec(s);
  const rec = { p, f, src: re.source, s: units(s), i: li, r: null };
  if (hasLoneSurrogate(p)) rec.pu = units(p);
  if (m) {
    rec.r = [];
    for (const pair of m.indices) {
      if (pair === undefined) rec.r.push(-1, -1);
      else rec.r.push(pair[0], pair[1]);
    }
    if (m.groups) {
      rec.g = Object.keys(m.groups).map((k) => {
        const pair = m.indices.groups[k];
        return pair === undefined ? [k, -1, -1] : [k, pair[0], pair[1]];
      });
    }
  }
  out.push(rec);
  return m;
}

// t records pattern p with flags f against each input at lastIndex 0.
function t(p, f, inputs) {
  for (const s of inputs) exec(p, f, s, 0);
}

// g records the whole /g iteration over each input: exec at every lastIndex
// the loop visits (empty matches advance by one character).
function g(p, f, inputs) {
  const uni = f.includes('u') || f.includes('v');
  for (const s of inputs) {
    let li = 0;
    for (let n = 0; n < 30 && li <= s.length; n++) {
      const m = exec(p, f, s, li);
      if (!m) break;
      const end = m.index + m[0].length;
      if (end === m.index) {
        const c = s.codePointAt(end);
        li = end + (uni && c !== undefined && c > 0xFFFF ? 2 : 1);
      } else {
        li = end;
      }
    }
  }
}

// at records pattern p against input s at each lastIndex.
function at(p, f, s, lis) {
  for (const li of lis) exec(p, f, s, li);
}

// err records patterns that should fail to compile (they are recorded
// whatever node says).
function err(f, patterns) {
  for (const p of patterns) exec(p, f, '', 0);
}

// ---------------------------------------------------------------- basics

t('abc', '', ['abc', 'xabcx', 'ab', '', 'ABC']);
t('a|b|c', '', ['a', 'b', 'c', 'd', 'xc']);
t('a|ab', '', ['ab']);
t('ab|a', '', ['ab']);
t('(a|ab)(c|bcd)(d*)', '', ['abcd']);
t('a*', '', ['', 'aaa', 'baaa']);
t('a+', '', ['', 'aaa', 'baaa']);
t('a?', '', ['', 'a', 'b']);
t('a{2}', '', ['a', 'aa', 'aaa']);
t('a{2,}', '', ['a', 'aa', 'aaaa']);
t('a{2,3}', '', ['a', 'aa', 'aaaa']);
t('a{0}', '', ['a']);
t('a{0,0}b', '', ['ab', 'b']);
t('a*?', '', ['aaa']);
t('a+?', '', ['aaa']);
t('a??b', '', ['ab', 'b']);
t('a{2,}?', '', ['aaaa']);
t('a{2,3}?', '', ['aaaa']);
t('<.*>', '', ['<a><b>']);
t('<.*?>', '', ['<a><b>']);
t('x*y+$', '', ['xxyyy', 'xxyyyz']);
t('(a+)(b+)?', '', ['aab', 'aa']);
t('(a*)+', '', ['b', 'aab']);
t('(a*)*b', '', ['b', 'aab']);
t('(?:a|b)*c', '', ['ababc', 'abab']);
t('[abc]+', '', ['xxbcaxx']);
t('[a-z]+', '', ['ABC def']);
t('[^a-z]+', '', ['abcDEF123ghi']);
t('.+', '', ['line1\nline2', '\r\n', 'a\u2028b', 'a\u2029b', '\u0085x']);
t('.+', 's', ['line1\nline2', 'a\u2028b']);
t('^.*$', '', ['abc', 'a\nb', '']);
t('a.c', '', ['abc', 'a\nc', 'a\rc', 'a\u2028c', 'a\u2029c', 'a\u000bc', 'a\u000cc']);
t('a.c', 's', ['a\nc', 'a\rc', 'a\u2028c']);
t('a{,2}', '', ['a{,2}', 'aa']);
t('a{2', '', ['a{2', 'aa']);
t('a{2,3', '', ['a{2,3']);
t('a{x}', '', ['a{x}']);
t('{', '', ['{']);
t('}', '', ['}']);
t(']', '', [']']);
t('a{1}?', '', ['aa']);
t('x{3,3}', '', ['xxxx']);
t('a{99999999999}', '', ['a']);
t('a{0,99999999999}', '', ['aaa']);
t('(?:)', '', ['', 'a']);
t('', '', ['', 'abc']);
t('()', '', ['x']);
t('(?:a|)+', '', ['aa']);
t('a|', '', ['b', 'a']);
t('|a', '', ['a']);

// ---------------------------------------------------------------- anchors

t('^abc', '', ['abc', 'xabc', 'x\nabc']);
t('abc$', '', ['abc', 'abcx', 'abc\n']);
t('^abc$', 'm', ['x\nabc\ny', 'x\rabc\ry', 'x\u2028abc\u2029y', 'xabc']);
t('^$', 'm', ['', '\n', 'a\n\nb']);
t('^', 'm', ['\n']);
t('$', 'm', ['a\nb']);
t('^\\w+$', 'gm', ['one\ntwo\r\nthree']);
g('^\\w+', 'gm', ['one\ntwo\nthree', 'a\r\nb\u2028c\u2029d']);
g('\\w+$', 'gm', ['one\ntwo\nthree']);
g('^', 'gm', ['a\nb\n']);
g('$', 'gm', ['a\nb\n']);
at('^a', '', 'aa', [0, 1]);
at('^a', 'g', 'aa', [0, 1]);
at('^a', 'y', 'aa', [0, 1]);
at('^a', 'm', 'a\na', [0, 1, 2]);
at('a$', 'g', 'aa', [0, 1]);
t('\\bfoo\\b', '', ['foo', 'a foo b', 'foobar', 'barfoo', 'foo_', 'éfooé', 'foo-bar']);
t('\\Bfoo\\B', '', ['afoob', 'foo', ' foo ']);
t('\\b', '', ['', ' ', 'a']);
t('\\B', '', ['', ' ', 'a']);
g('\\b\\w', 'g', ['hello big world', 'été déjà']);
t('\\b.', 'g', ['é a']);
t('\\bé', '', ['é', 'aé']);
t('a\\b', '', ['aé', 'a_']);

// ---------------------------------------------------------------- escapes

t('\\d+', '', ['abc123def', '١٢٣', '０']);
t('\\D+', '', ['123abc456']);
t('\\w+', '', ['héllo wörld', 'snake_case', 'ÀÉ']);
t('\\W+', '', ['abc!@#def', 'héllo']);
t('\\s+', '', ['a \t\n\r\v\fb', 'a\u00a0b', 'a\ufeffb', 'a\u2000\u200ab', 'a\u3000b', 'a\u1680b', 'a\u180eb', 'a\u200bb', 'a\u0085b', 'a\u2028\u2029b', 'a\u202fb', 'a\u205fb']);
t('\\S+', '', [' abc ', '\u00a0x\u00a0']);
t('[\\s]', '', ['\ufeff', '\u200b']);
t('\\t\\n\\v\\f\\r', '', ['\t\n\u000b\u000c\r']);
t('\\x41\\x4a', '', ['AJ']);
t('\\x4', '', ['x4', '\u0004']);
t('\\xg', '', ['xg']);
t('\\u0041', '', ['A']);
t('\\u004', '', ['u004']);
t('\\u{41}', '', ['A', 'u'.repeat(41)]);
t('\\u{41}', 'u', ['A']);
t('\\u{1F600}', 'u', ['😀', '\ud83d']);
t('\\u{10FFFF}', 'u', ['\udbff\udfff']);
t('\\ud83d\\ude00', '', ['😀']);
t('\\ud83d\\ude00', 'u', ['😀']);
t('\\ud83d', '', ['😀', '\ud83d']);
t('\\ud83d', 'u', ['😀', '\ud83d', '\ud83dx']);
t('\\ude00', 'u', ['😀', '\ude00']);
t('\\cA\\cz', '', ['\u0001\u001a']);
t('\\c1', '', ['\\c1', '\u0011']);
t('\\c', '', ['\\c']);
t('[\\c1]', '', ['\u0011', 'c']);
t('[\\c_]', '', ['\u001f']);
t('[\\c*]', '', ['\\', 'c', '*']);
t('\\0', '', ['\0']);
t('\\00', '', ['\0']);
t('\\07', '', ['\u0007']);
t('\\012', '', ['\n']);
t('\\377', '', ['\u00ff']);
t('\\400', '', ['\u00200', '\u0100']);
t('\\1', '', ['\u0001', '1']);
t('\\2(a)', '', ['\u0002a']);
t('(a)\\2', '', ['a\u0002']);
t('\\8', '', ['8']);
t('\\9', '', ['9']);
t('\\18', '', ['\u00018']);
t('[\\1]', '', ['\u0001']);
t('[\\8]', '', ['8']);
t('[\\08]', '', ['\u00008', '8']);
t('\\a\\e\\g\\h\\i\\j\\l\\m\\o\\q\\y\\z', '', ['aeghijlmoqyz']);
t('\\-\\_\\ \\=\\!\\"\\\'\\<\\>\\&\\%\\@\\#\\~\\`\\,\\;\\:', '', ['-_ =!"\'<>&%@#~`,;:']);
t('\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/', '', ['^$\\.*+?()[]{}|/']);
t('\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/', 'u', ['^$\\.*+?()[]{}|/']);
t('\\k', '', ['k']);
t('\\k<a>', '', ['k<a>']);
t('\\p{L}', '', ['p{L}', 'a']);
t('\\P', '', ['P']);
t('[\\b]', '', ['\b', 'b']);
t('[\\B]', '', ['B']);
t('[\\-]', '', ['-']);
t('[\\-]', 'u', ['-']);
t('\\/', '', ['/']);
t('/', '', ['/']);
t('a/b', '', ['a/b']);
t('[/]', '', ['/']);
t('\n', '', ['\n']);
t('[\n]', '', ['\n']);
t('\\\n', '', ['\n']);
t('\u2028', '', ['\u2028']);
t('\\r\\n', '', ['\r\n']);

// ---------------------------------------------------------------- classes

t('[]', '', ['', 'a']);
t('[^]', '', ['', 'a', '\n']);
t('a[]', '', ['a']);
t('a[^]b', '', ['a\nb']);
t('[a-]', '', ['-', 'a']);
t('[-a]', '', ['-']);
t('[a-c-e]', '', ['b', '-', 'd', 'e']);
t('[\\d-z]', '', ['-', 'z', '5', 'y']);
t('[z-\\d]', '', ['-', 'z', '5']);
t('[\\w-\\d]', '', ['-', 'a']);
t('[%--]', '', ['+', '%', '-']);
t('[--0]', '', ['.', '/']);
t('[\\]]', '', [']']);
t('[]]', '', [']', '[]]']);
t('[[]', '', ['[']);
t('[a-z\\d_]+', '', ['foo_123-bar']);
t('[^\\d\\s]+', '', ['12 ab 34']);
t('[\\D]', '', ['1a']);
t('[\\W\\d]', '', ['a1']);
t('[\\S\\s]+', '', ['a\nb']);
t('[^\\S\\n]+', '', ['a \t\nb']);
t('[.]', '', ['a', '.']);
t('[*+?]', '', ['?']);
t('[$^]', '', ['^']);
t('[\\^]', '', ['^']);
t('[^^]', '', ['^a']);
t('[\\x41-\\x43]+', '', ['ABCD']);
t('[\\u0041-\\u0043]+', '', ['ABCD']);
t('[\\u{41}]', '', ['u', '{', '4', '}', 'A']);
t('[\\u{41}-\\u{43}]+', 'u', ['ABCD']);
t('[😀]', '', ['😀', '\ud83d', '\ude00']);
t('^[😀]$', '', ['😀']);
t('^[😀]$', 'u', ['😀', '\ud83d']);
t('[😀-😂]', 'u', ['😁', '😃']);
t('[\\ud83d\\ude00]', 'u', ['😀', '\ud83d']);
t('[\\ud83d\\ude00]', '', ['😀', '\ud83d']);
t('[\\ud800-\\udbff]', '', ['😀', '\ud800']);
t('[\\ud800-\\udbff]', 'u', ['😀', '\ud800', '\ud800x']);
t('[^a]', 'u', ['😀']);
t('^[^a]$', '', ['😀']);
t('^[^a]$', 'u', ['😀']);
t('[^\\ud83d]', 'u', ['😀']);
t('\\W', 'u', ['😀']);
t('[\\0-\\x1f]', '', ['\u0010']);
t('[\\u2028\\u2029]', '', ['\u2029']);

// ---------------------------------------------------------------- case-insensitive

t('abc', 'i', ['ABC', 'aBc', 'xAbCx']);
t('[a-z]+', 'i', ['Hello WORLD']);
t('[^a-z]+', 'i', ['Hello WORLD 123']);
t('[A-Z]', 'i', ['k', '\u212a', '\u017f']);
t('[a-z]', 'iu', ['\u212a', '\u017f', 'K']);
t('k', 'i', ['K', '\u212a']);
t('k', 'iu', ['K', '\u212a']);
t('\u212a', 'i', ['k', 'K', '\u212a']);
t('\u212a', 'iu', ['k', 'K']);
t('s', 'i', ['S', '\u017f']);
t('s', 'iu', ['\u017f']);
t('\u017f', 'i', ['s', 'S', '\u017f']);
t('\u017f', 'iu', ['s', 'S']);
t('ß', 'i', ['ẞ', 'SS', 'ss']);
t('ß', 'iu', ['ẞ']);
t('ẞ', 'i', ['ß']);
t('σ', 'i', ['Σ', 'ς']);
t('ς', 'i', ['Σ', 'σ']);
t('ς', 'iu', ['Σ', 'σ']);
t('é', 'i', ['É']);
t('ÿ', 'i', ['Ÿ']);
t('µ', 'i', ['μ', 'Μ']);
t('µ', 'iu', ['μ', 'Μ']);
t('i', 'i', ['I', 'İ', 'ı']);
t('i', 'iu', ['I', 'İ', 'ı']);
t('İ', 'i', ['i', 'İ']);
t('ı', 'i', ['I', 'i']);
t('ǅ', 'i', ['Ǆ', 'ǆ']);
t('ǅ', 'iu', ['Ǆ', 'ǆ']);
t('ΐ', 'i', ['ΐ']);
t('ΐ', 'iu', ['ΐ']);
t('ﬀ', 'i', ['FF', 'ﬀ']);
t('ᾀ', 'i', ['ᾈ']);
t('ᾀ', 'iu', ['ᾈ']);
t('Ꭰ', 'i', ['ꭰ']);
t('Ꭰ', 'iu', ['ꭰ']);
t('\u{10400}', 'iu', ['\u{10428}']);
t('\u{10400}', 'i', ['\u{10428}', '\u{10400}']);
t('[\u{10400}]', 'iu', ['\u{10428}']);
t('\\w', 'i', ['\u017f', '\u212a', 'é']);
t('\\w', 'iu', ['\u017f', '\u212a']);
t('\\W', 'iu', ['\u017f', '\u212a', 's']);
t('[\\W]', 'iu', ['\u017f', 's']);
t('[^\\W]', 'iu', ['\u017f']);
t('\\bs', 'iu', ['\u017fs', 'as']);
t('\\b', 'iu', ['\u017f']);
t('\\b', 'i', ['\u017f']);
t('\\B', 'iu', ['\u017f']);
t('[^k]', 'iu', ['\u212a', 'K']);
t('[^k]', 'i', ['\u212a', 'K']);
t('[\\u212a]', 'i', ['k']);
t('(a)\\1', 'i', ['aA', 'Aa', 'ab']);
t('(k)\\1', 'iu', ['k\u212a', 'kK']);
t('(k)\\1', 'i', ['k\u212a', 'kK']);
t('(ß)\\1', 'i', ['ßẞ']);
t('(σ)\\1', 'iu', ['σς', 'σΣ']);
t('(\u212a)\\1', 'i', ['\u212ak', '\u212a\u212a']);
t('(İ)\\1', 'i', ['İi']);
t('(İ)\\1', 'iu', ['İi']);
t('(σ)\\1\\1', 'i', ['σςΣ']);
t('(?<a>x)\\k<a>', 'i', ['xX']);
t('[a-f]+', 'i', ['DeadBeef']);
t('[\\da-f]{2}', 'gi', ['FF', 'g0']);
t('hello', 'gi', ['Hello HELLO hello']);
g('o', 'gi', ['fOo bOO']);
t('\\p{Lu}', 'iu', ['a', 'A', '1']);
t('\\P{Lu}', 'iu', ['A', 'a']);
t('[^\\p{Lu}]', 'iu', ['a', '1']);
t('\\p{Lu}', 'iv', ['a']);
t('\\P{Lu}', 'iv', ['A', 'a', '1']);
t('[^\\p{Lu}]', 'iv', ['a', '1']);
t('[^a]', 'iv', ['A', 'b']);
t('[\\q{AbC}]', 'iv', ['abc']);
t('[\\p{Ll}&&[a-z]]', 'iv', ['A', 'é']);
t('[a-z--c]', 'iv', ['C', 'd']);
t('\u00e5', 'i', ['\u00c5', '\u212b']);
t('\u00e5', 'iu', ['\u00c5', '\u212b']);
t('\u03b8', 'iu', ['\u03d1', '\u03f4', '\u0398']);
t('\u03b8', 'i', ['\u03d1', '\u03f4', '\u0398']);
t('\u1e9b', 'iu', ['\u1e60', 's']);
t('\u1e9e', 'iu', ['ß', 'ss']);

// ---------------------------------------------------------------- groups, backreferences

t('(a)(b)(c)', '', ['abc']);
t('(a(b(c)))', '', ['abc']);
t('(?:a(b))+', '', ['ababab']);
t('(a)|(b)', '', ['b', 'a']);
t('(?:(a)|b)+', '', ['ab', 'ba', 'aba']);
t('(?:(a)|(b))+', '', ['ab', 'ba']);
t('((a)|b)+', '', ['ab', 'ba']);
t('(z)((a+)?(b+)?(c))*', '', ['zaacbbbcac']);
t('(?:(x)|y)*\\1', '', ['xyx', 'xy']);
t('(a)?b\\1', '', ['b', 'aba']);
t('(a)?\\1b', '', ['b']);
t('\\1(a)', '', ['aa', 'a']);
t('(a\\1)', '', ['aa', 'a']);
t('(a\\1*)', '', ['a']);
t('(?:(a)|(b))\\1\\2', '', ['aa', 'bb']);
t('(a)(?:b|\\1)+', '', ['abab', 'aab']);
t('(?:\\1(a))+', '', ['aaa']);
t('(?:(a)\\1)+', '', ['aaaa']);
t('((a)\\2)+', '', ['aaaa']);
t('(.)\\1', '', ['abccd', 'aabb']);
t('(\\w+)\\s\\1', '', ['hello hello', 'hello world']);
t('(["\']).*?\\1', '', ['say "hi" and \'bye\'']);
t('<(\\w+)>.*?</\\1>', '', ['<b>bold</b> <i>it</i>']);
t('(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10', '', ['abcdefghijj', 'abcdefghija0']);
t('(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\11', '', ['abcdefghija1', 'abcdefghij\t']);
t('(a)\\10', '', ['a\b', 'aa0']);
t('(?<year>\\d{4})-(?<month>\\d{2})-(?<day>\\d{2})', '', ['2024-01-15', 'on 1999-12-31.']);
t('(?<a>.)(?<b>.)\\k<b>\\k<a>', '', ['abba', 'abab']);
t('\\k<a>(?<a>x)', '', ['x']);
t('(?<a>x)|(?<b>y)', '', ['y']);
t('(?<first>\\w+)\\s(?<last>\\w+)', '', ['John Smith']);
t('(?<$>a)(?<_b>b)(?<c1>c)', '', ['abc']);
t('(?<π>a)', '', ['a']);
t('(?<\\u0061>a)\\k<a>', '', ['aa']);
t('(?<\\u{61}>a)\\k<a>', '', ['aa']);
t('(?<a\\u{62}>x)', 'u', ['x']);
t('(?<𝑓>x)', '', ['x']);
t('(?<y>\\d{4})-\\d\\d|\\d\\d-(?<y>\\d{4})', '', ['2020-12', '12-2020']);
t('(?:(?<a>x)|(?<a>y))\\k<a>', '', ['xx', 'yy', 'xy']);
t('(?:(?<a>x)|(?<a>y))+\\k<a>', '', ['xyy', 'yxx', 'xyx']);
t('(?<b>x)|(?<a>y)|(?<b>z)', '', ['z', 'y']);
t('(?<a>a)|b', '', ['b']);
t('(?<n>a)?', '', ['b']);
t('(a)|b', '', ['b']);

// ---------------------------------------------------------------- lookaround

t('a(?=b)', '', ['ab', 'ac']);
t('a(?!b)', '', ['ab', 'ac']);
t('(?<=a)b', '', ['ab', 'cb']);
t('(?<!a)b', '', ['ab', 'cb']);
t('(?<=\\$)\\d+(\\.\\d+)?', '', ['cost: $42.50', '42']);
t('(?<=^|,)\\w+', 'g', ['a,b']);
g('(?<=^|,)\\w*', 'g', ['a,,b']);
t('(?<=(\\d+)(\\d+))$', '', ['1053']);
t('(?<=\\1(a))b', '', ['aab', 'ab']);
t('(?<=(a)\\1)b', '', ['aab', 'ab']);
t('(?<=a(?=b)b)c', '', ['abc']);
t('(?<=a+)b', '', ['aaab']);
t('(?<=a{2,3})b', '', ['aab', 'ab']);
t('(?<=(a|bc))d', '', ['bcd', 'ad']);
t('(?<!(a))b\\1', '', ['cb', 'ab']);
t('(?=(a+))', '', ['baaa']);
t('(?=(a+))a*b\\1', '', ['baaabac']);
t('(?!(a))\\1b', '', ['b']);
t('(?=(\\d))\\1', '', ['42']);
t('(.*?)a(?!(a+)b\\2c)\\2(.*)', '', ['baaabaac']);
t('(?=a)*', '', ['a']);
t('(?=a)+a', '', ['a']);
t('(?!a)?b', '', ['b']);
t('(?=(a))?', '', ['a']);
t('(?=(a)){2}', '', ['a']);
t('^(?:(?=(\\w))\\1)+$', '', ['abc']);
t('(?<=\\b)foo', '', ['a foo']);
t('(?<=^\\s*)x', 'm', ['  x', 'a\n  x']);
t('(?<![a-z])\\d+(?![a-z])', 'g', ['a1 22 b3 44']);
t('\\d+(?=px)', '', ['width: 100px']);
t('(?<=["\'])[^"\']+(?=["\'])', '', ['say "hello" now']);
t('(?<=\ud83d)\ude00', '', ['😀']);
t('(?<=\ud83d)\ude00', 'u', ['😀']);
t('(?<=.)', 'u', ['😀']);
t('(?<=(.))b', 'u', ['😀b']);

// ---------------------------------------------------------------- sticky and lastIndex

at('a', 'y', 'baab', [0, 1, 2, 3, 4]);
at('a', 'g', 'baab', [0, 1, 2, 3, 4, 5]);
at('\\d+', 'y', '12 34', [0, 1, 2, 3]);
at('b|ab', 'y', 'ab', [0, 1]);
at('(?<=a)b', 'y', 'ab', [0, 1]);
at('^b', 'y', 'ab', [1]);
at('$', 'y', 'ab', [0, 2]);
at('', 'y', 'ab', [0, 1, 2, 3]);
at('', 'g', 'ab', [0, 2, 3]);
at('.', 'gu', '😀x', [0, 1, 2]);
at('.', 'yu', '😀x', [1]);
at('.', 'g', '😀x', [1]);
at('\\ude00', 'gu', '😀', [0, 1]);
at('\\ude00', 'g', '😀', [0, 1]);
at('$', 'yu', '😀', [1]);
at('(?<=\\ud83d)', 'yu', '😀', [1]);
at('(?<=\\ud83d)', 'y', '😀', [1]);
at('x', 'gu', 'a😀x', [2, 3]);
at('[^x]', 'gu', 'x😀', [1, 2]);
at('\\B', 'gu', 'x😀', [0]);
at('(?<!x)(?!x)', 'gu', 'x😀', [0]);
g('a|b', 'g', ['abcab']);
g('', 'g', ['abc']);
g('', 'gu', ['a😀b']);
g('', 'g', ['a😀b']);
g('\\w*', 'g', ['ab cd']);
g('a*?', 'g', ['aa']);
g('\\d', 'gy', ['123a45']);
g('.', 'gy', ['ab\nc']);
g('x*', 'gy', ['xxaxx']);

// ---------------------------------------------------------------- unicode mode

t('^.$', '', ['😀', 'a']);
t('^..$', '', ['😀']);
t('^.$', 'u', ['😀', '\ud83d', '\ude00']);
t('^.$', 'v', ['😀']);
t('😀+', '', ['😀\ude00\ude00', '😀😀']);
t('😀+', 'u', ['😀\ude00', '😀😀']);
t('^[^x]{2}$', '', ['😀']);
t('\\S', 'u', ['😀']);
t('\\S', '', ['😀']);
t('.', 'su', ['\n']);
t('\\udc00|\\ud800', 'u', ['\ud800\udc00']);
t('\\ud800', 'u', ['\ud800\ud800\udc00']);
t('a', 'u', ['\ud800a']);
t('[\\s\\S]', 'u', ['\udc00\ud800']);
t('\\p{L}+', 'u', ['123abcαβγ中文!', 'ÀÉÎ']);
t('\\p{Lu}+', 'u', ['abcDEFghi', 'ÀÉÎ']);
t('\\p{Ll}', 'u', ['A', 'a', 'ß']);
t('\\p{Lt}', 'u', ['ǅ', 'A']);
t('\\p{N}+', 'u', ['x١٢٣½Ⅻ']);
t('\\p{Nd}+', 'u', ['x١٢٣']);
t('\\p{P}+', 'u', ['a!?¿«»b']);
t('\\p{S}+', 'u', ['a$+€©b']);
t('\\p{Sc}', 'u', ['€', '$', 'a']);
t('\\p{Z}', 'u', [' ', '\u00a0', '\u2028']);
t('\\p{Zs}', 'u', [' ', '\u2028']);
t('\\p{Cc}', 'u', ['\u0001', 'a']);
t('\\p{Cf}', 'u', ['\u200b', '\u00ad']);
t('\\p{Cn}', 'u', ['\u0378', 'a']);
t('\\p{C}', 'u', ['\u0378', '\u0001', 'a']);
t('\\p{Co}', 'u', ['\ue000']);
t('\\p{Cs}', 'u', ['\ud800', '😀']);
t('\\p{LC}', 'u', ['a', 'ǅ', 'ª']);
t('\\p{M}', 'u', ['\u0301', 'a']);
t('\\p{Mn}', 'u', ['\u0301']);
t('\\p{Letter}', 'u', ['a']);
t('\\p{Lowercase_Letter}', 'u', ['a', 'A']);
t('\\p{Uppercase_Letter}', 'u', ['a', 'A']);
t('\\p{Decimal_Number}', 'u', ['5']);
t('\\p{digit}', 'u', ['5']);
t('\\p{punct}', 'u', ['!']);
t('\\p{cntrl}', 'u', ['\u0007']);
t('\\p{Combining_Mark}', 'u', ['\u0301']);
t('\\p{General_Category=Letter}', 'u', ['a', '1']);
t('\\p{gc=Lu}', 'u', ['A']);
t('\\p{gc=Cased_Letter}', 'u', ['A']);
t('\\p{Script=Greek}+', 'u', ['abc αβγ']);
t('\\p{sc=Grek}', 'u', ['α']);
t('\\p{Script=Latin}+', 'u', ['αβγ abc ÀÉ']);
t('\\p{sc=Latn}', 'u', ['a']);
t('\\p{Script=Han}+', 'u', ['hello 中文字 x']);
t('\\p{sc=Hani}', 'u', ['中']);
t('\\p{Script=Cyrillic}+', 'u', ['Привет мир']);
t('\\p{sc=Cyrl}', 'u', ['Я']);
t('\\p{Script=Arabic}+', 'u', ['مرحبا']);
t('\\p{Script=Hebrew}', 'u', ['ש']);
t('\\p{Script=Hiragana}+', 'u', ['ひらがな']);
t('\\p{Script=Katakana}+', 'u', ['カタカナ']);
t('\\p{Script=Thai}', 'u', ['ก']);
t('\\p{Script=Devanagari}', 'u', ['क']);
t('\\p{Script=Hangul}+', 'u', ['한국어']);
t('\\p{Script=Common}', 'u', ['1', ' ', 'a']);
t('\\p{sc=Zyyy}', 'u', ['!']);
t('\\p{Script=Inherited}', 'u', ['\u0301']);
t('\\p{sc=Zinh}', 'u', ['\u0301']);
t('\\p{sc=Qaai}', 'u', ['\u0301']);
t('\\p{sc=Unknown}', 'u', ['\u0378', 'a']);
t('\\p{sc=Zzzz}', 'u', ['\u0378']);
t('\\p{Script_Extensions=Greek}', 'u', ['α', '\u0342']);
t('\\p{scx=Deva}', 'u', ['क', '\u0951', '\u0964']);
t('\\p{sc=Deva}', 'u', ['\u0964']);
t('\\p{scx=Latn}', 'u', ['\u0363', 'a']);
t('\\p{scx=Zyyy}', 'u', ['\u0964', '!']);
t('\\p{Alphabetic}', 'u', ['a', '1', '\u0345']);
t('\\p{Alpha}', 'u', ['Ⅻ']);
t('\\p{White_Space}', 'u', [' ', '\u0085', '\u200b']);
t('\\p{space}', 'u', ['\u0085']);
t('\\p{Uppercase}', 'u', ['A', 'Ⓐ']);
t('\\p{Lowercase}', 'u', ['a', 'ª']);
t('\\p{ASCII}', 'u', ['a', 'é']);
t('\\P{ASCII}', 'u', ['a', 'é']);
t('\\p{Any}', 'u', ['😀']);
t('\\P{Any}', 'u', ['a']);
t('\\p{Assigned}', 'u', ['a', '\u0378']);
t('\\p{ASCII_Hex_Digit}+', 'u', ['xDEADbeefg']);
t('\\p{Hex_Digit}', 'u', ['Ａ']);
t('\\p{Emoji}', 'u', ['😀', 'a', '#']);
t('\\p{Emoji_Presentation}', 'u', ['😀', '#']);
t('\\p{Extended_Pictographic}+', 'u', ['hi 😀🎉 there']);
t('\\p{Emoji_Modifier}', 'u', ['🏽']);
t('\\p{Emoji_Modifier_Base}', 'u', ['👍']);
t('\\p{Emoji_Component}', 'u', ['#', '\u200d']);
t('\\p{Regional_Indicator}{2}', 'u', ['🇫🇷']);
t('\\p{Ideographic}', 'u', ['中']);
t('\\p{ID_Start}', 'u', ['a', '1', '_', '$']);
t('\\p{ID_Continue}+', 'u', ['a1_b$']);
t('\\p{XID_Start}', 'u', ['a']);
t('\\p{Math}', 'u', ['+', '∑']);
t('\\p{Dash}', 'u', ['-', '—']);
t('\\p{Quotation_Mark}', 'u', ['"', '«']);
t('\\p{Cased}', 'u', ['a', '1']);
t('\\p{Case_Ignorable}', 'u', ["'", '.', ':', '\u0301']);
t('\\p{Changes_When_Lowercased}', 'u', ['A', 'a']);
t('\\p{Changes_When_Uppercased}', 'u', ['a', 'A', 'ß']);
t('\\p{CWCF}', 'u', ['A', 'a', 'ß', 'µ']);
t('\\p{CWT}', 'u', ['a', 'ǆ']);
t('\\p{CWCM}', 'u', ['a', '1']);
t('\\p{CWKCF}', 'u', ['A', 'ﬁ', 'a']);
t('\\p{Default_Ignorable_Code_Point}', 'u', ['\u00ad', 'a']);
t('\\p{Grapheme_Extend}', 'u', ['\u0301']);
t('\\p{Grapheme_Base}', 'u', ['a', '\u0301']);
t('\\p{Bidi_Mirrored}', 'u', ['(', 'a']);
t('\\p{Bidi_M}', 'u', ['«']);
t('\\p{Diacritic}', 'u', ['^']);
t('\\p{Extender}', 'u', ['ー']);
t('\\p{Join_Control}', 'u', ['\u200d']);
t('\\p{Noncharacter_Code_Point}', 'u', ['\ufdd0']);
t('\\p{Pattern_Syntax}', 'u', ['!']);
t('\\p{Pattern_White_Space}', 'u', ['\u200e']);
t('\\p{Radical}', 'u', ['⺀']);
t('\\p{Sentence_Terminal}', 'u', ['.']);
t('\\p{Soft_Dotted}', 'u', ['i']);
t('\\p{Terminal_Punctuation}', 'u', [',']);
t('\\p{Unified_Ideograph}', 'u', ['中']);
t('\\p{Variation_Selector}', 'u', ['\ufe0f']);
t('\\p{Deprecated}', 'u', ['\u0149']);
t('\\p{Logical_Order_Exception}', 'u', ['\u0e40']);
t('\\p{IDS_Binary_Operator}', 'u', ['\u2ff0']);
t('\\p{Bidi_Control}', 'u', ['\u200e']);
t('[\\p{L}\\p{N}]+', 'u', ['!abc123!']);
t('[^\\p{L}]+', 'u', ['abc123!def']);
t('[\\P{L}]+', 'u', ['abc123!def']);
t('\\P{L}+', 'u', ['abc123!def']);
t('[\\p{Lu}--]', 'u', ['A']);
t('^\\p{Lu}\\p{Ll}+$', 'u', ['Hello', 'hello', 'Émile']);
t('\\p{L}', 'u', ['\u{1d400}', '\u{20000}']);
t('[\\p{Emoji}--\\p{ASCII}]', 'v', ['#', '😀']);

// ---------------------------------------------------------------- /v

t('[[a-z]--[aeiou]]+', 'v', ['education']);
t('[\\p{L}&&\\p{ASCII}]+', 'v', ['éabcé']);
t('[\\w--\\d]+', 'v', ['a1b2c3']);
t('[[abc][def]]+', 'v', ['xbdfx']);
t('[^[a-z][0-9]]+', 'v', ['abc!@#123']);
t('[\\q{abc|def}]', 'v', ['xdefx', 'abc']);
t('[\\q{abc|a}]', 'v', ['abc']);
t('[\\q{}]', 'v', ['', 'a']);
t('[\\q{abc|}x]', 'v', ['q', 'x']);
t('[\\q{abc}--\\q{abc}]', 'v', ['abc']);
t('[\\q{abc|de}&&\\q{de|f}]', 'v', ['abcde']);
t('[[\\q{abc}a]--a]', 'v', ['abc', 'a']);
t('^[\\q{😀|a}]$', 'v', ['😀', 'a']);
t('[a&&a]', 'v', ['a']);
t('[a--b--c]', 'v', ['a']);
t('[\\d&&[0-4]]+', 'v', ['56123']);
t('[[a-z]&&[^aeiou]]+', 'v', ['hello']);
t('[\\-]', 'v', ['-']);
t('[\\&\\!\\#]+', 'v', ['&!#']);
t('[a-c]', 'v', ['b']);
t('[^]', 'v', ['a']);
t('[]', 'v', ['a']);
t('[\\p{ASCII}--\\p{L}--\\p{N}]+', 'v', ['abc!@#123']);
t('.', 'v', ['😀']);
t('[😀-😂]', 'v', ['😁']);
t('\\p{L}', 'v', ['a']);
t('[\\p{sc=Grek}&&\\p{Ll}]+', 'v', ['ΑΒγδ']);

// ---------------------------------------------------------------- modifiers

t('(?i:a)b', '', ['Ab', 'AB']);
t('(?-i:a)b', 'i', ['aB', 'AB']);
t('(?i:(a))\\1', '', ['Aa', 'AA']);
t('(?i:(a)\\1)', '', ['Aa', 'aA']);
t('(?m:^a)', '', ['b\na']);
t('(?s:.)', '', ['\n']);
t('(?-s:.)', 's', ['\n']);
t('(?-m:^a)', 'm', ['b\na']);
t('(?i-s:a.)', 's', ['A\n', 'Ab']);
t('(?i:[a-c]+)', '', ['ABC']);
t('(?i:\\bk)', 'u', ['\u212a']);
t('x(?i:y)z', '', ['xYz', 'XYZ']);
t('(?i:a(?-i:b)c)', '', ['AbC', 'ABC']);
t('(?i:a)[b]', 'u', ['AB']);
t('(?i:a)\\w', 'u', ['A\u017f']);
t('(?i:a)\\p{Lu}', 'u', ['Aa']);
t('(?i:a)\\p{Lu}', 'v', ['Aa']);
t('(?i:(\u212a)\\1)', '', ['\u212ak', '\u212a\u212a']);
t('(?i:(\u212a)\\1)', 'u', ['\u212ak']);
t('(?i:(ß)\\1)', '', ['ßẞ']);
t('x(?i:(σ)\\1)', 'u', ['xσς']);
t('(?i:a)[a-z]', 'v', ['AB']);

// ---------------------------------------------------------------- empty iterations

t('(a*)*', '', ['b', 'aab']);
t('(a*)+', '', ['b']);
t('(a*?)*', '', ['aa']);
t('(?:a*)*b', '', ['aab']);
t('(?:|a)*', '', ['aaa']);
t('(|a)*', '', ['aaa']);
t('(?:a|)*', '', ['aaa']);
t('(a|)*b', '', ['aab']);
t('(?:(a)|b|)*', '', ['ab']);
t('(\\s*)*x', '', ['  x']);
t('(a?)*?b', '', ['ab']);
t('(?:a?)*?b', '', ['aab']);
t('(a?){2,}', '', ['a']);
t('((a)|b)*?c', '', ['abc']);
t('(?:(?=(a))a)*', '', ['aa']);
t('(\\b)*', '', ['a']);
t('(?<=(a*)*)b', '', ['aab', 'b']);
t('(?<=(?:(a)|b)+)c', '', ['abc', 'bac']);
t('(?<=(a|b)*)c', '', ['abc']);
t('(?<=(?:(a)|b){2,})c', '', ['abc', 'bac', 'c']);
t('(?<=(a*){2,}?)b', '', ['aab']);
t('(?<=(?:|a)*)b', '', ['aab']);
t('(?<=\\1(a)+)b', '', ['aaab']);
t('(?:(a)|(b)|c)*?d', '', ['abcd', 'cbad']);
t('(?:(?:(a)|b)+c)+', '', ['abcbc', 'acbbc']);
t('((a)|(b))+\\2\\3', '', ['abb', 'aba']);
t('(^)*', '', ['a']);
t('(?:^)*a', '', ['a']);

// ---------------------------------------------------------------- errors

err('', ['(', ')', 'a)', '(a', '((a)', '[', '[a', '[\\]', 'a{2,1}', '*', '+a', '?', 'a**', 'a++', 'a??+',
  '{1}', 'x{2}{3}', '^*', '$+', '\\b*', '(?<=a)*', '(?<!a)+', '(?', '(?x)', '(?i)', '(?<', '(?<a', '(?<a>',
  '(?<>a)', '(?<1a>x)', '(?<a-b>x)', '(?<a>x)(?<a>y)', '(?<a>(?<a>x))', '(?<a>x)|(?<a>y)(?<a>z)', '\\k<a>(?<b>x)',
  '(?<a>x)\\k<b>', '(?<a>x)\\k', '(?<a>x)\\k<', '(?<a>x)\\k<a', '[b-a]', '[\\d-a]x', '[z-a]', '\\', 'a\\',
  '[\\', '(?ii:a)', '(?i-i:a)', '(?-:a)', '(?i-m-s:a)', '(?-i', '(?i=a)', '(?i!a)', '(?i<a>)', '(?x:a)',
  '(?<=a', 'a{2,1', '[a-\\d]', '(?<a\\u0062>x)', '(?<\\u{}>x)', '(?<a\\uXYZW>x)', '(?:a', '())', 'x{99999999999,1}',
  '(?<a>x)[\\k<a>]', '(?<a>)\\k<a>\\k']);
err('u', ['\\1', '\\2(a)', '\\8', '\\01', '[\\1]', '[\\01]', '[\\8]', '\\c', '\\c1', '[\\c1]', '\\a', '\\-',
  '\\x4', '\\u004', '\\u{110000}', '\\u{}', '\\u{1F600', '\\k', '\\k<a>', '(?<a>x)\\k<b>', '{', '}', ']',
  'a{', 'a{1', 'a{1,', 'a{,1}', '(?=a)*', '(?!a)+', '[\\d-a]', '[a-\\d]', '\\p', '\\p{', '\\p{L', '\\p{Foo}',
  '\\p{l}', '\\p{letter}', '\\p{Script=Foo}', '\\p{Script}', '\\p{sc=}', '\\p{=Latin}', '\\p{Block=Basic_Latin}',
  '\\p{Hyphen}', '[\\p{Foo}]', '\\P{Foo}', '\\p{RGI_Emoji}', '\\p{Lu=x}', '\\p{General_Category}',
  '\\p{ gc=L}', '\\p{L }', '\\p{Alphabetic=Y}', '\\u{D800}\\u{DC00}x\\', '\\q', '[\\q{a}]', '\\ ', '\\_', '\\z']);
err('v', ['[a-z&&b]', '[a&&&b]', '[a--&&b]', '[a&&b--c]', '[a--b&&c]', '[(]', '[)]', '[{]', '[}]', '[/]', '[|]',
  '[-]', '[a-]', '[a-b-c]', '[\\w-a]', '[a-\\w]', '[a&&]', '[&&a]', '[!!]', '[##]', '[a**]', '[^\\q{ab}]',
  '[^\\p{RGI_Emoji}]', '\\P{RGI_Emoji}', '[^[\\q{ab}]]', '[^\\q{ab}--a]', '[^\\q{a}]', '[\\q{a]', '[\\q{a|b]',
  '[\\q{[}]', '[a', '[[a]', '[a--]', '[--a]', '[z-a]', '[\\q{ab}-c]', '[\\p{L}--\\q{ab}', '[\\!]', '[\\(]',
  '\\-', '[\\z]', '[a&&&]', '[[a]&&[b]--[c]]', '[[a]--[b]&&[c]]', '[&]', '[a-&]']);
t('[a&b]', 'u', ['&']);
t('[--]', 'u', ['-']);
t('[&&]', 'u', ['&']);

// ---------------------------------------------------------------- realistic patterns

const emails = ['john.doe@example.com', 'Contact: jane_smith+tag@mail.co.uk!', 'not an email', 'a@b', 'x@y.z',
  'user@sub.domain.org and admin@site.io'];
t('[\\w.+-]+@[\\w-]+\\.[\\w.-]+', '', emails);
t('^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', '', emails);
t('^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$', '', emails);
g('\\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}\\b', 'g', emails);
g('(?<user>[\\w.]+)@(?<domain>[\\w.]+)', 'g', emails);

const urls = ['https://example.com/path?q=1#frag', 'visit http://foo.bar:8080/a/b.html now', 'ftp://x.org',
  'www.example.com', 'https://sub.domain.co.uk/~user/index.php?a=1&b=2', 'no url here'];
t('https?:\\/\\/[^\\s/$.?#].[^\\s]*', 'i', urls);
t('^(https?):\\/\\/([^/:]+)(?::(\\d+))?(\\/[^?#]*)?(?:\\?([^#]*))?(?:#(.*))?$', '', urls);
g('https?://[\\w.-]+(?::\\d+)?(?:/[\\w./~%-]*)?(?:\\?[\\w=&%-]*)?', 'g', urls);
t('(?<scheme>[a-z]+)://(?<host>[^/:]+)(?::(?<port>\\d+))?', '', urls);

const dates = ['2024-01-15', '2024-1-5', '15/01/2024', '01/15/2024', 'Date: 1999-12-31T23:59:59Z', '2024-13-45',
  'Jan 5, 2024', '5 January 2024'];
t('^\\d{4}-\\d{2}-\\d{2}$', '', dates);
t('(\\d{4})-(\\d{1,2})-(\\d{1,2})', '', dates);
t('(\\d{1,2})\\/(\\d{1,2})\\/(\\d{4})', '', dates);
t('^(\\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', '', dates);
t('(?<month>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* (?<day>\\d{1,2}),? (?<year>\\d{4})', 'i', dates);
t('(\\d{1,2}) (January|February|March|April|May|June|July|August|September|October|November|December) (\\d{4})', '', dates);

const isos = ['2024-03-15T10:30:00Z', '2024-03-15T10:30:00.123+05:30', '2024-03-15 10:30', 'T10:30', '2024-03-15T10:30:00.5-08:00'];
t('^(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d+))?(Z|[+-]\\d{2}:\\d{2})?$', '', isos);
t('\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(?::\\d\\d(?:\\.\\d{1,9})?)?(?:Z|[+-]\\d\\d:?\\d\\d)?', '', isos);
t('(?<date>\\d{4}-\\d{2}-\\d{2})[T ](?<time>\\d{2}:\\d{2}(?::\\d{2})?)', '', isos);

const csv = ['a,b,c', 'a,"b,c",d', '"x ""quoted"" y",2,', ',,', 'one', '"unterminated,x'];
g('(?:^|,)("(?:[^"]|"")*"|[^,]*)', 'g', csv);
g('("([^"]|"")*"|[^,]*)(,|$)', 'g', csv);
g('\\s*,\\s*', 'g', ['a , b,c ,d']);
g('[^,]+', 'g', csv);
g(',(?=(?:[^"]*"[^"]*")*[^"]*$)', 'g', csv);

const logs = ['2024-01-15 10:30:45 ERROR [main] Failed to connect: timeout',
  '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326',
  '[WARN] 2024-01-15T10:30:45Z disk usage at 91%', 'INFO user=alice action=login ip=10.0.0.1',
  'Jan 15 10:30:45 host sshd[1234]: Accepted password for root'];
t('^(\\S+) (\\S+) (ERROR|WARN|INFO|DEBUG) \\[(\\w+)\\] (.*)$', '', logs);
t('^(\\S+) \\S+ \\S+ \\[([^\\]]+)\\] "(\\w+) (\\S+) (\\S+)" (\\d{3}) (\\d+|-)$', '', logs);
t('\\b(ERROR|WARN(?:ING)?|INFO|DEBUG)\\b', 'i', logs);
g('(\\w+)=(\\S+)', 'g', logs);
t('(?<month>\\w{3}) (?<day>\\d+) (?<time>[\\d:]+) (?<host>\\S+) (?<proc>\\w+)\\[(?<pid>\\d+)\\]: (?<msg>.*)', '', logs);
g('\\b(?:\\d{1,3}\\.){3}\\d{1,3}\\b', 'g', logs);

const md = ['See [the docs](https://example.com/docs) and [home](/).', '![alt text](img.png "Title")',
  '[broken](link', '[a](b) [c](d)', '**bold** and *italic* and `code`', '# Heading\n## Sub\ntext'];
g('\\[([^\\]]+)\\]\\(([^)]+)\\)', 'g', md);
g('!?\\[([^\\]]*)\\]\\(([^)\\s]+)(?:\\s+"([^"]*)")?\\)', 'g', md);
g('\\*\\*(.+?)\\*\\*', 'g', md);
g('(?<!\\*)\\*([^*]+)\\*(?!\\*)', 'g', md);
g('`([^`]+)`', 'g', md);
g('^(#{1,6})\\s+(.+)$', 'gm', md);

const misc = ['+1 (555) 123-4567', '555.123.4567', '#ff00AA', '#abc', 'rgb(255, 0, 128)', 'v1.2.3-beta.1+build.5',
  '192.168.1.1', '999.1.1.1', 'camelCaseString', 'snake_case_here', '  padded  ', '<div class="x">hi</div>',
  '{"key": "value", "n": 42}', 'The quick brown fox', 'foo123bar456', 'C:\\Users\\name\\file.txt', 'tab\tsep\tvalues',
  'a\r\nb\nc\rd', 'ÜBER straße', 'naïve café', 'price: $1,234.56', '100%', 'user-name_01', 'hello😀world'];
t('^\\+?\\d{1,2}?[\\s.-]?\\(?\\d{3}\\)?[\\s.-]?\\d{3}[\\s.-]?\\d{4}$', '', misc);
t('^#(?:[0-9a-fA-F]{3}){1,2}$', '', misc);
t('rgb\\(\\s*(\\d{1,3})\\s*,\\s*(\\d{1,3})\\s*,\\s*(\\d{1,3})\\s*\\)', '', misc);
t('^v?(\\d+)\\.(\\d+)\\.(\\d+)(?:-([\\w.-]+))?(?:\\+([\\w.-]+))?$', '', misc);
t('^(?:(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)$', '', misc);
g('[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\\d+', 'g', misc.slice(8, 10));
g('(?<=[a-z])(?=[A-Z])', 'g', ['camelCaseString']);
t('^\\s+|\\s+$', 'g', misc);
g('^\\s+|\\s+$', 'g', ['  padded  ']);
g('<(\\/?)(\\w+)([^>]*)>', 'g', misc);
g('"(\\w+)":\\s*("[^"]*"|\\d+)', 'g', misc);
g('\\b\\w', 'g', ['The quick brown fox']);
g('\\d+', 'g', misc);
g('\\\\', 'g', ['C:\\Users\\name\\file.txt']);
g('\\r\\n|\\r|\\n', 'g', ['a\r\nb\nc\rd']);
g('\\t', 'g', ['tab\tsep\tvalues']);
g('[^\\x00-\\x7F]', 'g', ['ÜBER straße', 'naïve café']);
g('[\\u00C0-\\u024F]+', 'g', ['naïve café']);
g('\\p{L}+', 'gu', ['naïve café ÜBER straße', 'hello😀world']);
g('\\p{Extended_Pictographic}', 'gu', ['hello😀world 🎉']);
g('[\\p{Emoji_Presentation}]', 'gu', ['a😀b']);
t('\\$([\\d,]+(?:\\.\\d{2})?)', '', misc);
t('^[\\w-]+$', '', misc);
g('(\\d)(?=(\\d{3})+(?!\\d))', 'g', ['1234567', '1000']);
g('\\B(?=(\\d{3})+(?!\\d))', 'g', ['1234567']);
g('(?:^|\\s)(#\\w+)', 'g', ['#tag1 text #tag2 #3']);
g('@(\\w+)', 'g', ['hi @alice and @bob!']);
g('\\s+', 'g', ['a  b\t\tc\n d']);
g('[.!?]+', 'g', ['Hi! How are you? Fine...']);
g('(?:^|[.!?]\\s+)([a-z])', 'g', ['hello. world! ok? yes']);
g('\\{\\{\\s*(\\w+)\\s*\\}\\}', 'g', ['Hello {{ name }}, you are {{age}}.']);
g('\\$\\{([^}]+)\\}', 'g', ['${a} and ${b.c}']);
g('(?<key>[^&=?]+)=(?<value>[^&]*)', 'g', ['?a=1&b=two&c=&d=x%20y']);
t('^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*[^\\w\\s]).{8,}$', '', ['Passw0rd!', 'password', 'PASSWORD1!', 'Sh0rt!']);
t('^[A-Z][a-z]+(?: [A-Z][a-z]+)*$', '', ['John Smith', 'john smith', 'Mary Jane Watson']);
t('^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$', 'i', ['123e4567-e89b-12d3-a456-426614174000', 'not-a-uuid']);
t('^(?:\\d{3}-){2}\\d{4}$', '', ['555-123-4567', '5551234567']);
t('^\\d{5}(?:-\\d{4})?$', '', ['12345', '12345-6789', '1234']);
t('^(?:[01]\\d|2[0-3]):[0-5]\\d$', '', ['23:59', '24:00', '09:05']);
t('^-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?$', '', ['-1.5e10', '3', '.5', '1e', '42.']);
t('^(\\w+)\\s*\\(([^)]*)\\)\\s*\\{', 'm', ['function foo(a, b) {\n}', 'if (x) {']);
t('(?:function\\s+(\\w+)|const\\s+(\\w+)\\s*=\\s*(?:async\\s*)?\\()', '', ['const handler = async (req) =>', 'function main() {}']);
t('^import\\s+(?:(\\w+)|\\{([^}]*)\\})\\s+from\\s+[\'"]([^\'"]+)[\'"];?$', 'm', ["import React from 'react';", 'import { a, b } from "./x"']);
g('\\/\\/.*$|\\/\\*[\\s\\S]*?\\*\\/', 'gm', ['a // c1\nb /* c2\nc3 */ d']);
t('^\\s*$', '', ['', '   ', ' x ']);
t('^(.*?)\\s*$', '', ['text   ']);
g('(\\w+)\\s*:\\s*([^;]+);?', 'g', ['color: red; margin : 0 auto;']);
g('[A-Z]{2,}', 'g', ['The NASA and ESA teams']);
g('\\b(\\w+)\\s+\\1\\b', 'gi', ['the the cat sat on on the mat', 'Is is this']);
t('^(?:(?!foo).)*$', '', ['bar baz', 'bar foo baz']);
t('^(?!.*password).*$', 'i', ['my PASSWORD', 'ok']);
g('(?<=\\s|^)\\w+(?=\\s|$)', 'g', ['one two three']);
t('([a-z]+)(\\d+)?', 'g', ['abc123']);
t('(?:\\r?\\n){2,}', '', ['para1\n\npara2', 'a\r\n\r\nb', 'a\nb']);

// ---------------------------------------------------------------- random differential cases

let seed = Number(process.env.JSREGEX_SEED || 0x2545f491);
function rnd() {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = seed;
  x = Math.imul(x ^ (x >>> 15), x | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rnd() * a.length)];
const atoms = ['a', 'b', 'c', '.', '\\d', '\\w', '\\s', '[ab]', '[^a]', '[a-c]', 'x', 'A', '\\b', '^', '$',
  '\\.', '-', ' ', '1', 'é', '😀', '\\B', '[\\w-]', '[^\\s]', 'K', 'k', '\\u212a', 'ſ', 's', 'S', '[A-Z]',
  '\\W', '\\D', '[^]', '\\n', '(?:)', 'É'];
function randPattern(depth, groups, uni) {
  const n = 1 + Math.floor(rnd() * 4);
  let s = '';
  for (let i = 0; i < n; i++) {
    const r = rnd();
    let a;
    if (depth < 3 && r < 0.25) {
      const kind = pick(['(', '(', '(?:', '(?=', '(?!', '(?<=', '(?<!', '(?<n' + groups.length + '>', '(?i:', '(?-i:', '(?m:']);
      if (kind === '(' || kind.startsWith('(?<n')) groups.push(kind.startsWith('(?<n') ? 'n' + groups.length : '');
      a = kind + randPattern(depth + 1, groups, uni) + (rnd() < 0.3 ? '|' + randPattern(depth + 1, groups, uni) : '') + ')';
    } else if (r < 0.3 && groups.length) {
      const k = Math.floor(rnd() * groups.length);
      a = groups[k] && rnd() < 0.5 ? '\\k<' + groups[k] + '>' : '\\' + (1 + k);
    } else if (uni && r < 0.35) {
      a = pick(['\\p{L}', '\\p{Lu}', '\\P{Ll}', '[\\p{N}a]', '\\p{sc=Latin}', '\\u{1F600}']);
    } else {
      a = pick(atoms);
    }
    if (!['^', '$', '\\b', '\\B'].includes(a) && !a.startsWith('(?<=') && !a.startsWith('(?<!') && rnd() < 0.35) {
      a += pick(['*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?', '??', '{0,2}?', '{2,}']);
    }
    s += a;
  }
  return s;
}
const alphabet = ['a', 'b', 'c', 'x', 'A', 'B', '1', '2', ' ', '.', '-', '\n', 'é', '😀', 'K', '\u212a', 'ſ', 's',
  'S', 'É', '\ud83d', '_'];
const explore = Number(process.env.JSREGEX_EXPLORE || 0);
if (explore) out.length = 0;
for (let k = 0; k < (explore || 600); k++) {
  const f = pick(process.env.JSREGEX_FLAGS ? process.env.JSREGEX_FLAGS.split(',')
    : ['', '', 'i', 'm', 's', 'u', 'iu', 'y', 'g', 'v', 'iv', 'ims', 'gu', 'yi']);
  const p = randPattern(0, [], f.includes('u') || f.includes('v'));
  const len = Math.floor(rnd() * Number(process.env.JSREGEX_LEN || 8));
  let s = '';
  for (let j = 0; j < len; j++) s += pick(alphabet);
  const li = f.includes('y') || f.includes('g') ? Math.floor(rnd() * (s.length + 1)) : 0;
  exec(p, f, s, li);
}
if (explore) {
  fs.writeFileSync(process.env.JSREGEX_OUT || '/tmp/explore.jsonl', out.map((o) => JSON.stringify(o)).join('\n') + '\n');
  console.error(`${out.length} explore cases`);
  process.exit(0);
}

fs.writeFileSync(path.join(__dirname, 'cases.jsonl'), out.map((o) => JSON.stringify(o)).join('\n') + '\n');

// canon.jsonl: Canonicalize without /u (the spec's toUppercase rule) for
// every code unit it changes, as [c, canon(c)].
const canon = [];
for (let c = 0; c < 0x10000; c++) {
  const u = String.fromCharCode(c).toUpperCase();
  if (u.length !== 1) continue;
  const v = u.charCodeAt(0);
  if (v === c || (c >= 128 && v < 128)) continue;
  canon.push(JSON.stringify([c, v]));
}
fs.writeFileSync(path.join(__dirname, 'canon.jsonl'), canon.join('\n') + '\n');
console.error(`${out.length} cases, ${out.filter((o) => o.e).length} errors`);
