package collections

import (
	"math"

	"github.com/go-codemode/codemode/value"
)

// Iterator, Iterator.from, Iterator.concat and the helpers on
// Iterator.prototype.
//
// The lazy helpers (map, filter, take, drop, flatMap, and concat's
// result) are generators in the specification. Here each is a Helper: a
// small state machine whose fields are plain data, stepped by
// %IteratorHelperPrototype%.next and closed by its return, with the
// generator states the specification observes (not started, suspended at
// a yield, running, completed).

func installIterator(l *value.Library) {
	l.Intrinsic(value.IteratorCtor, value.IntrinsicSpec{Name: "Iterator",
		Func: &value.Native{Name: "Iterator", Length: 0, Ctor: true, Fn: iteratorCtor},
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("prototype", value.Obj(r.Intrinsic(value.IteratorPrototype)), 0)
			r.Methods(o, iteratorStatics)
		}})
	l.Extend(value.IteratorPrototype, func(r *value.Realm, o *value.Object) {
		accessor(r, o, "constructor", "constructor", iterCtorGet, iterCtorSet)
		r.Methods(o, iteratorProto)
		accessor(r, o, value.SymToStringTag.Key(), "[Symbol.toStringTag]", iterTagGet, iterTagSet)
	})
	l.Intrinsic(value.IteratorHelperPrototype, value.IntrinsicSpec{Name: "%IteratorHelperPrototype%", Proto: value.IteratorPrototype,
		Init: func(r *value.Realm, o *value.Object) {
			r.Methods(o, helperProto)
			tag(o, "Iterator Helper")
		}})
	l.Intrinsic(value.WrapForValidIteratorPrototype, value.IntrinsicSpec{Name: "%WrapForValidIteratorPrototype%", Proto: value.IteratorPrototype,
		Init: func(r *value.Realm, o *value.Object) {
			r.Methods(o, wrapProto)
		}})
	l.GlobalIntrinsic("Iterator", value.IteratorCtor)
	l.Register(iteratorStatics...)
	l.Register(iteratorProto...)
	l.Register(helperProto...)
	l.Register(wrapProto...)
	l.Register(iterCtorGet, iterCtorSet, iterTagGet, iterTagSet)
}

func accessor(r *value.Realm, o *value.Object, key, name string, get, set *value.Native) {
	g, s := r.NewNative(get), r.NewNative(set)
	g.Define("name", value.StrOf("get "+name), value.Configurable)
	s.Define("name", value.StrOf("set "+name), value.Configurable)
	o.DefineAccessor(key, g, s, value.Configurable)
}

func iteratorCtor(r *value.Realm, c *value.Call) value.Value {
	if c.NewTarget == nil {
		r.ThrowType("Constructor Iterator requires 'new'")
	}
	if c.NewTarget == r.Intrinsic(value.IteratorCtor) {
		r.ThrowType("Abstract class Iterator not directly constructable")
	}
	return value.Obj(newInstance(r, r.ProtoFromCtor(c.NewTarget, value.IteratorPrototype), value.ClassObject, nil))
}

// Iterator.prototype.constructor and [Symbol.toStringTag] are accessors
// whose setters ignore the prototype itself
// (SetterThatIgnoresPrototypeProperties), so that assigning them on an
// iterator makes an own property.
var (
	iterCtorGet = native("get Iterator.prototype.constructor", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Obj(r.Intrinsic(value.IteratorCtor))
	})
	iterCtorSet = native("set Iterator.prototype.constructor", 1, func(r *value.Realm, c *value.Call) value.Value {
		setIgnoringPrototype(r, c, "constructor", ".constructor")
		return value.Undefined
	})
	iterTagGet = native("get Iterator.prototype[Symbol.toStringTag]", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.StrOf("Iterator")
	})
	iterTagSet = native("set Iterator.prototype[Symbol.toStringTag]", 1, func(r *value.Realm, c *value.Call) value.Value {
		setIgnoringPrototype(r, c, value.SymToStringTag.Key(), "[Symbol.toStringTag]")
		return value.Undefined
	})
)

