// Generates jsonstringify.tsv: for each JSON text and indent, what
// JSON.stringify(JSON.parse(text), null, indent) gives in V8. Every field
// is a JSON string. Run with node: node gen_jsonstringify.js > jsonstringify.tsv
const texts = [
  "null", "true", "false", "0", "-0", "1.5", "1e21", "1e-7", "123456789", "0.1", "1e400",
  "\"\"", "\"abc\"", "\"\\u0000\\u001f\\u007f\"", "\"\\b\\f\\n\\r\\t\\\"\\\\/\"", "\"\\ud800\"", "\"\\udc00x\\ud83d\\ude00\"",
  "\"é😀\\u2028\\u2029\"", "[]", "{}", "[1,[2,[3,[]]],{}]", "{\"a\":1,\"b\":[true,null],\"c\":{\"d\":\"e\"}}",
  "{\"2\":1,\"1\":2,\"b\":3,\"a\":4}", "{\"__proto__\":{\"x\":1}}", "[{\"a\":[{\"b\":{}}]},[]]",
  "{\"k\\\"ey\":\"v\\nal\",\"\":\"\"}", "[1e400,-1e400]",
];
const indents = ["", "  ", "\t", "--", "          "];
for (const t of texts) for (const ind of indents) {
  console.log([t, ind, JSON.stringify(JSON.parse(t), null, ind)].map((s) => JSON.stringify(s)).join("\t"));
}
