// Package array is the array area of codemode's standard library: the
// Array constructor, its statics and every Array.prototype method.
//
// Every method is generic, as the specification writes them: it works on
// any array-like through property reads and writes (r.Get, r.Set,
// HasProperty), so getters, setters and valueOf run exactly when they
// would in V8. Beside each generic path sits a fast path for the common
// case, an array whose elements are plain data in a slice (ArrayData) and
// whose prototype chain holds no elements: there a hole simply means
// "absent" and reading an element can run no program code, so the slice
// is walked directly wherever no program code runs in between. Methods
// that call back into the program (map, filter, sort...) read each
// element afresh on every step, because the callback may change the
// array.
package array

import (
	"math"
	"strconv"

	"github.com/go-codemode/codemode/internal/jsnum"
	"github.com/go-codemode/codemode/value"
)

// maxSafeInteger is 2^53-1, the longest an array-like may grow.
const maxSafeInteger = 1<<53 - 1

// The memory count of a new array: the object, and each element slot.
const (
	objectBytes = 96
	elemBytes   = 24 // a value.Value
)

// chunk is how many elements a fast path handles between two Ticks: the
// loop bodies are a few nanoseconds, so ticking per chunk keeps them fast
// while a 10 M-element walk still checks the deadline every few µs.
const chunk = value.TickInterval

// Install adds the Array constructor and Array.prototype's methods to a
// library. Array.prototype itself (with values and [Symbol.iterator]) is
// made by the core; this only extends it.
func Install(l *value.Library) {
	l.Intrinsic(value.ArrayCtor, value.IntrinsicSpec{Name: "Array",
		Func: arrayCtor,
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("prototype", value.Obj(r.Intrinsic(value.ArrayPrototype)), 0)
			r.Methods(o, statics)
		}})
	l.Extend(value.ArrayPrototype, func(r *value.Realm, o *value.Object) {
		o.Define("constructor", value.Obj(r.Intrinsic(value.ArrayCtor)), value.Writable|value.Configurable)
		r.Methods(o, protoMethods())
	})
	l.GlobalIntrinsic("Array", value.ArrayCtor)
	l.Register(statics...)
	l.Register(protoMethods()...)
}

// protoMethods lists Array.prototype's methods in V8's order.
func protoMethods() []*value.Native {
	return []*value.Native{
		arrayAt, arrayConcat, arrayCopyWithin, arrayFill, arrayFind, arrayFindIndex,
		arrayFindLast, arrayFindLastIndex, arrayLastIndexOf, arrayPop, arrayPush,
		arrayReverse, arrayShift, arrayUnshift, arraySlice, arraySort, arraySplice,
		arrayIncludes, arrayIndexOf, arrayJoin, arrayKeys, arrayEntries, arrayForEach,
		arrayFilter, arrayFlat, arrayFlatMap, arrayMap, arrayEvery, arraySome,
		arrayReduce, arrayReduceRight, arrayToReversed, arrayToSorted, arrayToSpliced,
		arrayWith, arrayToLocaleString, arrayToString,
	}
}

// ---------------------------------------------------------------------------
// The constructor and its statics

var arrayCtor = &value.Native{Name: "Array", Length: 1, Ctor: true, Fn: func(r *value.Realm, c *value.Call) value.Value {
	proto := r.Intrinsic(value.ArrayPrototype)
	if c.NewTarget != nil {
		proto = r.ProtoFromCtor(c.NewTarget, value.ArrayPrototype)
	}
	if len(c.Args) == 1 && c.Args[0].IsNumber() {
		n := c.Args[0].Num()
		if !(n >= 0 && n <= value.MaxArrayLength) || n != math.Trunc(n) {
			r.ThrowRange(value.ArrayLengthMessage)
		}
		o := value.NewArray(proto, nil)
		_ = o.Array().SetLength(int(n)) // in range: checked above
		r.Charge(objectBytes)
		return value.Obj(o)
	}
	elems := append([]value.Value(nil), c.Args...)
	r.Charge(objectBytes + elemBytes*len(elems))
	return value.Obj(value.NewArray(proto, elems))
}}

