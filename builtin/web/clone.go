package web

// structuredClone: a deep copy of data (objects, arrays, Map, Set, Date,
// RegExp, Error, Uint8Array and primitives) that keeps shared references
// and cycles. What cannot be cloned (functions, promises, symbols,
// generators, iterators, weak collections, URL, Response and the other
// platform objects) throws a TypeError whose message is V8's DataCloneError
// message after "DataCloneError: ", as the reference has it.

import (
	"github.com/go-codemode/codemode/value"
)

func installClone(l *value.Library) {
	globalFunc(l, structuredCloneNative)
}

var structuredCloneNative = native("structuredClone", 2, func(r *value.Realm, c *value.Call) value.Value {
	if len(c.Args) == 0 {
		throwCoded(r, value.TypeError, "ERR_MISSING_ARGS", `The "The value argument must be specified" argument must be specified`)
	}
	if opts := c.Arg(1); !opts.IsNullish() {
		if !opts.IsObject() {
			r.ThrowType("Failed to execute 'structuredClone': Options cannot be converted to a dictionary")
		}
		if t := r.Get(opts, "transfer"); !t.IsUndefined() {
			method := value.Undefined
			if t.IsObject() {
				method = r.Get(t, value.SymIterator.Key())
			}
			if !isCallable(method) {
				r.ThrowType("Failed to execute 'structuredClone': transfer in Options cannot be converted to sequence.")
			}
			// Nothing codemode has is transferable.
			if len(iterateWith(r, t, method)) > 0 {
				dataCloneError(r, "Found invalid value in transferList.")
			}
		}
	}
	cl := &cloner{r: r, memo: map[*value.Object]*value.Object{}, buffers: map[*byteBuffer]*byteBuffer{}}
	return cl.clone(c.Args[0])
})

func dataCloneError(r *value.Realm, msg string) {
	r.ThrowType("DataCloneError: %s", msg)
}

type cloner struct {
	r       *value.Realm
	memo    map[*value.Object]*value.Object
	buffers map[*byteBuffer]*byteBuffer
}

// errorNames are the error types a clone keeps; others become Error.
var errorNames = map[string]value.ErrorType{"Error": value.Error, "EvalError": value.EvalError, "RangeError": value.RangeError,
	"ReferenceError": value.ReferenceError, "SyntaxError": value.SyntaxError, "TypeError": value.TypeError, "URIError": value.URIError}

func (cl *cloner) clone(v value.Value) value.Value {
	r := cl.r
	if v.IsSymbol() {
		dataCloneError(r, v.AsSymbol().String()+" could not be cloned.")
	}
	o := v.AsObject()
	if o == nil {
		return v
	}
	if c, ok := cl.memo[o]; ok {
		return value.Obj(c)
	}
	r.Enter()
	defer r.Leave()
	r.Poll()
	if o.Callable() {
		dataCloneError(r, functionSource(r, o)+" could not be cloned.")
	}
	if _, ok := o.Internal.(*responseData); ok {
		dataCloneError(r, "Cannot clone object of unsupported type.")
	}
	switch o.Class {
	case value.ClassPromise:
		dataCloneError(r, "#<Promise> could not be cloned.")
	case value.ClassWeakMap:
		dataCloneError(r, "#<WeakMap> could not be cloned.")
	case value.ClassWeakSet:
		dataCloneError(r, "#<WeakSet> could not be cloned.")
	case value.ClassGenerator, value.ClassIterator:
		dataCloneError(r, "[object "+tagOf(o)+"] could not be cloned.")
	case value.ClassURL, value.ClassURLSearchParams, value.ClassHeaders:
		dataCloneError(r, "Cannot clone object of unsupported type.")
	case value.ClassSymbol:
		dataCloneError(r, "[object Symbol] could not be cloned.")
	case value.ClassBoolean, value.ClassNumber, value.ClassString:
		// A wrapper clones to a wrapper of the same primitive, with the
		// intrinsic prototype (a subclass is not kept).
		if p, ok := o.PrimitiveValue(); ok {
			c := r.ToObject(p)
			cl.memo[o] = c
			return value.Obj(c)
		}
	case value.ClassDate:
		return cl.date(o, v)
	case value.ClassRegExp:
		src, flags := r.Get(v, "source"), r.Get(v, "flags")
		c := r.Construct(value.Obj(r.Intrinsic(value.RegExpCtor)), []value.Value{src, flags}, nil)
		cl.memo[o] = c.AsObject()
		return c
	case value.ClassError:
		return cl.errorObject(o, v)
	case value.ClassMap, value.ClassSet:
		m, ok := o.Internal.(*value.OrderedMap)
		if !ok {
			break
		}
		proto := value.MapPrototype
		if o.Class == value.ClassSet {
			proto = value.SetPrototype
		}
		c := value.NewObject(r.Intrinsic(proto))
		c.Class = o.Class
		cm := value.NewOrderedMap()
		c.Internal = cm
		cl.memo[o] = c
		keys, vals := m.Entries()
		r.Charge(128 + 64*len(keys))
		for i, k := range keys {
			ck := cl.clone(k)
			if o.Class == value.ClassSet {
				cm.Set(ck, ck)
			} else {
				cm.Set(ck, cl.clone(vals[i]))
			}
		}
		return value.Obj(c)
	case value.ClassUint8Array:
		d := o.Internal.(*u8Data)
		nb, ok := cl.buffers[d.buf]
		if !ok {
			r.Charge(len(d.buf.data))
			nb = &byteBuffer{data: append([]byte(nil), d.buf.data...)}
			cl.buffers[d.buf] = nb
		}
		c := value.NewObject(r.Intrinsic(value.Uint8ArrayPrototype))
		c.Class = value.ClassUint8Array
		c.Internal = &u8Data{buf: nb, off: d.off, n: d.n}
		r.Charge(128)
		cl.memo[o] = c
		return value.Obj(c)
	case value.ClassArray:
		c := r.NewArrayValue(nil)
		cl.memo[o] = c
		if err := c.Array().SetLength(r.LengthOf(v)); err != nil {
			r.ThrowRange(value.ArrayLengthMessage)
		}
		if cl.copyPrimitiveElements(o, c) {
			return value.Obj(c)
		}
		cl.copyProps(o, v, c)
		return value.Obj(c)
	}
	c := r.NewPlainObject()
	cl.memo[o] = c
	cl.copyProps(o, v, c)
	return value.Obj(c)
}

