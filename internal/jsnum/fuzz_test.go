package jsnum

import (
	"math"
	"strconv"
	"testing"
)

// FuzzFormat checks properties that must hold for every double: Format
// round-trips through strconv.ParseFloat (after mapping the JS spellings of
// the infinities), radix 10 of the V8 radix algorithm agrees with Format on
// safe integers, and none of the formatting functions panic.
func FuzzFormat(f *testing.F) {
	for _, x := range []float64{0, 1, -1, 0.1, 1e21, 1e-7, 123e-20, 255.5, math.MaxFloat64,
		math.SmallestNonzeroFloat64, 1 << 53, -(1 << 60), 1.005, math.Inf(1), math.NaN()} {
		f.Add(math.Float64bits(x), 16)
	}
	f.Fuzz(func(t *testing.T, bits uint64, radix int) {
		x := math.Float64frombits(bits)
		s := Format(x)
		switch s {
		case "Infinity", "-Infinity", "NaN":
			if !math.IsInf(x, 0) && x == x {
				t.Fatalf("Format(%v) = %q", x, s)
			}
		default:
			back, err := strconv.ParseFloat(s, 64)
			if err != nil || back != x {
				t.Fatalf("Format(%v) = %q does not round-trip (%v, %v)", x, s, back, err)
			}
		}
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 && x != 0 {
			if r := doubleToRadix(x, 10); r != s {
				t.Fatalf("doubleToRadix(%v, 10) = %q, Format = %q", x, r, s)
			}
		}
		radix = 2 + int(uint(radix)%35)
		if r := FormatRadix(x, radix); r == "" {
			t.Fatalf("FormatRadix(%v, %d) is empty", x, radix)
		}
		d := int(bits % 101)
		ToFixed(x, d)
		ToPrecision(x, d+1)
		ToExponential(x, d, bits&1 == 0)
		if p := Parse(s); !same(p, x) && !(x == 0 && p == 0) {
			t.Fatalf("Parse(Format(%v)) = %v", x, p)
		}
	})
}
