package numeric

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

func numv(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case string:
		switch x {
		case "NaN":
			return math.NaN()
		case "Infinity":
			return math.Inf(1)
		case "-Infinity":
			return math.Inf(-1)
		case "-0":
			return math.Copysign(0, -1)
		}
	}
	panic(v)
}

func TestZZCompareNode(t *testing.T) {
	b, err := os.ReadFile("/tmp/mcmp/data.json")
	if err != nil {
		t.Skip()
	}
	var d struct {
		Inputs []any
		Res    map[string][]any
		Pow    [][]any
		Atan2  [][]any
	}
	json.Unmarshal(b, &d)
	fs := map[string]func(float64) float64{"acos": acos, "acosh": acosh, "asin": asin, "asinh": asinh, "atan": atan, "atanh": atanh, "cbrt": cbrt, "cos": cos, "cosh": cosh, "exp": exp, "expm1": expm1, "log": log, "log1p": log1p, "log2": log2, "log10": log10, "sin": sin, "sinh": sinh, "tan": tan, "tanh": tanh, "sqrt": math.Sqrt}
	for name, f := range fs {
		bad := 0
		ex := ""
		for i, in := range d.Inputs {
			x := numv(in)
			w := numv(d.Res[name][i])
			g := f(x)
			if !(g == w && math.Signbit(g) == math.Signbit(w) || g != g && w != w) {
				bad++
				if ex == "" {
					ex = fmtf(x, g, w)
				}
			}
		}
		t.Log(name, bad, len(d.Inputs), ex)
	}
	bad := 0
	for _, p := range d.Pow {
		if g := Pow(numv(p[0]), numv(p[1])); g != numv(p[2]) {
			bad++
			t.Log(ftoa(numv(p[0])), ftoa(numv(p[1])), ftoa(g), ftoa(numv(p[2])))
		}
	}
	t.Log("pow", bad, len(d.Pow))
	bad = 0
	for _, p := range d.Atan2 {
		if g, w := atan2(numv(p[0]), numv(p[1])), numv(p[2]); !(g == w && math.Signbit(g) == math.Signbit(w) || g != g && w != w) {
			bad++
			t.Log("atan2", ftoa(numv(p[0])), ftoa(numv(p[1])), ftoa(g), ftoa(w))
		}
	}
	t.Log("atan2", bad, len(d.Atan2))
}

func fmtf(x, g, w float64) string {
	return "x=" + ftoa(x) + " got=" + ftoa(g) + " want=" + ftoa(w)
}

func ftoa(f float64) string { b, _ := json.Marshal(f); return string(b) }