func setIgnoringPrototype(r *value.Realm, c *value.Call, key, name string) {
	o := c.This.AsObject()
	if o == nil {
		r.ThrowType("set Iterator.prototype%s called on non-object", name)
	}
	shown := key
	if s := value.SymbolOfKey(key); s != nil {
		shown = "Symbol(" + s.Description + ")"
	}
	if o == r.Intrinsic(value.IteratorPrototype) {
		r.ThrowType("Cannot assign to read only property '%s' of object '%s'", shown, plain(r, c.This))
	}
	p, ok := r.GetOwnProperty(o, key)
	if !ok {
		if !r.DefineProperty(o, value.Property{Key: key, Value: c.Arg(0), Flags: value.DefaultFlags}) {
			r.ThrowType("Cannot define property %s, object is not extensible", shown)
		}
		return
	}
	if !p.IsAccessor() && p.Flags&value.Writable == 0 {
		r.ThrowType("Cannot assign to read only property '%s' of object '%s'", shown, plain(r, c.This))
	}
	r.Set(c.This, key, c.Arg(0))
}

// ---------------------------------------------------------------------------
// Iterator.from and Iterator.concat

// getIteratorFlattenable opens what flatMap's mapper returned or what
// Iterator.from was given: an iterable, or an iterator used directly.
// Strings count only when strings is set.
func getIteratorFlattenable(r *value.Realm, obj value.Value, who string, strings bool) *Direct {
	if !obj.IsObject() && !(strings && obj.IsString()) {
		r.ThrowType("%s called on non-object", who)
	}
	method := r.Get(obj, value.SymIterator.Key())
	it := obj
	if !method.IsNullish() {
		if !isCallable(method) {
			notFunctionProperty(r, method, value.SymIterator.Key(), obj)
		}
		it = r.CallObject(method.AsObject(), obj, nil)
	}
	if !it.IsObject() {
		r.ThrowType("%s is not iterable", plain(r, obj))
	}
	return getIteratorDirect(r, it)
}

// Wrap is the Internal of the objects Iterator.from makes for iterators
// that do not inherit from Iterator.prototype.
type Wrap struct {
	Iterated Direct
}

// ConcatItem is one iterable given to Iterator.concat, with its
// Symbol.iterator method read when concat was called.
type ConcatItem struct {
	Method   value.Value
	Iterable value.Value
}

var iteratorStatics = []*value.Native{
	native("Iterator.from", 1, func(r *value.Realm, c *value.Call) value.Value {
		rec := getIteratorFlattenable(r, c.Arg(0), "Iterator.from", true)
		proto := r.Intrinsic(value.IteratorPrototype)
		for p, depth := rec.Iterator.AsObject().Proto, 0; p != nil && depth < 10_000; p, depth = p.Proto, depth+1 {
			if p == proto {
				return rec.Iterator
			}
		}
		return value.Obj(newInstance(r, r.Intrinsic(value.WrapForValidIteratorPrototype), value.ClassIterator, &Wrap{Iterated: *rec}))
	}),
	native("Iterator.concat", 0, func(r *value.Realm, c *value.Call) value.Value {
		items := make([]ConcatItem, 0, len(c.Args))
		for _, item := range c.Args {
			if !item.IsObject() {
				r.ThrowType("Iterator.concat called on non-object")
			}
			method := r.Get(item, value.SymIterator.Key())
			if method.IsNullish() {
				r.ThrowType("%s is not iterable", plain(r, item))
			}
			if !isCallable(method) {
				notFunctionProperty(r, method, value.SymIterator.Key(), item)
			}
			items = append(items, ConcatItem{Method: method, Iterable: item})
		}
		r.Charge(32 * len(items))
		return newHelper(r, &Helper{Kind: HelperConcat, Items: items})
	}),
}

func thisWrap(r *value.Realm, c *value.Call, method string) *Wrap {
	if o := c.This.AsObject(); o != nil {
		if w, ok := o.Internal.(*Wrap); ok {
			return w
		}
	}
	incompatible(r, "%WrapForValidIteratorPrototype%."+method, c.This)
	return nil
}

