// Generates jsonparse.tsv: JSON.parse inputs and what V8 (node) gives for
// each, "ok<TAB>JSON.stringify(JSON.stringify(result))" or
// "error<TAB>JSON.stringify(message)": every field is a JSON string.
// Run with node >= 22: node gen_jsonparse.js > jsonparse.tsv
const inputs = [
  "", " ", "{", "}", "[", "]", "[1,]", "{\"a\":}", "{\"a\" 1}", "[1 2]", "tru", "nul", "trux", "[tx]", "nulL",
  "01", "1.", "-", "-a", "\"abc", "\"a\\x\"", "\"\t\"", "{a:1}", "[1]x", "1e", "1e+", "\"\\u12\"", "\"\\u12G4\"",
  "{\"a\":1,}", "{\"a\":1 \"b\":2}", "{\"a\":1,\"b\"}", "[1,\n2,\n]", "true false", "\"\\\"", "\u00a0[]", "[NaN]",
  "[-01]", "[.5]", "[+1]", "[0x1]", "[\"a\nb\"]", "[Infinity]", "{\"a\":1}\n\n x", "[\"😀😀😀😀😀😀😀😀\", x, 1,1,1,1,1,1,1,1,1]",
  "[\"😀\", x]", "[1,1,1,1,1,1,1,1,1,}", "[1,1,1,1,1,1,1,1,1,}]", "}" + " ".repeat(50),
  "{\"a\":11111,\"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\": x, \"cccccccccccccccccccccccccccccccccccccccc\": 2}",
  "null", "true", "false", "0", "-0", "1", "-1", "1.5", "1e3", "1E-3", "-1.25e+2", "1e400", "-1e400", "123456789012345678901234567890",
  "0.1", "5e-324", "2.5e-324", "\"\"", "\"abc\"", "\"a\\\"b\"", "\"\\\\/\\/\"", "\"\\b\\f\\n\\r\\t\"", "\"\\u0041\\u00e9\"",
  "\"\\uD83D\\uDE00\"", "\"\\uD800\"", "\"\\uDC00\\uD800\"", "\"é😀\"", "\"\u2028\u2029\"",
  "[]", "[ ]", "{}", "{ }", "[1,2,3]", "[[[]]]", "[{\"a\":[{}]}]", " \t\n\r[1] \t\n\r",
  "{\"a\":1,\"a\":2,\"b\":3,\"a\":4}", "{\"__proto__\":1}", "{\"2\":\"b\",\"1\":\"a\",\"x\":0,\"10\":\"c\"}",
  "{\"\":1}", "{\"a\":{\"b\":{\"c\":null}}}", "[true,false,null,\"x\",1.5,{\"k\":[]}]",
  "\"\\u0000\"", "[1,2", "{\"a\":1", "{\"a\"", "{\"a\":", "[\"x\"", "\"\\u", "\"\\", "[-]", "[1.e5]", "[1e5.0]",
];
for (const s of inputs) {
  let out;
  try { out = "ok\t" + JSON.stringify(JSON.stringify(JSON.parse(s))); } catch (e) { out = "error\t" + JSON.stringify(e.message); }
  console.log(JSON.stringify(s) + "\t" + out);
}