// copyPrimitiveElements clones an array whose elements are primitives in
// one slice and which has no other own enumerable property, without a
// key string per element: copying them runs no program code. It reports
// whether it did.
func (cl *cloner) copyPrimitiveElements(o, c *value.Object) bool {
	a := o.Array()
	if a == nil || o.HasIndexKeys() || len(o.OwnKeys(true)) > 0 {
		return false
	}
	d, ok := a.Dense()
	if !ok {
		return false
	}
	for _, e := range d {
		if e.IsObject() {
			return false
		}
	}
	r := cl.r
	r.Tick(len(d))
	r.Reserve(24 * len(d))
	elems := make([]value.Value, len(d))
	copy(elems, d)
	r.Charge(24 * len(d))
	if c.Array().Adopt(elems) != nil {
		r.ThrowRange(value.ArrayLengthMessage)
	}
	return true
}

// copyProps clones the own enumerable string-keyed properties of o.
func (cl *cloner) copyProps(o *value.Object, v value.Value, c *value.Object) {
	r := cl.r
	for _, k := range r.OwnKeys(o, true, false) {
		r.Poll()
		if !r.HasOwn(o, k) {
			continue
		}
		x := cl.clone(r.Get(v, k))
		r.DefineProperty(c, value.Property{Key: k, Value: x, Flags: value.DefaultFlags})
	}
}

func (cl *cloner) date(o *value.Object, v value.Value) value.Value {
	r := cl.r
	var t value.Value
	if n := r.Library().Native("Date.prototype.getTime"); n != nil && n.Fn != nil {
		t = n.Fn(r, &value.Call{This: v})
	} else {
		t = r.Call(r.Get(v, "getTime"), v, nil)
	}
	c := r.Construct(value.Obj(r.Intrinsic(value.DateCtor)), []value.Value{t}, nil)
	cl.memo[o] = c.AsObject()
	return c
}

func (cl *cloner) errorObject(o *value.Object, v value.Value) value.Value {
	r := cl.r
	t := value.Error
	if n := r.Get(v, "name"); n.IsString() {
		if et, ok := errorNames[n.AsString().String()]; ok {
			t = et
		}
	}
	var msg *value.String
	if p, ok := r.GetOwnProperty(o, "message"); ok && !p.IsAccessor() {
		msg = r.ToString(p.Value)
	}
	c := r.NewError(t, "")
	c.Delete("message")
	cl.memo[o] = c
	if msg != nil {
		c.Define("message", value.Str(msg), value.Writable|value.Configurable)
	}
	if p, ok := r.GetOwnProperty(o, "cause"); ok && !p.IsAccessor() {
		c.Define("cause", cl.clone(p.Value), value.Writable|value.Configurable)
	}
	r.Charge(128)
	return value.Obj(c)
}

// tagOf is an object's Symbol.toStringTag found as a data property on
// its prototype chain (iterators and generators have one).
func tagOf(o *value.Object) string {
	for p := o; p != nil; p = p.Proto {
		if d := p.GetOwn(value.SymToStringTag.Key()); d != nil && !d.IsAccessor() && d.Value.IsString() {
			return d.Value.AsString().String()
		}
	}
	return "Object"
}
