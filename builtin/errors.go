package builtin

import (
	"github.com/go-codemode/codemode/value"
)

var errorCtors = [...]value.Intrinsic{value.ErrorCtor, value.TypeErrorCtor, value.RangeErrorCtor, value.SyntaxErrorCtor,
	value.ReferenceErrorCtor, value.EvalErrorCtor, value.URIErrorCtor, value.AggregateErrorCtor}

func installErrors(l *value.Library) {
	for t := value.Error; t <= value.AggregateError; t++ {
		t := t
		name := value.ErrorTypeNames[t]
		length := 1
		if t == value.AggregateError {
			length = 2
		}
		ctorID := errorCtors[t]
		protoParent := value.ErrorPrototype
		if t == value.Error {
			protoParent = value.ObjectPrototype
		}
		l.Intrinsic(t.Proto(), value.IntrinsicSpec{Name: name + ".prototype", Proto: protoParent,
			Init: func(r *value.Realm, o *value.Object) {
				o.Define("constructor", value.Obj(r.Intrinsic(ctorID)), value.Writable|value.Configurable)
				o.Define("name", value.StrOf(name), value.Writable|value.Configurable)
				o.Define("message", value.StrOf(""), value.Writable|value.Configurable)
				if t == value.Error {
					r.Methods(o, []*value.Native{errorToString})
				}
			}})
		ctorProto := value.FunctionPrototype
		spec := value.IntrinsicSpec{Name: name, Proto: ctorProto,
			Func: &value.Native{Name: name, Length: length, Ctor: true, Fn: func(r *value.Realm, c *value.Call) value.Value {
				return value.Obj(constructError(r, t, c))
			}},
			Init: func(r *value.Realm, o *value.Object) {
				r.Constructor(o, r.Intrinsic(t.Proto()))
				if t != value.Error {
					o.Proto = r.Intrinsic(value.ErrorCtor)
				} else {
					r.Methods(o, []*value.Native{errorIsError})
				}
			}}
		l.Intrinsic(ctorID, spec)
		l.GlobalIntrinsic(name, ctorID)
	}
	l.Register(errorToString, errorIsError)
}

// constructError is new T(message, options) (and T(...) without new).
func constructError(r *value.Realm, t value.ErrorType, c *value.Call) *value.Object {
	o := value.NewObject(r.ProtoFromCtor(c.NewTarget, t.Proto()))
	o.Class = value.ClassError
	o.Internal = &value.ErrorData{Pos: -1}
	r.Charge(128)
	args := c.Args
	if t == value.AggregateError && len(args) > 0 {
		args = args[1:]
	}
	msg := value.Undefined
	if len(args) > 0 {
		msg = args[0]
	}
	if !msg.IsUndefined() {
		o.Define("message", value.Str(r.ToString(msg)), value.Writable|value.Configurable)
	}
	if len(args) > 1 {
		if opts := args[1].AsObject(); opts != nil && r.HasProperty(opts, "cause") {
			o.Define("cause", r.Get(args[1], "cause"), value.Writable|value.Configurable)
		}
	}
	if t == value.AggregateError {
		// After the message and the cause, as the spec orders it.
		errs := r.IterateToSlice(c.Arg(0))
		o.Define("errors", value.Obj(r.NewArrayValue(errs)), value.Writable|value.Configurable)
	}
	return o
}

var errorToString = Native("Error.prototype.toString", 0, func(r *value.Realm, c *value.Call) value.Value {
	if !c.This.IsObject() {
		r.ThrowType("Error.prototype.toString requires that 'this' be an Object")
	}
	return value.Str(ErrorString(r, c.This))
})

var errorIsError = Native("Error.isError", 1, func(r *value.Realm, c *value.Call) value.Value {
	return value.Bool(value.IsError(c.Arg(0)))
})

// ErrorString is Error.prototype.toString: "Name: message", or just one
// of them when the other is empty.
func ErrorString(r *value.Realm, v value.Value) *value.String {
	name := value.NewString("Error")
	if n := r.Get(v, "name"); !n.IsUndefined() {
		name = r.ToString(n)
	}
	msg := value.Empty
	if m := r.Get(v, "message"); !m.IsUndefined() {
		msg = r.ToString(m)
	}
	switch {
	case name.Len() == 0:
		return msg
	case msg.Len() == 0:
		return name
	}
	return r.Concat(r.Concat(name, value.NewString(": ")), msg)
}
