package ast

import "testing"

// Comparisons that look like type arguments stay comparisons: the fuzzer
// found 0<0&0>(0) read as a call of 0.
func TestComparisonsNotTypeArgs(t *testing.T) {
	for _, src := range []string{`(0<0&0>(0))`, `a<0&b>(c)`, `a<1|2>(3)`, `x.y<z.w>(v)`, `"s"<t>(u)`, `[1]<a>(b)`, `i<n, m>(0)`} {
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
