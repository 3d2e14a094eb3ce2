// Package collections is the collections area of codemode's standard
// library: Map, Set, WeakMap, WeakSet, their iterators, and the Iterator
// constructor with the iterator helpers (map, filter, take, ...).
//
// Map and Set keep their entries in a value.OrderedMap (SameValueZero
// keys, live iteration); a Set stores its values as keys. WeakMap and
// WeakSet are plain Go maps keyed by object or symbol identity: a run is
// short-lived, so nothing needs to be collected early.
//
// Every algorithm follows the specification step by step wherever program
// code can observe the order (getters, callbacks, iterator protocols), and
// every TypeError and RangeError carries V8's exact message. Where no
// program code can run in between (a Map built from another Map with
// untouched iteration, Map.prototype.set as the constructor's adder) the
// entries are moved directly.
package collections

import (
	"github.com/go-codemode/codemode/value"
)

// Install adds Map, Set, WeakMap, WeakSet, their iterator prototypes,
// Iterator and the iterator helpers to a library.
func Install(l *value.Library) {
	installMap(l)
	installSet(l)
	installWeak(l)
	installIterator(l)
}

// Memory charged per collection object and per entry added to one. An
// entry of a Map or Set costs about 180 bytes of live heap (measured over
// a million numeric keys: the entry slice with its slack, plus the Go
// map's slot for the key).
const (
	objectBytes = 96
	entryBytes  = 192
)

func native(name string, length int, fn value.NativeFunc) *value.Native {
	return &value.Native{Name: name, Length: length, Fn: fn}
}

// newInstance makes an object of a collection class, charged.
func newInstance(r *value.Realm, proto *value.Object, class value.Class, internal any) *value.Object {
	o := value.NewObject(proto)
	o.Class = class
	o.Internal = internal
	r.Charge(objectBytes)
	return o
}

// getter installs an accessor with a getter only, named "get <key>" as
// JavaScript names accessor functions.
func getter(r *value.Realm, o *value.Object, key, name string, n *value.Native) {
	f := r.NewNative(n)
	f.Define("name", value.StrOf("get "+name), value.Configurable)
	o.DefineAccessor(key, f, nil, value.Configurable)
}

// alias makes key another name for the method already installed as from
// (Map.prototype[Symbol.iterator] is Map.prototype.entries itself).
func alias(o *value.Object, key, from string) {
	p := o.GetOwn(from)
	o.Define(key, p.Value, value.Writable|value.Configurable)
}

func tag(o *value.Object, name string) {
	o.Define(value.SymToStringTag.Key(), value.StrOf(name), value.Configurable)
}

func poll(r *value.Realm) {
	if r.Agent != nil {
		r.Poll()
	}
}

func isCallable(v value.Value) bool {
	o := v.AsObject()
	return o != nil && o.Callable()
}

// isNative reports whether v is the function object of built-in n.
func isNative(v value.Value, n *value.Native) bool {
	o := v.AsObject()
	return n != nil && o != nil && o.Internal == n
}

// requireCallable throws V8's TypeError for a callback that is not a
// function ("number 1 is not a function").
func requireCallable(r *value.Realm, v value.Value) *value.Object {
	if !isCallable(v) {
		r.ThrowType("%s is not a function", typed(r, v))
	}
	return v.AsObject()
}

// ---------------------------------------------------------------------------
// Rendering values for messages, as V8 does.

// typed renders a value the way V8 names a callee it cannot point at in
// the source: its type, then the value for primitives (`number 1`,
// `string "abc"`, `object null`, `object`).
func typed(r *value.Realm, v value.Value) string {
	switch v.Kind() {
	case value.KindUndefined:
		return "undefined"
	case value.KindNull:
		return "object null"
	case value.KindString:
		return `string "` + v.AsString().String() + `"`
	case value.KindNumber, value.KindBoolean:
		s, _ := v.ToString()
		return v.TypeOf() + " " + s.String()
	}
	return v.TypeOf()
}

