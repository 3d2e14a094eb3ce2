// Package builtin assembles codemode's standard library: the core
// (Object, Function, Error types, Symbol, Boolean, Promise, the iterator
// and generator prototypes, the global functions) lives here, and each
// area of the library in a package of its own under builtin/.
package builtin

import (
	"github.com/go-codemode/codemode/value"
)

// Installer adds one area of the library.
type Installer func(l *value.Library)

// New builds the whole library. It is immutable once built; build it once
// and share it between runs.
func New(extra ...Installer) *value.Library {
	l := value.NewLibrary()
	installCore(l)
	installObject(l)
	installFunction(l)
	installErrors(l)
	installPromise(l)
	installIterators(l)
	installGlobals(l)
	installConsole(l)
	for _, in := range extra {
		in(l)
	}
	return l
}

// Native builds a built-in function description (a helper for tables).
func Native(name string, length int, fn value.NativeFunc) *value.Native {
	return &value.Native{Name: name, Length: length, Fn: fn}
}

func installCore(l *value.Library) {
	l.Intrinsic(value.ObjectPrototype, value.IntrinsicSpec{Name: "Object.prototype", Proto: value.NoIntrinsic})
	l.Intrinsic(value.FunctionPrototype, value.IntrinsicSpec{Name: "Function.prototype", Class: value.ClassFunction,
		Func: &value.Native{Name: "Function.prototype", Fn: func(*value.Realm, *value.Call) value.Value { return value.Undefined }}})
	l.Intrinsic(value.ArrayPrototype, value.IntrinsicSpec{Name: "Array.prototype", Class: value.ClassArray,
		Init: func(r *value.Realm, o *value.Object) {
			o.Internal = value.NewArray(nil, nil).Internal
			r.Method(o, "values", value.ArrayValues)
			o.Define(value.SymIterator.Key(), r.GetObj(o, "values", value.Obj(o)), value.Writable|value.Configurable)
		}})
	l.Register(value.ArrayValues, value.ArrayIteratorNext, value.StringIterator, value.StringIteratorNext)
}

// thisObject is the receiver as an object, or the TypeError V8 gives a
// method called on null or undefined.
func thisObject(r *value.Realm, c *value.Call, method string) *value.Object {
	if c.This.IsNullish() {
		r.ThrowType("%s called on null or undefined", method)
	}
	return r.ToObject(c.This)
}
