package ast

import (
	"fmt"
	"strings"
	"testing"
)

// compileProgram is a copy of bench.CompileProgram (the bench module
// imports ast, so ast cannot import it): numbered copies of realistic code
// up to about size bytes.
func compileProgram(size int) string {
	var b strings.Builder
	n := 0
	for b.Len() < size {
		fmt.Fprintf(&b, compileChunk, n)
		n++
	}
	fmt.Fprintf(&b, "%d;\n", n)
	return b.String()
}

// compileChunk is one copy of compileProgram's code; %[1]d numbers it.
const compileChunk = `function summarize%[1]d(orders, opts) {
  const { currency = "USD", minTotal = 0 } = opts || {};
  const byCustomer = {};
  let grand = 0;
  for (let i = 0; i < orders.length; i++) {
    const o = orders[i];
    if (!o || o.total < minTotal) continue;
    const key = o.customer.id + ":" + o.customer.region;
    if (!byCustomer[key]) byCustomer[key] = { count: 0, total: 0, items: [] };
    byCustomer[key].count++;
    byCustomer[key].total += o.total;
    for (const item of o.items) {
      byCustomer[key].items.push({ sku: item.sku, qty: item.qty * (item.unit === "box" ? 12 : 1) });
    }
    grand += o.total;
  }
  const rows = Object.keys(byCustomer).map((k) => {
    const c = byCustomer[k];
    return ` + "`" + `${k}: ${c.count} orders, ${c.total.toFixed(2)} ${currency}` + "`" + `;
  });
  return { rows, grand, average: rows.length ? grand / rows.length : 0 };
}
function retry%[1]d(fn, attempts) {
  let last = null;
  for (let a = 0; a < attempts; a++) {
    try {
      return fn(a);
    } catch (e) {
      last = e;
      if (e && e.fatal) break;
    }
  }
  throw new Error("failed after " + attempts + " attempts: " + (last && last.message));
}
function index%[1]d(list, field) {
  const out = new Map();
  list.filter((x) => x[field] !== undefined).forEach((x) => {
    const bucket = out.get(x[field]) || [];
    bucket.push(x);
    out.set(x[field], bucket);
  });
  return [...out.entries()].sort((a, b) => b[1].length - a[1].length).slice(0, 10);
}
`

// BenchmarkParseCompileProgram parses the bench module's compile_100kb
// program, the yardstick of the front end's speed.
func BenchmarkParseCompileProgram(b *testing.B) {
	benchmarkParse(b, compileProgram(100_000))
}