// plain renders a value without running program code, as V8's
// NoSideEffectsToString does for "incompatible receiver" messages:
// primitives as their string, errors as "Name: message", ordinary objects
// as "#<Constructor>", others as "[object Tag]".
func plain(r *value.Realm, v value.Value) string {
	switch v.Kind() {
	case value.KindString:
		return v.AsString().String()
	case value.KindSymbol:
		return "Symbol(" + v.AsSymbol().Description + ")"
	case value.KindObject:
		return objectString(r, v.AsObject())
	}
	s, ok := v.ToString()
	if !ok || s == nil {
		return v.TypeOf()
	}
	return s.String()
}

// dataProperty is V8's GetDataProperty: the value of a data property
// found on the prototype chain, undefined for an accessor or nothing.
func dataProperty(o *value.Object, key string) value.Value {
	for depth := 0; o != nil && depth < 10_000; o, depth = o.Proto, depth+1 {
		if p := o.GetOwn(key); p != nil {
			if p.IsAccessor() {
				return value.Undefined
			}
			return p.Value
		}
	}
	return value.Undefined
}

func objectString(r *value.Realm, o *value.Object) string {
	if o.Callable() {
		if n := r.Library().Native("Function.prototype.toString"); n != nil && n.Fn != nil {
			var s value.Value
			if r.Try(func() { s = n.Fn(r, &value.Call{This: value.Obj(o)}) }) == nil && s.IsString() {
				return s.AsString().String()
			}
		}
		return "function " + r.FunctionName(o) + "() { [native code] }"
	}
	toString := dataProperty(o, "toString")
	if o.Class == value.ClassError || isNative(toString, r.Library().Native("Error.prototype.toString")) {
		name, msg := "Error", ""
		if n := dataProperty(o, "name"); n.IsString() {
			name = n.AsString().String()
		}
		if m := dataProperty(o, "message"); m.IsString() {
			msg = m.AsString().String()
		}
		switch {
		case name == "":
			return msg
		case msg == "":
			return name
		}
		return name + ": " + msg
	}
	if isNative(toString, r.Library().Native("Object.prototype.toString")) {
		if ctor := dataProperty(o, "constructor").AsObject(); ctor != nil && ctor.Callable() {
			if name := r.FunctionName(ctor); name != "" {
				return "#<" + name + ">"
			}
		}
	}
	if t := dataProperty(o, value.SymToStringTag.Key()); t.IsString() {
		return "[object " + t.AsString().String() + "]"
	}
	return "[object " + className(o) + "]"
}

func className(o *value.Object) string {
	switch o.Class {
	case value.ClassArray:
		return "Array"
	case value.ClassFunction:
		return "Function"
	case value.ClassError:
		return "Error"
	case value.ClassBoolean:
		return "Boolean"
	case value.ClassNumber:
		return "Number"
	case value.ClassString:
		return "String"
	case value.ClassDate:
		return "Date"
	case value.ClassRegExp:
		return "RegExp"
	case value.ClassArguments:
		return "Arguments"
	}
	return "Object"
}

// incompatible throws V8's TypeError for a method called on the wrong
// kind of object.
func incompatible(r *value.Realm, method string, this value.Value) {
	r.ThrowType("Method %s called on incompatible receiver %s", method, plain(r, this))
}

// notIterable throws the TypeError of a built-in that needed an iterable.
func notIterable(r *value.Realm, v value.Value) {
	r.ThrowType("%s is not iterable (cannot read property Symbol(Symbol.iterator))", typed(r, v))
}

// notFunctionProperty throws V8's TypeError for a method looked up on an
// object that turned out not to be callable.
func notFunctionProperty(r *value.Realm, v value.Value, key string, o value.Value) {
	name := key
	if s := value.SymbolOfKey(key); s != nil {
		name = "Symbol(" + s.Description + ")"
	}
	r.ThrowType("'%s' returned for property '%s' of object '%s' is not a function", plain(r, v), name, plain(r, o))
}
