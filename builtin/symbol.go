package builtin

import (
	"github.com/go-codemode/codemode/value"
)

// Symbol: the constructor (callable, never with new), Symbol.for and
// Symbol.keyFor over the run's registry, the well-known symbols the
// engine honours, and Symbol.prototype. A symbol is its property key
// (see value.Symbol), so none of this keeps state outside the run.

func installSymbol(l *value.Library) {
	l.Intrinsic(value.SymbolPrototype, value.IntrinsicSpec{Name: "Symbol.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("constructor", value.Obj(r.Intrinsic(value.SymbolCtor)), value.Writable|value.Configurable)
			r.Methods(o, []*value.Native{symbolToString, symbolValueOf})
			r.Getter(o, "description", symbolDescription)
			f := r.NewNative(symbolToPrimitive)
			o.Define(value.SymToPrimitive.Key(), value.Obj(f), value.Configurable)
			o.Define(value.SymToStringTag.Key(), value.StrOf("Symbol"), value.Configurable)
		}})
	l.Intrinsic(value.SymbolCtor, value.IntrinsicSpec{Name: "Symbol", Func: symbolCtor,
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.SymbolPrototype))
			r.Methods(o, symbolStatics)
			for _, s := range value.WellKnownSymbols {
				o.Define(s.Description[len("Symbol."):], value.Sym(s), 0)
			}
		}})
	l.GlobalIntrinsic("Symbol", value.SymbolCtor)
	l.Register(symbolToString, symbolValueOf, symbolDescription, symbolToPrimitive)
	l.Register(symbolStatics...)
}

// symbolCtor is Symbol(description): a new symbol of the run. It is a
// constructor only in name (so that it can be subclassed in principle);
// new Symbol() throws, as in JavaScript.
var symbolCtor = &value.Native{Name: "Symbol", Length: 0, Ctor: true, Fn: func(r *value.Realm, c *value.Call) value.Value {
	if c.NewTarget != nil {
		r.ThrowType("Symbol is not a constructor")
	}
	var desc *value.String
	if d := c.Arg(0); !d.IsUndefined() {
		desc = r.ToString(d)
	}
	return value.Sym(r.NewSymbol(desc))
}}

var symbolStatics = []*value.Native{
	Native("Symbol.for", 1, func(r *value.Realm, c *value.Call) value.Value {
		return value.Sym(r.SymbolFor(r.ToString(c.Arg(0))))
	}),
	Native("Symbol.keyFor", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := c.Arg(0).AsSymbol()
		if s == nil {
			r.ThrowType("%s is not a symbol", r.Describe(c.Arg(0)))
		}
		if !s.Registered() {
			return value.Undefined
		}
		return value.StrOf(s.Description)
	}),
}

// thisSymbol is thisSymbolValue: a symbol, or the one a Symbol object
// holds.
func thisSymbol(r *value.Realm, c *value.Call, method string) *value.Symbol {
	v, ok := value.ThisPrimitive(c.This, value.KindSymbol)
	if !ok {
		r.ThrowType("%s requires that 'this' be a Symbol", method)
	}
	return v.AsSymbol()
}

var symbolToString = Native("Symbol.prototype.toString", 0, func(r *value.Realm, c *value.Call) value.Value {
	return value.Str(charged(r, thisSymbol(r, c, "Symbol.prototype.toString").DescriptiveString()))
})

var symbolValueOf = Native("Symbol.prototype.valueOf", 0, func(r *value.Realm, c *value.Call) value.Value {
	return value.Sym(thisSymbol(r, c, "Symbol.prototype.valueOf"))
})

var symbolDescription = Native("Symbol.prototype.description", 0, func(r *value.Realm, c *value.Call) value.Value {
	d := thisSymbol(r, c, "Symbol.prototype.description").DescriptionValue()
	if s := d.AsString(); s != nil {
		charged(r, s)
	}
	return d
})

// charged counts a string made from a symbol's description against the
// run's memory: a description can be as long as any string.
func charged(r *value.Realm, s *value.String) *value.String {
	r.Charge(s.Bytes())
	return s
}

var symbolToPrimitive = Native("Symbol.prototype[Symbol.toPrimitive]", 1, func(r *value.Realm, c *value.Call) value.Value {
	return value.Sym(thisSymbol(r, c, "Symbol.prototype [ @@toPrimitive ]"))
})