var statics = []*value.Native{
	{Name: "Array.isArray", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
		return value.Bool(isArray(c.Arg(0)))
	}},
	{Name: "Array.from", Length: 1, Fn: arrayFrom},
	{Name: "Array.of", Length: 0, Fn: func(r *value.Realm, c *value.Call) value.Value {
		if ctor := subclassCtor(r, c.This); ctor != nil {
			o := r.Construct(value.Obj(ctor), []value.Value{value.Number(float64(len(c.Args)))}, nil)
			b := out{obj: o.AsObject()}
			for i, v := range c.Args {
				b.put(r, i, v)
			}
			b.setLength(r, len(c.Args))
			return o
		}
		elems := append([]value.Value(nil), c.Args...)
		return value.Obj(r.NewArrayValue(elems))
	}},
}

// subclassCtor returns this when Array.from or Array.of is called on a
// constructor other than Array itself (a subclass, or any constructor
// through call), which the result is then made with; nil means a plain
// array.
func subclassCtor(r *value.Realm, this value.Value) *value.Object {
	o := this.AsObject()
	if o == nil || o == r.Intrinsic(value.ArrayCtor) || !value.IsConstructor(this) {
		return nil
	}
	return o
}

// arrayFrom is Array.from(items, mapfn, thisArg).
func arrayFrom(r *value.Realm, c *value.Call) value.Value {
	items, mapFn, thisArg := c.Arg(0), c.Arg(1), c.Arg(2)
	var mapper *value.Object
	if !mapFn.IsUndefined() {
		mapper = callable(r, mapFn)
	}
	ctor := subclassCtor(r, c.This)
	if items.IsNullish() {
		r.ThrowType("%s is not iterable (cannot read property Symbol(Symbol.iterator))", describeCallee(items))
	}
	var b out
	if src := items.AsObject(); src != nil && src.Class == value.ClassArray && ctor == nil && mapper == nil {
		// An array whose iteration nobody changed: IterateToSlice walks it
		// without an iterator object.
		elems := r.IterateToSlice(items)
		return value.Obj(r.NewArrayValue(elems))
	}
	method := r.Get(items, value.SymIterator.Key())
	if !method.IsNullish() {
		m := method.AsObject()
		if m == nil || !m.Callable() {
			r.ThrowType("%s", "%Array%.from requires that the property of the first argument, items[Symbol.iterator], when exists, be a function")
		}
		if ctor != nil {
			b = out{obj: r.Construct(value.Obj(ctor), nil, nil).AsObject()}
		} else {
			b = newOut(r, 0, 0)
		}
		it := iteratorFrom(r, items, m)
		k := 0
		for {
			v, ok := it.Step(r)
			if !ok {
				break
			}
			r.Poll()
			if k%chunk == 0 {
				b.meter(r) // charge the growth in steps
			}
			if k >= value.MaxArrayLength {
				it.CloseQuietly(r)
				r.ThrowRange(value.ArrayLengthMessage)
			}
			if mapper != nil || b.a == nil {
				if exc := r.Try(func() {
					if mapper != nil {
						v = r.CallObject(mapper, thisArg, []value.Value{v, value.Number(float64(k))})
					}
					b.put(r, k, v)
				}); exc != nil {
					it.CloseQuietly(r)
					panic(exc)
				}
			} else {
				b.push(r, v)
			}
			k++
		}
		b.setLength(r, k)
		return b.value(r)
	}
	// An array-like.
	n := r.LengthOf(items)
	if ctor != nil {
		b = out{obj: r.Construct(value.Obj(ctor), []value.Value{value.Number(float64(n))}, nil).AsObject()}
	} else {
		b = newOut(r, n, n)
	}
	for k := 0; k < n; k++ {
		r.Poll()
		v := r.GetIndex(items, k)
		if mapper != nil {
			v = r.CallObject(mapper, thisArg, []value.Value{v, value.Number(float64(k))})
		}
		b.put(r, k, v)
	}
	b.setLength(r, n)
	return b.value(r)
}

// iteratorFrom calls an @@iterator method and records the iterator.
func iteratorFrom(r *value.Realm, items value.Value, method *value.Object) *value.IteratorRecord {
	if method.Internal == value.ArrayValues || method.Internal == value.StringIterator {
		// The intrinsic iteration: GetIterator walks an array or a string
		// without iterator objects when nobody changed %ArrayIteratorPrototype%.
		return r.GetIterator(items)
	}
	it := r.CallObject(method, items, nil)
	if !it.IsObject() {
		r.ThrowType("Result of the Symbol.iterator method is not an object")
	}
	return &value.IteratorRecord{Iterator: it, Next: r.Get(it, "next")}
}

// ---------------------------------------------------------------------------
// Receivers and arguments

