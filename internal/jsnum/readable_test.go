package jsnum

import (
	"math"
	"testing"
)

// These hand-written cases double as documentation; every expectation was
// checked against node.

var negZero = math.Copysign(0, -1)

func TestFormatExamples(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{0, "0"},
		{negZero, "0"},
		{42, "42"},
		{-1.5, "-1.5"},
		{0.30000000000000004, "0.30000000000000004"}, // 0.1 + 0.2
		{1e20, "100000000000000000000"},
		{1 << 60, "1152921504606847000"}, // shortest digits, zero padded
		{1e21, "1e+21"},
		{0.000001, "0.000001"},
		{1e-7, "1e-7"},
		{123e-20, "1.23e-18"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{math.SmallestNonzeroFloat64, "5e-324"},
	} {
		if got := Format(c.in); got != c.want {
			t.Errorf("Format(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFormatRadixExamples(t *testing.T) {
	for _, c := range []struct {
		in    float64
		radix int
		want  string
	}{
		{0.5, 2, "0.1"},
		{255.5, 16, "ff.8"},
		{-10, 36, "-a"},
		{negZero, 2, "0"},
		{math.NaN(), 16, "NaN"},
		{math.Inf(-1), 2, "-Infinity"},
		{1e21, 7, "5135235413265003022600000"}, // digits past 2^53 are zeros
		{1 << 60, 36, "8rc4kbdvss00"},
		{0.1, 2, "0.0001100110011001100110011001100110011001100110011001101"},
		{0.1, 3, "0.0022002200220022002200220022002201"},
		{1.0 / 3, 3, "0.1"}, // rounding stops where the double's precision ends
		{123.456, 10, "123.456"},
	} {
		if got := FormatRadix(c.in, c.radix); got != c.want {
			t.Errorf("FormatRadix(%v, %d) = %q, want %q", c.in, c.radix, got, c.want)
		}
	}
}

func TestDigitMethodExamples(t *testing.T) {
	fixed := func(x float64, d int) func() (string, bool) {
		return func() (string, bool) { return ToFixed(x, d) }
	}
	prec := func(x float64, p int) func() (string, bool) {
		return func() (string, bool) { return ToPrecision(x, p) }
	}
	exp := func(x float64, d int, has bool) func() (string, bool) {
		return func() (string, bool) { return ToExponential(x, d, has) }
	}
	for _, c := range []struct {
		name string
		call func() (string, bool)
		want string // "" means RangeError
	}{
		{"(1.005).toFixed(2)", fixed(1.005, 2), "1.00"}, // 1.005 is 1.00499999999999989...
		{"(1.25).toFixed(1)", fixed(1.25, 1), "1.3"},    // exact tie: the larger n
		{"(0.5).toFixed(0)", fixed(0.5, 0), "1"},
		{"(2.5).toFixed(0)", fixed(2.5, 0), "3"},
		{"(-1.5).toFixed(0)", fixed(-1.5, 0), "-2"},
		{"(-0).toFixed(2)", fixed(negZero, 2), "0.00"},
		{"(-1e-7).toFixed(2)", fixed(-1e-7, 2), "-0.00"},
		{"(1e21).toFixed(2)", fixed(1e21, 2), "1e+21"},
		{"(0.000001).toFixed(7)", fixed(0.000001, 7), "0.0000010"},
		{"(1).toFixed(101)", fixed(1, 101), ""},
		{"(NaN).toFixed(101)", fixed(math.NaN(), 101), ""},
		{"(0.000001).toPrecision(2)", prec(0.000001, 2), "0.0000010"},
		{"(123.456).toPrecision(2)", prec(123.456, 2), "1.2e+2"},
		{"(123.456).toPrecision(4)", prec(123.456, 4), "123.5"},
		{"(1e21).toPrecision(3)", prec(1e21, 3), "1.00e+21"},
		{"(5e-7).toPrecision(1)", prec(5e-7, 1), "5e-7"},
		{"(-0).toPrecision(3)", prec(negZero, 3), "0.00"},
		{"(1).toPrecision(0)", prec(1, 0), ""},
		{"(NaN).toPrecision(0)", prec(math.NaN(), 0), "NaN"},
		{"(123.456).toExponential()", exp(123.456, 0, false), "1.23456e+2"},
		{"(0).toExponential()", exp(0, 0, false), "0e+0"},
		{"(0).toExponential(2)", exp(0, 2, true), "0.00e+0"},
		{"(1.45).toExponential(1)", exp(1.45, 1, true), "1.4e+0"},
		{"(-1e-7).toExponential()", exp(-1e-7, 0, false), "-1e-7"},
		{"(1).toExponential(-1)", exp(1, -1, true), ""},
		{"(Infinity).toExponential(-1)", exp(math.Inf(1), -1, true), "Infinity"},
	} {
		got, ok := c.call()
		if !ok {
			got = ""
		}
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s = %q (ok=%v), want %q", c.name, got, ok, c.want)
		}
	}
}

func TestParseExamples(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		got  float64
		want float64
	}{
		{`Number("")`, Parse(""), 0},
		{`Number(" \n\t")`, Parse(" \n\t"), 0},
		{`Number("\u00a0 0x1F \n")`, Parse("\u00a0 0x1F \n"), 31},
		{`Number("-0")`, Parse("-0"), negZero},
		{`Number(".5")`, Parse(".5"), 0.5},
		{`Number("5.")`, Parse("5."), 5},
		{`Number("1e1000")`, Parse("1e1000"), math.Inf(1)},
		{`Number("-Infinity")`, Parse("-Infinity"), math.Inf(-1)},
		{`Number("0b101")`, Parse("0b101"), 5},
		{`Number("0o17")`, Parse("0o17"), 15},
		{`Number("-0x10")`, Parse("-0x10"), nan},
		{`Number("0x")`, Parse("0x"), nan},
		{`Number("1_000")`, Parse("1_000"), nan},
		{`Number("Infinityx")`, Parse("Infinityx"), nan},
		{`Number("inf")`, Parse("inf"), nan},
		{`Number("12px")`, Parse("12px"), nan},
		{`parseInt("  -12px")`, ParseInt("  -12px", 0), -12},
		{`parseInt("0x1f", 16)`, ParseInt("0x1f", 16), 31},
		{`parseInt("0x1f", 10)`, ParseInt("0x1f", 10), 0},
		{`parseInt("1e3")`, ParseInt("1e3", 0), 1},
		{`parseInt("z", 36)`, ParseInt("z", 36), 35},
		{`parseInt("10", 37)`, ParseInt("10", 37), nan},
		{`parseInt("-0")`, ParseInt("-0", 0), negZero},
		{`parseInt("")`, ParseInt("", 0), nan},
		{`parseInt("123456789012345678901234567890")`, ParseInt("123456789012345678901234567890", 0), 1.2345678901234568e+29},
		{`parseFloat(".5e-3x")`, ParseFloat(".5e-3x"), 0.0005},
		{`parseFloat("-Infinityx")`, ParseFloat("-Infinityx"), math.Inf(-1)},
		{`parseFloat("0x10")`, ParseFloat("0x10"), 0},
		{`parseFloat("1e")`, ParseFloat("1e"), 1},
		{`parseFloat(".")`, ParseFloat("."), nan},
	} {
		if !same(c.got, c.want) {
			t.Errorf("%s = %s, want %s", c.name, fmtNum(c.got), fmtNum(c.want))
		}
	}
}

func TestIntegerConversionExamples(t *testing.T) {
	for _, c := range []struct {
		in      float64
		i32     int32
		u32     uint32
		integer float64
	}{
		{math.NaN(), 0, 0, 0},
		{math.Inf(1), 0, 0, math.Inf(1)},
		{math.Inf(-1), 0, 0, math.Inf(-1)},
		{negZero, 0, 0, 0},
		{-0.5, 0, 0, 0},
		{1.9, 1, 1, 1},
		{-1.9, -1, 4294967295, -1},
		{1 << 31, -2147483648, 2147483648, 1 << 31},
		{-(1 << 31) - 1, 2147483647, 2147483647, -(1 << 31) - 1},
		{4294967297.9, 1, 1, 4294967297},
		{1e20, 1661992960, 1661992960, 1e20},
	} {
		if got := ToInt32(c.in); got != c.i32 {
			t.Errorf("ToInt32(%v) = %d, want %d", c.in, got, c.i32)
		}
		if got := ToUint32(c.in); got != c.u32 {
			t.Errorf("ToUint32(%v) = %d, want %d", c.in, got, c.u32)
		}
		if got := ToIntegerOrInfinity(c.in); !same(got, c.integer) {
			t.Errorf("ToIntegerOrInfinity(%v) = %s, want %s", c.in, fmtNum(got), fmtNum(c.integer))
		}
	}
}
