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

	installSymbol(l)

	l.Intrinsic(value.BooleanPrototype, value.IntrinsicSpec{Name: "Boolean.prototype", Class: value.ClassBoolean,
		Init: func(r *value.Realm, o *value.Object) {
			o.Internal = value.False // Boolean.prototype is itself a Boolean object holding false
			o.Define("constructor", value.Obj(r.Intrinsic(value.BooleanCtor)), value.Writable|value.Configurable)
			r.Methods(o, booleanProto)
		}})
	l.Intrinsic(value.BooleanCtor, value.IntrinsicSpec{Name: "Boolean",
		Func: &value.Native{Name: "Boolean", Length: 1, Ctor: true, Fn: func(r *value.Realm, c *value.Call) value.Value {
			b := value.Bool(c.Arg(0).ToBoolean())
			if c.NewTarget != nil {
				return value.Obj(r.NewWrapper(b, r.ProtoFromCtor(c.NewTarget, value.BooleanPrototype)))
			}
			return b
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

// thisBoolean is thisBooleanValue: a boolean, or a Boolean object's.
func thisBoolean(r *value.Realm, c *value.Call, method string) bool {
	b, ok := value.ThisPrimitive(c.This, value.KindBoolean)
	if !ok {
		r.ThrowType("Boolean.prototype.%s requires that 'this' be a Boolean", method)
	}
	return b.BoolValue()
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