// receiver is ToObject(this) with the TypeError V8 gives these methods
// (which differs between methods, as V8's own does: "Array.prototype.map
// called on null or undefined" or "Cannot convert undefined or null to
// object"). A primitive becomes its wrapper object, so that
// Array.prototype.fill.call(1) returns an object as in JavaScript.
func receiver(r *value.Realm, c *value.Call, calledOn string) value.Value {
	if c.This.IsNullish() {
		if calledOn != "" {
			r.ThrowType("%s called on null or undefined", calledOn)
		}
		r.ThrowType("Cannot convert undefined or null to object")
	}
	if !c.This.IsObject() {
		return value.Obj(r.ToObject(c.This))
	}
	return c.This
}

// callable returns v as a function object, or throws V8's TypeError for
// a callback that is not one ("number 3 is not a function").
func callable(r *value.Realm, v value.Value) *value.Object {
	if o := v.AsObject(); o != nil && o.Callable() {
		return o
	}
	r.ThrowType("%s is not a function", describeCallee(v))
	return nil
}

// describeCallee renders a value the way V8's built-ins do when it is not
// the function they expected: its type, then its value for primitives.
func describeCallee(v value.Value) string {
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
	case value.KindSymbol:
		return "symbol"
	}
	return "object"
}

// objectTag renders an object as V8's messages do: [object Array] for
// arrays, #<Name> after its constructor for others.
func objectTag(r *value.Realm, v value.Value) string {
	o := v.AsObject()
	if o == nil {
		if v.IsString() {
			return "[object String]"
		}
		s, _ := v.ToString()
		if s == nil {
			return v.TypeOf()
		}
		return s.String()
	}
	if o.Class == value.ClassArray {
		return "[object Array]"
	}
	name := "Object"
	if p, _ := o.Lookup("constructor"); p != nil && !p.IsAccessor() {
		if f := p.Value.AsObject(); f != nil && f.Callable() {
			if n := r.FunctionName(f); n != "" {
				name = n
			}
		}
	}
	return "#<" + name + ">"
}

// isArray is IsArray: only true arrays (not arguments, not array-likes).
func isArray(v value.Value) bool {
	o := v.AsObject()
	return o != nil && o.Class == value.ClassArray
}

// integer converts a numeric argument (ToIntegerOrInfinity).
func integer(r *value.Realm, v value.Value) float64 {
	if v.IsNumber() {
		return jsnum.ToIntegerOrInfinity(v.Num())
	}
	return r.ToIntegerOrInfinity(v)
}

// clampIndex turns an integer (possibly infinite) into an index clamped
// to [0, n].
func clampIndex(f float64, n int) int {
	if f <= 0 {
		return 0
	}
	if f >= float64(n) {
		return n
	}
	return int(f)
}

// relative resolves a relative index argument against length n: negative
// counts from the end, and the result is clamped to [0, n]. undefined
// gives dflt.
func relative(r *value.Realm, v value.Value, n, dflt int) int {
	if v.IsUndefined() {
		return dflt
	}
	f := integer(r, v)
	if f < 0 {
		f += float64(n)
	}
	return clampIndex(f, n)
}

func key(i int) string { return strconv.Itoa(i) }

// ---------------------------------------------------------------------------
// Element access on any array-like

// has is HasProperty(o, i).
func has(r *value.Realm, v value.Value, i int) bool {
	if o := v.AsObject(); o != nil {
		if a := o.Array(); a != nil {
			if _, ok := a.Get(i); ok {
				return true
			}
		}
		return r.HasProperty(o, key(i))
	}
	if s := v.AsString(); s != nil && i < s.Len() {
		return true
	}
	return r.HasProperty(r.ProtoOf(v), key(i))
}

// get is Get(o, i).
func get(r *value.Realm, v value.Value, i int) value.Value { return r.GetIndex(v, i) }

// elem reads element i for the methods that skip holes: the value and
// true when present. a is the receiver's ArrayData, if any, so that
// present elements (own data properties) are read without a lookup. A
// hole is absent when the prototype chain holds no elements (checked
// now, since a callback may have changed it); otherwise it goes through
// HasProperty, which may find an inherited element.
func elem(r *value.Realm, v value.Value, a *value.ArrayData, i int) (value.Value, bool) {
	if a != nil {
		if x, ok := a.Get(i); ok {
			return x, true
		}
		if _, fa := fast(r, v); fa != nil {
			return value.Undefined, false
		}
	}
	if !has(r, v, i) {
		return value.Undefined, false
	}
	return r.Get(v, key(i)), true
}