var wrapProto = []*value.Native{
	native("%WrapForValidIteratorPrototype%.next", 0, func(r *value.Realm, c *value.Call) value.Value {
		w := thisWrap(r, c, "next")
		return r.CallObject(requireCallable(r, w.Iterated.Next), w.Iterated.Iterator, nil)
	}),
	native("%WrapForValidIteratorPrototype%.return", 0, func(r *value.Realm, c *value.Call) value.Value {
		w := thisWrap(r, c, "return")
		it := w.Iterated.Iterator
		ret := r.Get(it, "return")
		if ret.IsNullish() {
			return value.Obj(r.IterResult(value.Undefined, true))
		}
		if !isCallable(ret) {
			notFunctionProperty(r, ret, "return", it)
		}
		return r.CallObject(ret.AsObject(), it, nil)
	}),
}

// ---------------------------------------------------------------------------
// The lazy helpers

// HelperKind says which helper a Helper is.
type HelperKind uint8

// The helper kinds.
const (
	HelperMap HelperKind = iota
	HelperFilter
	HelperTake
	HelperDrop
	HelperFlatMap
	HelperConcat
)

// HelperState is the generator state of a helper.
type HelperState uint8

// The helper states.
const (
	HelperStart HelperState = iota // made, next never called
	HelperSuspended
	HelperRunning
	HelperDone
)

// Helper is the Internal of an iterator helper object.
type Helper struct {
	Kind  HelperKind
	State HelperState
	// Src is the underlying iterator (nil for concat).
	Src *Direct
	// Fn is the mapper or predicate.
	Fn      *value.Object
	Counter float64
	// Limit is what take may still yield or drop must still skip
	// (+Inf for no limit).
	Limit float64
	// Inner is the iterator flatMap or concat is yielding from.
	Inner *Direct
	// Items are the iterables concat has not opened yet.
	Items []ConcatItem
}

func newHelper(r *value.Realm, h *Helper) value.Value {
	return value.Obj(newInstance(r, r.Intrinsic(value.IteratorHelperPrototype), value.ClassIterator, h))
}

// finish completes the helper and lets go of what it held.
func (h *Helper) finish() {
	h.State = HelperDone
	h.Src, h.Fn, h.Inner, h.Items = nil, nil, nil, nil
}

func thisHelper(r *value.Realm, c *value.Call, method string) *Helper {
	if o := c.This.AsObject(); o != nil {
		if h, ok := o.Internal.(*Helper); ok {
			return h
		}
	}
	incompatible(r, "Iterator Helper.prototype."+method, c.This)
	return nil
}

var helperProto = []*value.Native{
	native("%IteratorHelperPrototype%.next", 0, func(r *value.Realm, c *value.Call) value.Value {
		h := thisHelper(r, c, "next")
		switch h.State {
		case HelperRunning:
			r.ThrowType("Generator is already running")
		case HelperDone:
			return value.Obj(r.IterResult(value.Undefined, true))
		}
		// Chains of helpers recurse through their next methods without
		// any program frame in between: count the depth here.
		r.Enter()
		h.State = HelperRunning
		var v value.Value
		var ok bool
		exc := r.Try(func() { v, ok = h.step(r) })
		r.Leave()
		if exc != nil {
			h.finish()
			r.Throw(exc.Value)
		}
		if !ok {
			h.finish()
			return value.Obj(r.IterResult(value.Undefined, true))
		}
		h.State = HelperSuspended
		return value.Obj(r.IterResult(v, false))
	}),
	native("%IteratorHelperPrototype%.return", 0, func(r *value.Realm, c *value.Call) value.Value {
		h := thisHelper(r, c, "return")
		switch h.State {
		case HelperRunning:
			r.ThrowType("Generator is already running")
		case HelperDone:
		case HelperStart:
			src := h.Src
			h.finish()
			if src != nil {
				r.Enter()
				exc := r.Try(func() { src.close(r) })
				r.Leave()
				if exc != nil {
					r.Throw(exc.Value)
				}
			}
		default:
			r.Enter()
			h.State = HelperRunning
			exc := r.Try(func() { h.abort(r) })
			r.Leave()
			h.finish()
			if exc != nil {
				r.Throw(exc.Value)
			}
		}
		return value.Obj(r.IterResult(value.Undefined, true))
	}),
}

