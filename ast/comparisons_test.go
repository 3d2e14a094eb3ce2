package ast

import "testing"

// Comparisons that look like type arguments stay comparisons: the fuzzer
// found 0<0&0>(0) read as a call of 0.
func TestComparisonsNotTypeArgs(t *testing.T) {
	for _, src := range []string{`(0<0&0>(0))`, `a<0&b>(c)`, `a<1|2>(3)`, `x.y<z.w>(v)`, `"s"<t>(u)`, `[1]<a>(b)`, `i<n, m>(0)`, `if(A<0[0]>(0)){}`} {
		js, err := ParseWith(src, Options{NoTypeScript: true})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		ts, err := ParseWith(src, Options{})
		if err != nil {
			t.Fatalf("%s with erasure: %v", src, err)
		}
		if a, b := Print(js), Print(ts); a != b {
			t.Errorf("%s: erasure changed it:\n JS %s\n TS %s", src, a, b)
		}
	}
}

// An overload signature needs its implementation right after it.
func TestOverloadNeedsImplementation(t *testing.T) {
	for src, want := range map[string]string{
		"function f(x: string): void;\nfunction f(x) { return x }\nf(1)":               "",
		"function f(x: string): void;\nfunction f(x: number): void;\nfunction f(x) {}": "",
		"declare function g(): void; g()":                                              "",
		"function A(){}function A()":                                                   "Function implementation is missing or not immediately following the declaration: an overload signature of A needs `function A(...) { ... }` right after it. (line 1, col 15)",
		"function f(): void;\nconst x = 1":                                             "Function implementation is missing or not immediately following the declaration: an overload signature of f needs `function f(...) { ... }` right after it. (line 1, col 1)",
	} {
		_, err := Parse(src)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%q: %q, want %q", src, got, want)
		}
	}
}