// elemOrUndefined reads element i for the methods that visit holes.
func elemOrUndefined(r *value.Realm, v value.Value, a *value.ArrayData, i int) value.Value {
	if a != nil {
		if x, ok := a.Get(i); ok {
			return x
		}
		if _, fa := fast(r, v); fa != nil {
			return value.Undefined
		}
	}
	return r.Get(v, key(i))
}

// arrayData returns the receiver's element store, if it has one.
func arrayData(v value.Value) *value.ArrayData {
	if o := v.AsObject(); o != nil {
		return o.Array()
	}
	return nil
}

// set is Set(o, i, val, true), with V8's messages for frozen and
// non-extensible arrays.
func set(r *value.Realm, v value.Value, i int, val value.Value) {
	if o := v.AsObject(); o != nil {
		if a := o.Array(); a != nil && o.Class == value.ClassArray {
			_, present := a.Get(i)
			switch {
			case present && a.Frozen:
				r.ThrowType("Cannot assign to read only property '%d' of object '[object Array]'", i)
			case !present && (a.Frozen || !o.Extensible()) && !o.HasIndexKeys():
				r.ThrowType("Cannot add property %d, object is not extensible", i)
			}
		}
	}
	r.Set(v, key(i), val)
}

// setLength is Set(o, "length", n, true).
func setLength(r *value.Realm, v value.Value, n int) {
	r.Set(v, "length", value.Number(float64(n)))
}

// del is DeletePropertyOrThrow(o, i).
func del(r *value.Realm, v value.Value, i int) {
	o := v.AsObject()
	if o == nil {
		if s := v.AsString(); s != nil && i < s.Len() {
			r.ThrowType("Cannot delete property '%d' of [object String]", i)
		}
		return
	}
	if !r.DeleteProp(o, key(i)) {
		r.ThrowType("Cannot delete property '%d' of %s", i, objectTag(r, v))
	}
}

// ---------------------------------------------------------------------------
// Fast paths

// fast returns the receiver's elements when it is an array-backed object
// whose elements are all own data in ArrayData (no accessor elements) and
// whose prototype chain holds no elements: then a hole reads as
// undefined, HasProperty is presence in the slice, and walking the
// elements runs no program code. It checks the state now: call it again
// after anything that may have run program code.
func fast(r *value.Realm, v value.Value) (*value.Object, *value.ArrayData) {
	o := v.AsObject()
	if o == nil {
		return nil, nil
	}
	a := o.Array()
	if a == nil || o.HasIndexKeys() {
		return nil, nil
	}
	for p := o.Proto; p != nil; p = p.Proto {
		if p.HasIndexKeys() {
			return nil, nil
		}
		switch in := p.Internal.(type) {
		case *value.ArrayData:
			if in.Len() > 0 {
				return nil, nil
			}
		case value.Indexed:
			return nil, nil
		}
	}
	return o, a
}

// fastDense is fast with every element in one slice (holes marked).
func fastDense(r *value.Realm, v value.Value) ([]value.Value, bool) {
	_, a := fast(r, v)
	if a == nil {
		return nil, false
	}
	return a.Dense()
}

// fastWritable is fast for the methods that change the array: it also
// needs every element writable and configurable, a writable length and
// an extensible object, so that no write can fail.
func fastWritable(r *value.Realm, v value.Value) *value.ArrayData {
	o, a := fast(r, v)
	if a == nil || o.Class != value.ClassArray || a.Frozen || a.Sealed || a.LengthReadOnly || !o.Extensible() {
		return nil
	}
	return a
}

// ---------------------------------------------------------------------------
// Results

// out is the array a method builds: a fresh plain array (a set) that no
// program code can see until it is returned, written directly; or an
// object made by a subclass constructor (a nil), written through
// CreateDataPropertyOrThrow.
type out struct {
	obj     *value.Object
	a       *value.ArrayData
	charged int // element slots counted in the memory budget so far
}

// newOut makes a fresh array of the given length with room for capHint
// elements.
func newOut(r *value.Realm, length, capHint int) out {
	if length > value.MaxArrayLength {
		r.ThrowRange(value.ArrayLengthMessage)
	}
	capHint = min(capHint, value.MaxArrayLength)
	r.Charge(objectBytes + elemBytes*capHint) // before the slice is made
	o := value.NewArray(r.Intrinsic(value.ArrayPrototype), make([]value.Value, 0, capHint))
	a := o.Array()
	_ = a.SetLength(length) // in range: checked above
	return out{obj: o, a: a, charged: capHint}
}

