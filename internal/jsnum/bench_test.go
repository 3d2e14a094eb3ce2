package jsnum

import "testing"

var sink string

func benchFormat(b *testing.B, values []float64) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink = Format(values[i%len(values)])
	}
}

func BenchmarkFormat(b *testing.B) {
	b.Run("integers", func(b *testing.B) {
		benchFormat(b, []float64{0, 7, 42, -1234, 65536, 9007199254740991, 1e20})
	})
	b.Run("short-decimals", func(b *testing.B) {
		benchFormat(b, []float64{0.5, 1.25, -3.75, 123.456, 0.001, 1e-7})
	})
	b.Run("long-decimals", func(b *testing.B) {
		benchFormat(b, []float64{0.30000000000000004, 1.0 / 3, 3.141592653589793, 2.718281828459045e-200, 1.7976931348623157e308})
	})
}

func BenchmarkFormatRadix(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sink = FormatRadix(123.456, 16)
	}
}

func BenchmarkToFixed(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sink, _ = ToFixed(1.005, 2)
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	var f float64
	for b.Loop() {
		f += Parse("  123.456e-7 ")
	}
	_ = f
}
