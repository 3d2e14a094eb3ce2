// Package web is the web-platform area of codemode's standard library:
// the URI functions, atob/btoa, URL and URLSearchParams (WHATWG),
// Headers and Response (as undici has them), Uint8Array,
// TextEncoder/TextDecoder, crypto, and structuredClone.
//
// Error messages are node 26's: V8's for the language parts, node's own
// (ERR_* codes, which node puts on the error as an enumerable `code`)
// for URL, URLSearchParams and the encoders, undici's for Headers and
// Response. The
// DOMException errors node throws (InvalidCharacterError from atob/btoa,
// QuotaExceededError from crypto.getRandomValues) are plain Errors here
// whose own, non-enumerable `name` and `code` say what node's say, so
// that `e.name + ": " + e.message` reads the same and `e instanceof
// Error` holds; structuredClone's DataCloneError is a TypeError whose
// message starts "DataCloneError: ", as the reference has it.
package web

import (
	"strings"

	"github.com/go-codemode/codemode/value"
)

// Install adds this area to a library.
func Install(l *value.Library) {
	installURI(l)
	installURL(l)
	installParams(l)
	installHeaders(l)
	installResponse(l)
	installUint8Array(l)
	installText(l)
	installCrypto(l)
	installClone(l)
}

// native builds a built-in function description.
func native(name string, length int, fn value.NativeFunc) *value.Native {
	return &value.Native{Name: name, Length: length, Fn: fn}
}

// globalFunc makes name a global built-in function.
func globalFunc(l *value.Library, n *value.Native) {
	l.Global(n.Name, func(r *value.Realm) value.Value { return value.Obj(r.NewNative(n)) })
	l.Register(n)
}

// usv converts an argument to a USVString as Go text: ToString, with
// every lone surrogate replaced by U+FFFD.
func usv(r *value.Realm, v value.Value) string { return r.ToString(v).String() }

// throwCoded throws an error of type t carrying node's error code (an
// own enumerable property, as node has it) and any extra properties.
func throwCoded(r *value.Realm, t value.ErrorType, code, msg string, extra ...string) {
	e := r.RaisedError(t, msg)
	e.Define("code", value.StrOf(code), value.DefaultFlags)
	for i := 0; i+1 < len(extra); i += 2 {
		e.Define(extra[i], value.StrOf(extra[i+1]), value.DefaultFlags)
	}
	r.Throw(value.Obj(e))
}

// throwDOM throws the stand-in for a DOMException: an Error whose own
// non-enumerable name and code are the DOMException's.
func throwDOM(r *value.Realm, name string, code int, msg string) {
	e := r.RaisedError(value.Error, msg)
	e.Define("name", value.StrOf(name), value.Writable|value.Configurable)
	e.Define("code", value.Number(float64(code)), value.Writable|value.Configurable)
	r.Throw(value.Obj(e))
}

// requireNew throws V8's error for a class constructor called without new.
func requireNew(r *value.Realm, c *value.Call, name string) {
	if c.NewTarget == nil {
		r.ThrowType("Class constructor %s cannot be invoked without 'new'", name)
	}
}

// isCallable reports a function.
func isCallable(v value.Value) bool {
	o := v.AsObject()
	return o != nil && o.Callable()
}

// received renders a value the way node's ERR_INVALID_ARG_TYPE
// messages end: "Received type number (1)", "Received an instance of
// Map", "Received null".
func received(r *value.Realm, v value.Value) string {
	switch v.Kind() {
	case value.KindUndefined:
		return "Received undefined"
	case value.KindNull:
		return "Received null"
	case value.KindObject:
		o := v.AsObject()
		if o.Callable() {
			return "Received function " + r.FunctionName(o)
		}
		if name := constructorName(r, o); name != "" {
			return "Received an instance of " + name
		}
		return "Received [Object: null prototype] {}"
	}
	var s string
	switch v.Kind() {
	case value.KindString:
		s = "'" + strings.ReplaceAll(v.AsString().String(), "'", "\\'") + "'"
	case value.KindSymbol:
		s = "Symbol(" + v.AsSymbol().Description + ")"
	case value.KindNumber:
		if f := v.Num(); f == 0 && 1/f < 0 {
			s = "-0"
		} else {
			s = value.NumberToString(f).String()
		}
	default:
		s = r.ToString(v).String()
	}
	if v.IsString() {
		if u := []rune(v.AsString().String()); len(u) > 28 {
			s = "'" + strings.ReplaceAll(string(u[:25]), "'", "\\'") + "...'"
		}
	} else if len([]rune(s)) > 28 {
		s = string([]rune(s)[:25]) + "..."
	}
	return "Received type " + v.TypeOf() + " (" + s + ")"
}

// constructorName finds the name of an object's constructor along its
// prototype chain without running program code (data properties only).
func constructorName(r *value.Realm, o *value.Object) string {
	for p := o; p != nil; p = p.Proto {
		if d := p.GetOwn("constructor"); d != nil && !d.IsAccessor() {
			if f := d.Value.AsObject(); f != nil && f.Callable() {
				if n := r.FunctionName(f); n != "" {
					return n
				}
			}
		}
	}
	return ""
}

// iterProto returns the per-run prototype of a built-in iterator kind
// ("URLSearchParams Iterator"), kept on the owning intrinsic under a
// private key so that programs cannot see or replace it.
func iterProto(r *value.Realm, owner value.Intrinsic, tag string, next *value.Native) *value.Object {
	host := r.Intrinsic(owner)
	key := "\xfe%" + tag + "%"
	if p := host.GetOwn(key); p != nil {
		return p.Value.AsObject()
	}
	proto := value.NewObject(r.Intrinsic(value.IteratorPrototype))
	webMethods(r, proto, []*value.Native{next})
	proto.Define(value.SymToStringTag.Key(), value.StrOf(tag), value.Configurable)
	host.Define(key, value.Obj(proto), 0)
	return proto
}

// webMethods defines methods the way Web IDL does: enumerable, unlike
// the language's own built-ins.
func webMethods(r *value.Realm, o *value.Object, ns []*value.Native) {
	for _, n := range ns {
		f := r.NewNative(n)
		o.Define(value.MethodKey(n), value.Obj(f), value.Writable|value.Enumerable|value.Configurable)
	}
}

// accessor defines a built-in accessor property named key whose
// functions are named "get key" and "set key" (set may be nil); Web IDL
// attributes are enumerable.
func accessor(r *value.Realm, o *value.Object, key string, get, set *value.Native, enumerable bool) {
	name := key
	if s := value.SymbolOfKey(key); s != nil {
		name = "[" + s.Description + "]"
	}
	g := r.NewNative(get)
	g.Define("name", value.StrOf("get "+name), value.Configurable)
	var sf *value.Object
	if set != nil {
		sf = r.NewNative(set)
		sf.Define("name", value.StrOf("set "+name), value.Configurable)
	}
	flags := value.Configurable
	if enumerable {
		flags |= value.Enumerable
	}
	o.DefineAccessor(key, g, sf, flags)
}

// constructorFirst defines proto.constructor before anything else, so
// that it comes first in the prototype's keys as it does in node.
func constructorFirst(r *value.Realm, proto *value.Object, ctor value.Intrinsic) {
	proto.Define("constructor", value.Obj(r.Intrinsic(ctor)), value.Writable|value.Configurable)
}

// toStringTag sets an object's Symbol.toStringTag.
func toStringTag(o *value.Object, tag string) {
	o.Define(value.SymToStringTag.Key(), value.StrOf(tag), value.Configurable)
}
