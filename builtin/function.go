package builtin

import (
	"github.com/go-codemode/codemode/value"
)

func installFunction(l *value.Library) {
	l.Register(boundFunction)
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
		// Every function is strict: caller and arguments are poisoned.
		thrower := r.Intrinsic(value.ThrowTypeError)
		o.DefineAccessor("caller", thrower, thrower, value.Configurable)
		o.DefineAccessor("arguments", thrower, thrower, value.Configurable)
	})
	l.Intrinsic(value.ThrowTypeError, value.IntrinsicSpec{Name: "%ThrowTypeError%",
		Func: &value.Native{Name: "", Fn: func(r *value.Realm, c *value.Call) value.Value {
			r.ThrowType("'caller', 'callee', and 'arguments' properties may not be accessed on strict mode functions or the arguments objects for calls to them")
			return value.Undefined
		}},
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("length", value.Number(0), 0)
			o.Define("name", value.StrOf(""), 0)
			o.Freeze()
		}})
	l.GlobalIntrinsic("Function", value.FunctionCtor)
	l.Register(functionProto...)
	l.Register(boundFunction)
	installFunctionKind(l, "GeneratorFunction", value.GeneratorFunctionCtor, value.GeneratorFunctionPrototype, value.GeneratorPrototype)
	installFunctionKind(l, "AsyncGeneratorFunction", value.AsyncGeneratorFunctionCtor, value.AsyncGeneratorFunctionPrototype, value.AsyncGeneratorPrototype)
	installFunctionKind(l, "AsyncFunction", value.AsyncFunctionCtor, value.AsyncFunctionPrototype, value.NoIntrinsic)
}

// installFunctionKind installs the constructor and prototype of one kind
// of function (GeneratorFunction, AsyncFunction, AsyncGeneratorFunction):
// not globals, reached as Object.getPrototypeOf(function* () {}). Like
// Function, the constructor compiles nothing. instances is the prototype
// of the objects the kind's functions make (%GeneratorPrototype%), or
// NoIntrinsic for async functions.
func installFunctionKind(l *value.Library, name string, ctor, proto, instances value.Intrinsic) {
	l.Intrinsic(proto, value.IntrinsicSpec{Name: name + ".prototype", Proto: value.FunctionPrototype,
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("constructor", value.Obj(r.Intrinsic(ctor)), value.Configurable)
			if instances != value.NoIntrinsic {
				ip := r.Intrinsic(instances)
				o.Define("prototype", value.Obj(ip), value.Configurable)
				ip.Define("constructor", value.Obj(o), value.Configurable)
			}
			o.Define(value.SymToStringTag.Key(), value.StrOf(name), value.Configurable)
		}})
	l.Intrinsic(ctor, value.IntrinsicSpec{Name: name,
		Func: &value.Native{Name: name, Length: 1, Ctor: true, Fn: func(r *value.Realm, c *value.Call) value.Value {
			r.ThrowKind("UnsupportedSyntax", value.TypeError, "The %s constructor is not supported; write the function inline.", name)
			return value.Undefined
		}},
		Init: func(r *value.Realm, o *value.Object) {
			o.Proto = r.Intrinsic(value.FunctionCtor)
			o.Define("prototype", value.Obj(r.Intrinsic(proto)), 0)
		}})
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
