package builtin

import (
	"github.com/go-codemode/codemode/value"
)

func installFunction(l *value.Library) {
	l.Intrinsic(value.FunctionCtor, value.IntrinsicSpec{Name: "Function",
		Func: &value.Native{Name: "Function", Length: 1, Ctor: true, Fn: func(r *value.Realm, c *value.Call) value.Value {
			r.ThrowKind("UnsupportedSyntax", value.TypeError, "The Function constructor is not supported; write the function inline.")
			return value.Undefined
		}},
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.FunctionPrototype))
		}})
	l.Extend(value.FunctionPrototype, func(r *value.Realm, o *value.Object) {
		o.Define("length", value.Number(0), value.Configurable)
		o.Define("name", value.StrOf(""), value.Configurable)
		o.Define("constructor", value.Obj(r.Intrinsic(value.FunctionCtor)), value.Writable|value.Configurable)
		r.Methods(o, functionProto)
	})
	l.GlobalIntrinsic("Function", value.FunctionCtor)
	l.Register(functionProto...)
	l.Register(boundFunction)
}

func thisFunction(r *value.Realm, c *value.Call, method string) *value.Object {
	f := c.This.AsObject()
	if f == nil || !f.Callable() {
		r.ThrowType("Function.prototype.%s called on a value that is not a function", method)
	}
	return f
}

var boundFunction = &value.Native{Name: "%BoundFunction%", Ctor: true, Fn: func(r *value.Realm, c *value.Call) value.Value {
	bf := c.Callee.Internal.(*value.Bound).Data.(*value.BoundFunc)
	args := append(append([]value.Value(nil), bf.Args...), c.Args...)
	if c.NewTarget != nil {
		nt := c.NewTarget
		if nt == c.Callee {
			nt = bf.Target
		}
		return r.Construct(value.Obj(bf.Target), args, nt)
	}
	return r.CallObject(bf.Target, bf.This, args)
}}

var functionProto = []*value.Native{
	Native("Function.prototype.call", 1, func(r *value.Realm, c *value.Call) value.Value {
		f := thisFunction(r, c, "call")
		var args []value.Value
		if len(c.Args) > 1 {
			args = c.Args[1:]
		}
		return r.CallObject(f, c.Arg(0), args)
	}),
	Native("Function.prototype.apply", 2, func(r *value.Realm, c *value.Call) value.Value {
		f := thisFunction(r, c, "apply")
		list := c.Arg(1)
		if list.IsNullish() {
			return r.CallObject(f, c.Arg(0), nil)
		}
		if !list.IsObject() {
			r.ThrowType("CreateListFromArrayLike called on non-object")
		}
		n := r.LengthOf(list)
		if n > 65535 {
			r.ThrowRange("Maximum call stack size exceeded")
		}
		args := make([]value.Value, n)
		for i := range args {
			args[i] = r.GetIndex(list, i)
		}
		return r.CallObject(f, c.Arg(0), args)
	}),
	Native("Function.prototype.bind", 1, func(r *value.Realm, c *value.Call) value.Value {
		f := thisFunction(r, c, "bind")
		var args []value.Value
		if len(c.Args) > 1 {
			args = append(args, c.Args[1:]...)
		}
		length := 0
		if l := r.Get(value.Obj(f), "length"); l.IsNumber() {
			length = max(0, int(l.Num())-len(args))
		}
		name := "bound "
		if n := r.Get(value.Obj(f), "name"); n.IsString() {
			// The names of bound bound ... functions grow with each
			// bind: charge the new name, and the function, before
			// they are made.
			l := n.AsString().Len()
			if l+len(name) > value.MaxStringLength {
				r.ThrowRange("Invalid string length")
			}
			r.Tick(l)
			r.Charge(48 + 2*(l+len(name)))
			name += n.AsString().String()
		}
		r.Charge(160 + 24*len(args))
		bound := r.NewBound(boundFunction, &value.BoundFunc{Target: f, This: c.Arg(0), Args: args}, name, length)
		bound.Proto = f.Proto
		return value.Obj(bound)
	}),
	Native("Function.prototype.toString", 0, func(r *value.Realm, c *value.Call) value.Value {
		f := thisFunction(r, c, "toString")
		return value.StrOf("function " + r.FunctionName(f) + "() { [native code] }")
	}),
	Native("Function.prototype[Symbol.hasInstance]", 1, func(r *value.Realm, c *value.Call) value.Value {
		if c.This.AsObject() == nil || !c.This.AsObject().Callable() {
			return value.False
		}
		return value.Bool(r.OrdinaryHasInstance(c.Arg(0), c.This))
	}),
}