// step runs the helper's generator to its next yield: the value, or
// ok=false when it returned.
func (h *Helper) step(r *value.Realm) (value.Value, bool) {
	switch h.Kind {
	case HelperMap:
		v, ok := h.Src.step(r)
		if !ok {
			return v, false
		}
		res := callOrClose(r, h.Src, h.Fn, value.Undefined, []value.Value{v, value.Number(h.Counter)})
		h.Counter++
		return res, true
	case HelperFilter:
		for {
			v, ok := h.Src.step(r)
			if !ok {
				return v, false
			}
			sel := callOrClose(r, h.Src, h.Fn, value.Undefined, []value.Value{v, value.Number(h.Counter)})
			h.Counter++
			if sel.ToBoolean() {
				return v, true
			}
			poll(r)
		}
	case HelperTake:
		if h.Limit == 0 {
			h.Src.close(r)
			return value.Undefined, false
		}
		if !math.IsInf(h.Limit, 1) {
			h.Limit--
		}
		return h.Src.step(r)
	case HelperDrop:
		for h.Limit > 0 {
			if !math.IsInf(h.Limit, 1) {
				h.Limit--
			}
			if !h.Src.advance(r) {
				return value.Undefined, false
			}
			poll(r)
		}
		return h.Src.step(r)
	case HelperFlatMap:
		for {
			if h.Inner != nil {
				var v value.Value
				var ok bool
				if exc := r.Try(func() { v, ok = h.Inner.step(r) }); exc != nil {
					h.Src.closeQuietly(r)
					r.Throw(exc.Value)
				}
				if ok {
					return v, true
				}
				h.Inner = nil
				h.Counter++
			}
			v, ok := h.Src.step(r)
			if !ok {
				return v, false
			}
			mapped := callOrClose(r, h.Src, h.Fn, value.Undefined, []value.Value{v, value.Number(h.Counter)})
			if exc := r.Try(func() { h.Inner = getIteratorFlattenable(r, mapped, "Iterator.prototype.flatMap", false) }); exc != nil {
				h.Src.closeQuietly(r)
				r.Throw(exc.Value)
			}
			poll(r)
		}
	case HelperConcat:
		for {
			if h.Inner != nil {
				if v, ok := h.Inner.step(r); ok {
					return v, true
				}
				h.Inner = nil
			}
			if len(h.Items) == 0 {
				return value.Undefined, false
			}
			item := h.Items[0]
			h.Items = h.Items[1:]
			it := r.CallObject(item.Method.AsObject(), item.Iterable, nil)
			if !it.IsObject() {
				r.ThrowType("%s is not iterable", plain(r, it))
			}
			h.Inner = getIteratorDirect(r, it)
			poll(r)
		}
	}
	return value.Undefined, false
}

// abort is the helper's generator resumed with a return completion at
// its yield: it closes what it iterates, inner first.
func (h *Helper) abort(r *value.Realm) {
	switch h.Kind {
	case HelperConcat:
		if h.Inner != nil {
			h.Inner.close(r)
		}
		return
	case HelperFlatMap:
		if h.Inner != nil {
			if exc := r.Try(func() { h.Inner.close(r) }); exc != nil {
				h.Src.closeQuietly(r)
				r.Throw(exc.Value)
			}
		}
	}
	h.Src.close(r)
}

// ---------------------------------------------------------------------------
// Iterator.prototype methods

// thisIterator is the receiver of a helper as an iterator record whose
// next method is not read yet: argument validation comes first, and
// closes the receiver when it fails.
func thisIterator(r *value.Realm, c *value.Call, method string) *Direct {
	if !c.This.IsObject() {
		r.ThrowType("Iterator.prototype.%s called on non-object", method)
	}
	return &Direct{Iterator: c.This}
}

// callbackArg validates a helper's function argument, closing the
// receiver when it is not callable, then reads the receiver's next.
func callbackArg(r *value.Realm, c *value.Call, rec *Direct, method string) *value.Object {
	fn := c.Arg(0)
	if !isCallable(fn) {
		rec.closeQuietly(r)
		if method == "flatMap" { // V8 names the method here
			r.ThrowType("Iterator.prototype.flatMap is not a function")
		}
		r.ThrowType("%s is not a function", typed(r, fn))
	}
	rec.Next = r.Get(rec.Iterator, "next")
	return fn.AsObject()
}

