package numeric

import (
	"math"

	"github.com/go-codemode/codemode/internal/jsnum"
	"github.com/go-codemode/codemode/value"
)

func installNumber(l *value.Library) {
	l.Intrinsic(value.NumberPrototype, value.IntrinsicSpec{Name: "Number.prototype", Class: value.ClassNumber,
		Init: func(r *value.Realm, o *value.Object) {
			o.Internal = value.Number(0) // Number.prototype is itself a Number object holding +0
			o.Define("constructor", value.Obj(r.Intrinsic(value.NumberCtor)), value.Writable|value.Configurable)
			r.Methods(o, numberProto)
		}})
	l.Intrinsic(value.NumberCtor, value.IntrinsicSpec{Name: "Number",
		Func: numberCtor,
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.NumberPrototype))
			r.Methods(o, numberStatics)
			// Number.parseInt and Number.parseFloat are the global functions
			// themselves (Number.parseInt === parseInt).
			for _, name := range [...]string{"parseFloat", "parseInt"} {
				o.Define(name, globalFunction(r, name), value.Writable|value.Configurable)
			}
			for _, c := range numberConstants {
				o.Define(c.name, value.Number(c.value), 0)
			}
		}})
	l.GlobalIntrinsic("Number", value.NumberCtor)
	l.Register(numberProto...)
	l.Register(numberStatics...)
	l.Register(numberParseInt, numberParseFloat)
}

var numberCtor = &value.Native{Name: "Number", Length: 1, Ctor: true, Fn: func(r *value.Realm, c *value.Call) value.Value {
	n := value.Number(0)
	if len(c.Args) > 0 {
		n = value.Number(r.ToNumber(c.Args[0]))
	}
	if c.NewTarget != nil {
		return value.Obj(r.NewWrapper(n, r.ProtoFromCtor(c.NewTarget, value.NumberPrototype)))
	}
	return n
}}

var numberConstants = [...]struct {
	name  string
	value float64
}{
	{"MAX_VALUE", math.MaxFloat64},
	{"MIN_VALUE", math.SmallestNonzeroFloat64},
	{"NaN", math.NaN()},
	{"NEGATIVE_INFINITY", math.Inf(-1)},
	{"POSITIVE_INFINITY", math.Inf(1)},
	{"MAX_SAFE_INTEGER", 1<<53 - 1},
	{"MIN_SAFE_INTEGER", -(1<<53 - 1)},
	{"EPSILON", 0x1p-52},
}

// globalFunction returns the run's global parseInt or parseFloat, so that
// Number.parseInt === parseInt; if the library has no such global (or the
// program replaced it before Number was first used) a function of our own
// stands in.
func globalFunction(r *value.Realm, name string) value.Value {
	if v, ok := r.Global(name); ok {
		if f := v.AsObject(); f != nil {
			if n, ok := f.Internal.(*value.Native); ok && n.Name == name {
				return v
			}
		}
	}
	if name == "parseInt" {
		return value.Obj(r.NewNative(numberParseInt))
	}
	return value.Obj(r.NewNative(numberParseFloat))
}

var numberParseInt = native("Number.parseInt", 2, func(r *value.Realm, c *value.Call) value.Value {
	s := r.ToString(c.Arg(0))
	radix := int(r.ToInt32(c.Arg(1)))
	return value.Number(jsnum.ParseInt(s.String(), radix))
})

var numberParseFloat = native("Number.parseFloat", 1, func(r *value.Realm, c *value.Call) value.Value {
	return value.Number(jsnum.ParseFloat(r.ToString(c.Arg(0)).String()))
})

func isFinite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func isIntegral(f float64) bool { return isFinite(f) && f == math.Trunc(f) }

var numberStatics = []*value.Native{
	native("Number.isFinite", 1, func(r *value.Realm, c *value.Call) value.Value {
		v := c.Arg(0)
		return value.Bool(v.IsNumber() && isFinite(v.Num()))
	}),
	native("Number.isInteger", 1, func(r *value.Realm, c *value.Call) value.Value {
		v := c.Arg(0)
		return value.Bool(v.IsNumber() && isIntegral(v.Num()))
	}),
	native("Number.isNaN", 1, func(r *value.Realm, c *value.Call) value.Value {
		v := c.Arg(0)
		return value.Bool(v.IsNumber() && math.IsNaN(v.Num()))
	}),
	native("Number.isSafeInteger", 1, func(r *value.Realm, c *value.Call) value.Value {
		v := c.Arg(0)
		return value.Bool(v.IsNumber() && isIntegral(v.Num()) && math.Abs(v.Num()) <= 1<<53-1)
	}),
}

// thisNumber is thisNumberValue: the receiver of a Number.prototype
// method must be a number or a Number object (Number.prototype is one,
// holding +0).
func thisNumber(r *value.Realm, c *value.Call, method string) float64 {
	if v, ok := value.ThisPrimitive(c.This, value.KindNumber); ok {
		return v.Num()
	}
	r.ThrowType("Number.prototype.%s requires that 'this' be a Number", method)
	return 0
}

// digitsArg converts a digits argument with ToIntegerOrInfinity and clamps
// it into int range (anything outside ±1e9 is out of every valid range).
func digitsArg(r *value.Realm, v value.Value) int {
	f := r.ToIntegerOrInfinity(v)
	return int(max(-1e9, min(1e9, f)))
}

var numberProto = []*value.Native{
	native("Number.prototype.toExponential", 1, func(r *value.Realm, c *value.Call) value.Value {
		x := thisNumber(r, c, "toExponential")
		d := c.Arg(0)
		s, ok := jsnum.ToExponential(x, digitsArg(r, d), !d.IsUndefined())
		if !ok {
			r.ThrowRange("toExponential() argument must be between 0 and 100")
		}
		return value.StrOf(s)
	}),
	native("Number.prototype.toFixed", 1, func(r *value.Realm, c *value.Call) value.Value {
		x := thisNumber(r, c, "toFixed")
		s, ok := jsnum.ToFixed(x, digitsArg(r, c.Arg(0)))
		if !ok {
			r.ThrowRange("toFixed() digits argument must be between 0 and 100")
		}
		return value.StrOf(s)
	}),
	native("Number.prototype.toPrecision", 1, func(r *value.Realm, c *value.Call) value.Value {
		x := thisNumber(r, c, "toPrecision")
		p := c.Arg(0)
		if p.IsUndefined() {
			return value.Str(value.NumberToString(x))
		}
		s, ok := jsnum.ToPrecision(x, digitsArg(r, p))
		if !ok {
			r.ThrowRange("toPrecision() argument must be between 1 and 100")
		}
		return value.StrOf(s)
	}),
	native("Number.prototype.toString", 1, func(r *value.Realm, c *value.Call) value.Value {
		x := thisNumber(r, c, "toString")
		radix := 10
		if rv := c.Arg(0); !rv.IsUndefined() {
			radix = digitsArg(r, rv)
			if radix < 2 || radix > 36 {
				r.ThrowRange("toString() radix argument must be between 2 and 36")
			}
		}
		if radix == 10 {
			return value.Str(value.NumberToString(x))
		}
		return value.StrOf(jsnum.FormatRadix(x, radix))
	}),
	native("Number.prototype.valueOf", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Number(thisNumber(r, c, "valueOf"))
	}),
	native("Number.prototype.toLocaleString", 0, func(r *value.Realm, c *value.Call) value.Value {
		x := thisNumber(r, c, "toLocaleString")
		return value.StrOf(formatLocaleNumber(r, x, c.Arg(0), c.Arg(1)))
	}),
}