// wrap makes an out of a finished slice of elements.
func wrap(r *value.Realm, elems []value.Value) value.Value {
	return value.Obj(r.NewArrayValue(elems))
}

// species is the constructor part of ArraySpeciesCreate(original, n):
// nil for a plain array, else the constructor to make the result with.
// codemode has no Symbol.species, so the species of an array is what
// Array's inherited @@species getter would give: the array's constructor
// when that is a subclass of Array, else Array itself.
func species(r *value.Realm, original value.Value) *value.Object {
	if !isArray(original) {
		return nil
	}
	c := r.Get(original, "constructor")
	if c.IsUndefined() {
		return nil
	}
	co := c.AsObject()
	if co == nil {
		r.ThrowType("object.constructor[Symbol.species] is not a constructor")
	}
	ctor := r.Intrinsic(value.ArrayCtor)
	if co == ctor || !derivesFrom(co, ctor) {
		return nil
	}
	if !value.IsConstructor(c) {
		r.ThrowType("object.constructor[Symbol.species] is not a constructor")
	}
	return co
}

// create makes the result array of a method: a fresh array when ctor is
// nil, else new ctor(length).
func create(r *value.Realm, ctor *value.Object, length, capHint int) out {
	if ctor == nil {
		return newOut(r, length, capHint)
	}
	if length > value.MaxArrayLength {
		r.ThrowRange(value.ArrayLengthMessage)
	}
	res := r.Construct(value.Obj(ctor), []value.Value{value.Number(float64(length))}, nil)
	if !res.IsObject() {
		r.ThrowType("object.constructor[Symbol.species] is not a constructor")
	}
	return out{obj: res.AsObject()}
}

// derivesFrom reports whether f inherits from base (class f extends base).
func derivesFrom(f, base *value.Object) bool {
	for p := f.Proto; p != nil; p = p.Proto {
		if p == base {
			return true
		}
	}
	return false
}

// put is CreateDataPropertyOrThrow(A, i, v).
func (b *out) put(r *value.Realm, i int, v value.Value) {
	if b.a != nil {
		if b.a.Set(i, v) != nil {
			r.ThrowRange(value.ArrayLengthMessage)
		}
		return
	}
	if !r.DefineProperty(b.obj, value.Property{Key: key(i), Value: v, Flags: value.DefaultFlags}) {
		r.ThrowType("Cannot add property %d, object is not extensible", i)
	}
}

// push appends to a fresh array.
func (b *out) push(r *value.Realm, vs ...value.Value) {
	if b.a.Push(vs...) != nil {
		r.ThrowRange(value.ArrayLengthMessage)
	}
}

// setLength is Set(A, "length", n, true).
func (b *out) setLength(r *value.Realm, n int) {
	if b.a != nil {
		if b.a.SetLength(n) != nil {
			r.ThrowRange(value.ArrayLengthMessage)
		}
		return
	}
	setLength(r, value.Obj(b.obj), n)
}

// value returns the result, charging the elements a fresh array grew by.
func (b *out) value(r *value.Realm) value.Value {
	b.meter(r)
	return value.Obj(b.obj)
}

// meter charges the elements a fresh array grew by since the last call:
// a long build calls it as it goes, so that the budget stops it in steps.
func (b *out) meter(r *value.Realm) {
	if b.a != nil {
		if d, ok := b.a.Dense(); ok && len(d) > b.charged {
			r.Charge(elemBytes * (len(d) - b.charged))
			b.charged = len(d)
			if cap(d)-len(d) < chunk {
				// The next chunk grows the slice: check that the new
				// backing array (about twice this one) fits first.
				r.Reserve(elemBytes * cap(d))
			}
		}
	}
}

// checkLength throws V8's TypeError when an array-like would grow past
// 2^53-1, and the RangeError of the reference's cap when an array would
// grow past MaxArrayLength.
func checkLength(r *value.Realm, v value.Value, n int) {
	if n > maxSafeInteger {
		r.ThrowType(value.ArrayLengthMessage)
	}
	if n > value.MaxArrayLength && isArray(v) {
		r.ThrowRange(value.ArrayLengthMessage)
	}
}
