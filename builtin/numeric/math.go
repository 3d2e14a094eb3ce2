package numeric

import (
	"github.com/go-codemode/codemode/internal/jsnum"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/go-codemode/codemode/value"
)

func installMath(l *value.Library) {
	l.Intrinsic(value.MathObject, value.IntrinsicSpec{Name: "Math",
		Init: func(r *value.Realm, o *value.Object) {
			// Each run has its own generator for Math.random, seeded from
			// the process's random source; the Math object holds it.
			o.Internal = rand.NewPCG(rand.Uint64(), rand.Uint64())
			r.Methods(o, mathFuncs)
			for _, c := range mathConstants {
				o.Define(c.name, value.Number(c.value), 0)
			}
			r.Method(o, "sumPrecise", mathSumPrecise)
			o.Define(value.SymToStringTag.Key(), value.StrOf("Math"), value.Configurable)
		}})
	l.GlobalIntrinsic("Math", value.MathObject)
	l.Register(mathFuncs...)
	l.Register(mathSumPrecise)
}

var mathConstants = [...]struct {
	name  string
	value float64
}{
	{"E", math.E},
	{"LN10", math.Ln10},
	{"LN2", math.Ln2},
	{"LOG10E", math.Log10E},
	{"LOG2E", math.Log2E},
	{"PI", math.Pi},
	{"SQRT1_2", 1 / math.Sqrt2},
	{"SQRT2", math.Sqrt2},
}

// unary makes a Math function of one argument.
func unary(name string, fn func(float64) float64) *value.Native {
	return native("Math."+name, 1, func(r *value.Realm, c *value.Call) value.Value {
		return value.Number(fn(r.ToNumber(c.Arg(0))))
	})
}

// mathFuncs are in V8's property order.
var mathFuncs = []*value.Native{
	unary("abs", math.Abs),
	unary("acos", acos),
	unary("acosh", acosh),
	unary("asin", asin),
	unary("asinh", asinh),
	unary("atan", atan),
	unary("atanh", atanh),
	native("Math.atan2", 2, func(r *value.Realm, c *value.Call) value.Value {
		y := r.ToNumber(c.Arg(0))
		x := r.ToNumber(c.Arg(1))
		return value.Number(atan2(y, x))
	}),
	unary("ceil", math.Ceil),
	unary("cbrt", cbrt),
	unary("expm1", expm1),
	native("Math.clz32", 1, func(r *value.Realm, c *value.Call) value.Value {
		return value.Number(float64(bits.LeadingZeros32(r.ToUint32(c.Arg(0)))))
	}),
	unary("cos", cos),
	unary("cosh", cosh),
	unary("exp", exp),
	unary("floor", math.Floor),
	unary("f16round", f16round),
	unary("fround", func(x float64) float64 { return float64(float32(x)) }),
	native("Math.hypot", 2, mathHypot),
	native("Math.imul", 2, func(r *value.Realm, c *value.Call) value.Value {
		a := r.ToInt32(c.Arg(0))
		b := r.ToInt32(c.Arg(1))
		return value.Number(float64(a * b))
	}),
	unary("log", log),
	unary("log1p", log1p),
	unary("log2", log2),
	unary("log10", log10),
	native("Math.max", 2, func(r *value.Realm, c *value.Call) value.Value {
		return value.Number(minMax(r, c.Args, true))
	}),
	native("Math.min", 2, func(r *value.Realm, c *value.Call) value.Value {
		return value.Number(minMax(r, c.Args, false))
	}),
	native("Math.pow", 2, func(r *value.Realm, c *value.Call) value.Value {
		x := r.ToNumber(c.Arg(0))
		y := r.ToNumber(c.Arg(1))
		return value.Number(Pow(x, y))
	}),
	native("Math.random", 0, func(r *value.Realm, c *value.Call) value.Value {
		src, _ := r.Intrinsic(value.MathObject).Internal.(*rand.PCG)
		if src == nil { // never: Init sets it
			return value.Number(rand.Float64())
		}
		return value.Number(float64(src.Uint64()>>11) * 0x1p-53)
	}),
	unary("round", round),
	unary("sign", func(x float64) float64 {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return x // NaN, +0 and -0 are their own sign
	}),
	unary("sin", sin),
	unary("sinh", sinh),
	unary("sqrt", math.Sqrt),
	unary("tan", tan),
	unary("tanh", tanh),
	unary("trunc", math.Trunc),
}

// round is Math.round: the nearest integer, halves rounding up (toward
// +∞), and -0 for -0 and for arguments in [-0.5, 0).
func round(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	f := math.Floor(x)
	if x-f >= 0.5 {
		f++
	}
	if f == 0 && math.Signbit(x) || f == 0 && x < 0 {
		return math.Copysign(0, -1)
	}
	return f
}

// f16round rounds to the nearest IEEE binary16 value (ties to even).
func f16round(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return x
	}
	a := math.Abs(x)
	if a >= 65520 { // halfway between 65504 (the largest half) and 65536
		return math.Copysign(math.Inf(1), x)
	}
	_, e := math.Frexp(a) // a = m × 2^e, m in [0.5, 1)
	q := math.Ldexp(1, e-11)
	if e-1 < -14 { // subnormal halves are multiples of 2^-24
		q = 0x1p-24
	}
	return math.Copysign(math.RoundToEven(a/q)*q, x)
}

// minMax is Math.max (max) or Math.min: every argument is converted, in
// order, before NaN decides the result; -0 is below +0.
func minMax(r *value.Realm, args []value.Value, max bool) float64 {
	res := math.Inf(1)
	if max {
		res = math.Inf(-1)
	}
	nan := false
	for _, a := range args {
		x := r.ToNumber(a)
		switch {
		case math.IsNaN(x):
			nan = true
		case max && (x > res || x == res && !math.Signbit(x)):
			res = x
		case !max && (x < res || x == res && math.Signbit(x)):
			res = x
		}
	}
	if nan {
		return math.NaN()
	}
	return res
}

// mathHypot is V8's Math.hypot: infinities win over NaN, and the squares
// of the arguments scaled by the largest are summed with Kahan
// compensation.
func mathHypot(r *value.Realm, c *value.Call) value.Value {
	abs := make([]float64, len(c.Args))
	biggest := 0.0
	nan := false
	for i, a := range c.Args {
		x := math.Abs(r.ToNumber(a))
		abs[i] = x
		if math.IsNaN(x) {
			nan = true
		} else if x > biggest {
			biggest = x
		}
	}
	switch {
	case math.IsInf(biggest, 1):
		return value.Number(biggest)
	case nan:
		return value.Number(math.NaN())
	case biggest == 0:
		return value.Number(0)
	}
	sum, comp := 0.0, 0.0
	for _, x := range abs {
		n := x / biggest
		summand := n*n - comp
		prelim := sum + summand
		comp = (prelim - sum) - summand
		sum = prelim
	}
	return value.Number(math.Sqrt(sum) * biggest)
}

// Pow is Number::exponentiate (Math.pow and **): like IEEE pow, except
// that a NaN exponent always gives NaN and (±1) ** ±Infinity is NaN.
func Pow(x, y float64) float64 { return jsnum.Pow(x, y) }
