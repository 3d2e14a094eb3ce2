package array_test

import (
	"context"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
)

// Benchmarks of the array methods through the whole runtime, for
// comparing with other engines (the programs avoid every other library
// area).
var benchPrograms = []struct{ name, code string }{
	{"push", `const a = []; for (let i = 0; i < 100000; i++) a.push(i); a.length`},
	{"map_filter_reduce", `const a = []; for (let i = 0; i < 100000; i++) a.push(i); a.map((x) => x * 2).filter((x) => x % 3 === 0).reduce((s, x) => s + x, 0)`},
	{"sort_comparator", `const a = []; let x = 1; for (let i = 0; i < 20000; i++) { x = (x * 1103515245 + 12345) % 2147483648; a.push(x); } a.sort((p, q) => p - q); a[0]`},
	{"sort_default", `const a = []; let x = 1; for (let i = 0; i < 20000; i++) { x = (x * 1103515245 + 12345) % 2147483648; a.push("k" + x); } a.sort(); a[0]`},
	{"join", `const a = []; for (let i = 0; i < 100000; i++) a.push(i); a.join(",").length`},
	{"search", `const a = []; for (let i = 0; i < 1000; i++) a.push(i); let s = 0; for (let i = 0; i < 1000; i++) s += a.indexOf(i) + (a.includes(i) ? 1 : 0); s`},
	{"slice_concat", `const a = []; for (let i = 0; i < 1000; i++) a.push(i); let s = 0; for (let i = 0; i < 1000; i++) s += a.slice(i).length + a.concat([1]).length; s`},
	{"fill", `new Array(1000000).fill(0).length`},
}

func BenchmarkArray(b *testing.B) {
	rt, err := codemode.New(codemode.Options{Limits: codemode.Limits{Timeout: time.Minute}})
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range benchPrograms {
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				if res := rt.Execute(context.Background(), p.code); !res.OK {
					b.Fatal(res.String())
				}
			}
		})
	}
}