// limitArg validates take's and drop's count.
func limitArg(r *value.Realm, c *value.Call, rec *Direct) float64 {
	arg := c.Arg(0)
	var num float64
	if exc := r.Try(func() { num = r.ToNumber(arg) }); exc != nil {
		rec.closeQuietly(r)
		r.Throw(exc.Value)
	}
	limit := math.Trunc(num)
	if num != num || limit < 0 {
		rec.closeQuietly(r)
		r.ThrowRange("%s must be positive", plain(r, arg))
	}
	rec.Next = r.Get(rec.Iterator, "next")
	return limit + 0 // -0 counts as 0
}

func lazyHelper(kind HelperKind, name string) *value.Native {
	return native("Iterator.prototype."+name, 1, func(r *value.Realm, c *value.Call) value.Value {
		rec := thisIterator(r, c, name)
		h := &Helper{Kind: kind, Src: rec}
		switch kind {
		case HelperTake, HelperDrop:
			h.Limit = limitArg(r, c, rec)
		default:
			h.Fn = callbackArg(r, c, rec, name)
		}
		return newHelper(r, h)
	})
}

// iteratorProto is in V8's property order.
var iteratorProto = []*value.Native{
	native("Iterator.prototype.reduce", 1, func(r *value.Realm, c *value.Call) value.Value {
		rec := thisIterator(r, c, "reduce")
		fn := callbackArg(r, c, rec, "reduce")
		var acc value.Value
		counter := 0.0
		if len(c.Args) >= 2 {
			acc = c.Args[1]
		} else {
			v, ok := rec.step(r)
			if !ok {
				r.ThrowType("Reduce of a done iterator with no initial value")
			}
			acc, counter = v, 1
		}
		for {
			v, ok := rec.step(r)
			if !ok {
				return acc
			}
			acc = callOrClose(r, rec, fn, value.Undefined, []value.Value{acc, v, value.Number(counter)})
			counter++
			poll(r)
		}
	}),
	native("Iterator.prototype.toArray", 0, func(r *value.Realm, c *value.Call) value.Value {
		rec := thisIterator(r, c, "toArray")
		rec.Next = r.Get(rec.Iterator, "next")
		var out []value.Value
		for {
			v, ok := rec.step(r)
			if !ok {
				return value.Obj(r.NewArrayValue(out))
			}
			if len(out) >= value.MaxArrayLength {
				rec.closeQuietly(r)
				r.ThrowRange(value.ArrayLengthMessage)
			}
			out = append(out, v)
			r.Charge(16)
			poll(r)
		}
	}),
	native("Iterator.prototype.forEach", 1, func(r *value.Realm, c *value.Call) value.Value {
		rec := thisIterator(r, c, "forEach")
		fn := callbackArg(r, c, rec, "forEach")
		for counter := 0.0; ; counter++ {
			v, ok := rec.step(r)
			if !ok {
				return value.Undefined
			}
			callOrClose(r, rec, fn, value.Undefined, []value.Value{v, value.Number(counter)})
			poll(r)
		}
	}),
	native("Iterator.prototype.some", 1, func(r *value.Realm, c *value.Call) value.Value {
		_, found := search(r, c, "some", true)
		return value.Bool(found)
	}),
	native("Iterator.prototype.every", 1, func(r *value.Realm, c *value.Call) value.Value {
		_, found := search(r, c, "every", false)
		return value.Bool(!found)
	}),
	native("Iterator.prototype.find", 1, func(r *value.Realm, c *value.Call) value.Value {
		v, _ := search(r, c, "find", true)
		return v
	}),
	lazyHelper(HelperMap, "map"),
	lazyHelper(HelperFilter, "filter"),
	lazyHelper(HelperTake, "take"),
	lazyHelper(HelperDrop, "drop"),
	lazyHelper(HelperFlatMap, "flatMap"),
}

// search runs some, every and find: it stops at the first value whose
// predicate result is want, closing the iterator, and returns that value.
func search(r *value.Realm, c *value.Call, method string, want bool) (value.Value, bool) {
	rec := thisIterator(r, c, method)
	fn := callbackArg(r, c, rec, method)
	for counter := 0.0; ; counter++ {
		v, ok := rec.step(r)
		if !ok {
			return value.Undefined, false
		}
		if callOrClose(r, rec, fn, value.Undefined, []value.Value{v, value.Number(counter)}).ToBoolean() == want {
			rec.close(r)
			return v, true
		}
		poll(r)
	}
}
