package interp_test

import (
	"context"
	"testing"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/builtin"
	"github.com/go-codemode/codemode/interp"
	"github.com/go-codemode/codemode/value"
)

// run parses, compiles and runs src with the core library, returning the
// settled value or the failure.
func run(t testing.TB, lib *value.Library, src string) (value.Value, *interp.Failure) {
	prog, err := ast.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	code, err := interp.Compile(prog)
	if err != nil {
		t.Fatal(err)
	}
	r := interp.NewRun(context.Background(), code, interp.Options{Library: lib})
	defer r.Close()
	v, p, fail := r.Start()
	if fail == nil && p != nil {
		fail = r.Settle(p)
	}
	if fail != nil {
		return value.Undefined, fail
	}
	if p != nil {
		return p.Internal.(*value.PromiseData).Result, nil
	}
	return v, nil
}

func BenchmarkTrivial(b *testing.B) {
	lib := builtin.New()
	b.ReportAllocs()
	for b.Loop() {
		v, fail := run(b, lib, "1 + 1")
		if fail != nil || v.Num() != 2 {
			b.Fatal(fail)
		}
	}
}

func BenchmarkFib(b *testing.B) {
	lib := builtin.New()
	b.ReportAllocs()
	for b.Loop() {
		v, fail := run(b, lib, "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } fib(20)")
		if fail != nil || v.Num() != 6765 {
			b.Fatal(fail)
		}
	}
}

func BenchmarkStringTemplate(b *testing.B) {
	lib := builtin.New()
	b.ReportAllocs()
	for b.Loop() {
		if _, fail := run(b, lib, "let s = ''; for (let i = 0; i < 100000; i++) { s += `<${i}:${i % 10}>`; } s.length"); fail != nil {
			b.Fatal(fail)
		}
	}
}

// BenchmarkMemberUpdate: compound assignment and ++ on computed members,
// and array destructuring assignment (a swap), the reference paths.
func BenchmarkMemberUpdate(b *testing.B) {
	lib := builtin.New()
	b.ReportAllocs()
	src := `const a = [], o = {n: 0}; let x = 1, y = 2;
for (let i = 0; i < 100; i++) a[i] = 0;
for (let i = 0; i < 20000; i++) { a[i % 100] += i; a[i % 7]++; o.n += 1; [x, y] = [y, x]; }
a[0] + o.n + x`
	for b.Loop() {
		if v, fail := run(b, lib, src); fail != nil || v.Num() != 2012859 {
			b.Fatal(fail, v)
		}
	}
}

// BenchmarkArguments: calls of a function that reads its arguments object.
func BenchmarkArguments(b *testing.B) {
	lib := builtin.New()
	b.ReportAllocs()
	src := `function f() { return arguments.length + arguments[0] }
let t = 0; for (let i = 0; i < 20000; i++) t += f(1, 2); t`
	for b.Loop() {
		if v, fail := run(b, lib, src); fail != nil || v.Num() != 60000 {
			b.Fatal(fail, v)
		}
	}
}
