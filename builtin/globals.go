package builtin

import (
	"math"

	"github.com/go-codemode/codemode/internal/jsnum"
	"github.com/go-codemode/codemode/value"
)

func installGlobals(l *value.Library) {
	l.Global("undefined", func(*value.Realm) value.Value { return value.Undefined })
	l.Global("NaN", func(*value.Realm) value.Value { return value.Number(math.NaN()) })
	l.Global("Infinity", func(*value.Realm) value.Value { return value.Number(math.Inf(1)) })
	for _, n := range globalFuncs {
		n := n
		l.Global(n.Name, func(r *value.Realm) value.Value { return value.Obj(r.NewNative(n)) })
	}
	l.Register(globalFuncs...)

	l.Intrinsic(value.SymbolPrototype, value.IntrinsicSpec{Name: "Symbol.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("constructor", value.Obj(r.Intrinsic(value.SymbolCtor)), value.Writable|value.Configurable)
			r.Methods(o, []*value.Native{symbolToString})
			r.Getter(o, "description", symbolDescription)
		}})
	l.Intrinsic(value.SymbolCtor, value.IntrinsicSpec{Name: "Symbol",
		Func: &value.Native{Name: "Symbol", Fn: func(r *value.Realm, c *value.Call) value.Value {
			r.ThrowType("Symbol is not callable; only Symbol.asyncIterator and Symbol.iterator are available.")
			return value.Undefined
		}},
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.SymbolPrototype))
			o.Define("iterator", value.Sym(value.SymIterator), 0)
			o.Define("asyncIterator", value.Sym(value.SymAsyncIterator), 0)
			o.Define("toStringTag", value.Sym(value.SymToStringTag), 0)
			o.Define("hasInstance", value.Sym(value.SymHasInstance), 0)
		}})
	l.GlobalIntrinsic("Symbol", value.SymbolCtor)
	l.Register(symbolToString, symbolDescription)

	l.Intrinsic(value.BooleanPrototype, value.IntrinsicSpec{Name: "Boolean.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("constructor", value.Obj(r.Intrinsic(value.BooleanCtor)), value.Writable|value.Configurable)
			r.Methods(o, booleanProto)
		}})
	l.Intrinsic(value.BooleanCtor, value.IntrinsicSpec{Name: "Boolean",
		Func: &value.Native{Name: "Boolean", Length: 1, Ctor: true, Fn: func(r *value.Realm, c *value.Call) value.Value {
			if c.NewTarget != nil {
				r.ThrowType("new Boolean(...) is not supported; call Boolean(...) without new instead.")
			}
			return value.Bool(c.Arg(0).ToBoolean())
		}},
		Init: func(r *value.Realm, o *value.Object) { r.Constructor(o, r.Intrinsic(value.BooleanPrototype)) }})
	l.GlobalIntrinsic("Boolean", value.BooleanCtor)
	l.Register(booleanProto...)
}

var globalFuncs = []*value.Native{
	Native("parseInt", 2, func(r *value.Realm, c *value.Call) value.Value {
		s := r.ToString(c.Arg(0))
		radix := int(r.ToInt32(c.Arg(1)))
		return value.Number(jsnum.ParseInt(s.String(), radix))
	}),
	Native("parseFloat", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := r.ToString(c.Arg(0))
		return value.Number(jsnum.ParseFloat(s.String()))
	}),
	Native("isNaN", 1, func(r *value.Realm, c *value.Call) value.Value {
		return value.Bool(math.IsNaN(r.ToNumber(c.Arg(0))))
	}),
	Native("isFinite", 1, func(r *value.Realm, c *value.Call) value.Value {
		f := r.ToNumber(c.Arg(0))
		return value.Bool(!math.IsNaN(f) && !math.IsInf(f, 0))
	}),
}

func thisSymbol(r *value.Realm, c *value.Call) *value.Symbol {
	s := c.This.AsSymbol()
	if s == nil {
		r.ThrowType("Symbol.prototype.toString requires that 'this' be a Symbol")
	}
	return s
}

var symbolToString = Native("Symbol.prototype.toString", 0, func(r *value.Realm, c *value.Call) value.Value {
	return value.StrOf("Symbol(" + thisSymbol(r, c).Description + ")")
})

var symbolDescription = Native("Symbol.prototype.description", 0, func(r *value.Realm, c *value.Call) value.Value {
	return value.StrOf(thisSymbol(r, c).Description)
})

func thisBoolean(r *value.Realm, c *value.Call, method string) bool {
	if !c.This.IsBool() {
		r.ThrowType("Boolean.prototype.%s requires that 'this' be a Boolean", method)
	}
	return c.This.BoolValue()
}

var booleanProto = []*value.Native{
	Native("Boolean.prototype.toString", 0, func(r *value.Realm, c *value.Call) value.Value {
		if thisBoolean(r, c, "toString") {
			return value.StrOf("true")
		}
		return value.StrOf("false")
	}),
	Native("Boolean.prototype.valueOf", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Bool(thisBoolean(r, c, "valueOf"))
	}),
}
