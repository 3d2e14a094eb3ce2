package value

// The iteration protocol (GetIterator, IteratorStep, IteratorClose) with
// fast paths for arrays and strings whose iteration nobody has changed:
// spreading an array does not allocate an iterator object.

// ArrayIter is the Internal of an array iterator (and of the iterators of
// array-likes): the object, the next index, and what to produce.
type ArrayIter struct {
	Target Value
	Index  int
	Kind   IterKind
	Done   bool
}

// IterKind is what an array or collection iterator yields.
type IterKind uint8

// Iterator kinds.
const (
	IterValues IterKind = iota
	IterKeys
	IterEntries
)

// StringIter is the Internal of a string iterator.
type StringIter struct {
	S     *String
	Index int
}

// Generator is the Internal of a generator object; the engine implements
// it. Resume runs the generator with a value to send (next), a value to
// return (return) or one to throw (throw), and returns the iterator
// result object.
type Generator interface {
	Resume(r *Realm, mode ResumeMode, v Value) Value
}

// AsyncGenerator is the Internal of an async generator object; Enqueue
// returns the promise of the request's iterator result.
type AsyncGenerator interface {
	Enqueue(r *Realm, mode ResumeMode, v Value) *Object
}

// ResumeMode is how a generator is resumed.
type ResumeMode uint8

// Resume modes.
const (
	ResumeNext ResumeMode = iota
	ResumeReturn
	ResumeThrow
)

// ArrayValues and ArrayIteratorNext are the natives behind array
// iteration; the fast paths check that a program has not replaced them.
var (
	ArrayValues = &Native{Name: "Array.prototype.values", Fn: func(r *Realm, c *Call) Value {
		o := r.ToObject(c.This)
		return Obj(r.NewArrayIterator(Obj(o), IterValues))
	}}
	ArrayIteratorNext = &Native{Name: "%ArrayIteratorPrototype%.next", Fn: func(r *Realm, c *Call) Value {
		o := c.This.AsObject()
		it, ok := o.internalIter()
		if !ok {
			r.ThrowType("next method called on incompatible receiver %s", r.Describe(c.This))
		}
		return r.arrayIterStep(it)
	}}
	StringIterator = &Native{Name: "String.prototype[Symbol.iterator]", Fn: func(r *Realm, c *Call) Value {
		if c.This.IsNullish() {
			r.ThrowType("String.prototype[Symbol.iterator] called on null or undefined")
		}
		s := r.ToString(c.This)
		o := NewObject(r.Intrinsic(StringIteratorPrototype))
		o.Class = ClassIterator
		o.Internal = &StringIter{S: s}
		return Obj(o)
	}}
	StringIteratorNext = &Native{Name: "%StringIteratorPrototype%.next", Fn: func(r *Realm, c *Call) Value {
		o := c.This.AsObject()
		var it *StringIter
		if o != nil {
			it, _ = o.Internal.(*StringIter)
		}
		if it == nil {
			r.ThrowType("next method called on incompatible receiver %s", r.Describe(c.This))
		}
		if it.S == nil || it.Index >= it.S.Len() {
			it.S = nil
			return Obj(r.IterResult(Undefined, true))
		}
		n := codePointLen(it.S, it.Index)
		v := it.S.Slice(it.Index, it.Index+n)
		it.Index += n
		return Obj(r.IterResult(Str(v), false))
	}}
)

func (o *Object) internalIter() (*ArrayIter, bool) {
	if o == nil {
		return nil, false
	}
	it, ok := o.Internal.(*ArrayIter)
	return it, ok
}

// codePointLen is 2 at a surrogate pair, else 1.
func codePointLen(s *String, i int) int {
	u := s.At(i)
	if u >= 0xD800 && u <= 0xDBFF && i+1 < s.Len() {
		if l := s.At(i + 1); l >= 0xDC00 && l <= 0xDFFF {
			return 2
		}
	}
	return 1
}

// NewArrayIterator makes an iterator over an array or array-like.
func (r *Realm) NewArrayIterator(target Value, kind IterKind) *Object {
	o := NewObject(r.Intrinsic(ArrayIteratorPrototype))
	o.Class = ClassIterator
	o.Internal = &ArrayIter{Target: target, Kind: kind}
	r.Charge(objectBytes)
	return o
}

func (r *Realm) arrayIterStep(it *ArrayIter) Value {
	if it.Done {
		return Obj(r.IterResult(Undefined, true))
	}
	n := r.LengthOf(it.Target)
	if it.Index >= n {
		it.Done = true
		it.Target = Undefined
		return Obj(r.IterResult(Undefined, true))
	}
	i := it.Index
	it.Index++
	switch it.Kind {
	case IterKeys:
		return Obj(r.IterResult(Number(float64(i)), false))
	case IterEntries:
		pair := r.NewArrayValue([]Value{Number(float64(i)), r.GetIndex(it.Target, i)})
		return Obj(r.IterResult(Obj(pair), false))
	}
	return Obj(r.IterResult(r.GetIndex(it.Target, i), false))
}

// LengthOf is LengthOfArrayLike: the length of an array or array-like.
func (r *Realm) LengthOf(v Value) int {
	if o := v.AsObject(); o != nil {
		switch in := o.Internal.(type) {
		case *ArrayData:
			return in.Len()
		case Indexed:
			return in.IndexLen()
		}
	}
	return r.ToLength(r.Get(v, "length"))
}

// IterResult makes {value, done}.
func (r *Realm) IterResult(v Value, done bool) *Object {
	o := NewObject(r.Intrinsic(ObjectPrototype))
	o.props = make([]Property, 2)
	o.props[0] = Property{Key: "value", Value: v, Flags: DefaultFlags}
	o.props[1] = Property{Key: "done", Value: Bool(done), Flags: DefaultFlags}
	r.Charge(objectBytes)
	return o
}

// IteratorRecord is an iterator being consumed.
type IteratorRecord struct {
	Iterator Value
	Next     Value
	Done     bool
	// The fast paths: an array walked by index, a string by code point.
	array *Object
	str   *String
	index int
}

// GetIterator starts iterating v (the specification's GetIterator with
// sync hint). what names the construct for the error message.
func (r *Realm) GetIterator(v Value) *IteratorRecord {
	if o := v.AsObject(); o != nil && o.Class == ClassArray && r.arrayIterationIntact(o) {
		return &IteratorRecord{array: o}
	}
	if s := v.AsString(); s != nil && r.stringIterationIntact() {
		return &IteratorRecord{str: s}
	}
	if v.IsNullish() {
		r.ThrowType("%s is not iterable", r.iterDescribe(v))
	}
	method := r.Get(v, SymIterator.key)
	m := method.AsObject()
	if m == nil || !m.callable {
		r.ThrowType("%s is not iterable", r.iterDescribe(v))
	}
	it := r.CallObject(m, v, nil)
	if !it.IsObject() {
		r.ThrowType("Result of the Symbol.iterator method is not an object")
	}
	return &IteratorRecord{Iterator: it, Next: r.Get(it, "next")}
}

// GetAsyncIterator starts a for await: Symbol.asyncIterator, or the sync
// iterator wrapped so its values are awaited.
func (r *Realm) GetAsyncIterator(v Value) (rec *IteratorRecord, async bool) {
	if !v.IsNullish() {
		method := r.Get(v, SymAsyncIterator.key)
		if m := method.AsObject(); m != nil && m.callable {
			it := r.CallObject(m, v, nil)
			if !it.IsObject() {
				r.ThrowType("Result of the Symbol.asyncIterator method is not an object")
			}
			return &IteratorRecord{Iterator: it, Next: r.Get(it, "next")}, true
		}
		if !method.IsUndefined() {
			r.ThrowType("%s is not async iterable", r.iterDescribe(v))
		}
	}
	return r.GetIterator(v), false
}

func (r *Realm) iterDescribe(v Value) string {
	switch v.Kind() {
	case KindObject:
		if v.AsObject().callable {
			return r.Describe(v)
		}
		return "object"
	case KindString:
		return r.Describe(v)
	}
	s, _ := v.ToString()
	if s == nil {
		return v.TypeOf()
	}
	return s.String()
}

func (r *Realm) arrayIterationIntact(o *Object) bool {
	ap := r.Intrinsic(ArrayPrototype)
	if o.Proto != ap || o.find(SymIterator.key) >= 0 {
		return false
	}
	p := ap.GetOwn(SymIterator.key)
	if p == nil || p.IsAccessor() {
		return false
	}
	f := p.Value.AsObject()
	if f == nil || f.Internal != ArrayValues {
		return false
	}
	np := r.Intrinsic(ArrayIteratorPrototype).GetOwn("next")
	return np != nil && !np.IsAccessor() && np.Value.AsObject() != nil && np.Value.AsObject().Internal == ArrayIteratorNext
}

func (r *Realm) stringIterationIntact() bool {
	p := r.Intrinsic(StringPrototype).GetOwn(SymIterator.key)
	if p == nil || p.IsAccessor() || p.Value.AsObject() == nil || p.Value.AsObject().Internal != StringIterator {
		return false
	}
	np := r.Intrinsic(StringIteratorPrototype).GetOwn("next")
	return np != nil && !np.IsAccessor() && np.Value.AsObject() != nil && np.Value.AsObject().Internal == StringIteratorNext
}

// Step advances the iterator: the next value, or ok=false when done.
func (it *IteratorRecord) Step(r *Realm) (v Value, ok bool) {
	if it.Done {
		return Undefined, false
	}
	if it.array != nil {
		a := it.array.Internal.(*ArrayData)
		if it.index >= a.Len() {
			it.Done = true
			return Undefined, false
		}
		v, present := a.Get(it.index)
		if !present {
			v = r.GetIndex(Obj(it.array), it.index)
		}
		it.index++
		return v, true
	}
	if it.str != nil {
		if it.index >= it.str.Len() {
			it.Done = true
			return Undefined, false
		}
		n := codePointLen(it.str, it.index)
		v := it.str.Slice(it.index, it.index+n)
		it.index += n
		if v.isWide {
			r.Charge(v.Bytes()) // ASCII characters are shared, others are new
		}
		return Str(v), true
	}
	// IteratorStepValue: an iterator whose next, done or value throws is
	// done, and is not closed.
	it.Done = true
	res := r.Call(it.Next, it.Iterator, nil)
	if !res.IsObject() {
		r.ThrowType("Iterator result %s is not an object", r.iterDescribe(res))
	}
	if r.Get(res, "done").ToBoolean() {
		return Undefined, false
	}
	v = r.Get(res, "value")
	it.Done = false
	return v, true
}

// NextResult calls next and returns the raw result object (for for-await,
// which awaits it).
func (it *IteratorRecord) NextResult(r *Realm, arg []Value) Value {
	return r.Call(it.Next, it.Iterator, arg)
}

// Close is IteratorClose after an abrupt exit: it calls return() if the
// iterator has one. Errors from return() propagate only when the exit
// itself was not a throw (the caller decides by calling or not).
func (it *IteratorRecord) Close(r *Realm) {
	if it.Done || it.array != nil || it.str != nil {
		return
	}
	it.Done = true
	ret := r.Get(it.Iterator, "return")
	if ret.IsNullish() {
		return
	}
	res := r.Call(ret, it.Iterator, nil)
	if !res.IsObject() {
		r.ThrowType("Iterator result %s is not an object", r.iterDescribe(res))
	}
}

// CloseQuietly closes the iterator while an exception is already
// propagating: any error from return() is dropped.
func (it *IteratorRecord) CloseQuietly(r *Realm) {
	_ = r.Try(func() { it.Close(r) })
}

// IterateToSlice consumes an iterable into a slice. It ticks per element
// and checks the memory budget before the slice grows, so that spreading
// a huge or sparse array or a long string stops at the deadline or the
// budget instead of after (the caller charges the finished slice).
func (r *Realm) IterateToSlice(v Value) []Value {
	if o := v.AsObject(); o != nil && o.Class == ClassArray && r.arrayIterationIntact(o) {
		a := o.Internal.(*ArrayData)
		if d, ok := a.Dense(); ok {
			r.Reserve(valueBytes * len(d))
			out := make([]Value, len(d))
			for i, e := range d {
				if i%TickInterval == 0 {
					r.Tick(TickInterval)
				}
				if e.IsHole() {
					e = r.GetIndex(v, i)
				}
				out[i] = e
			}
			return out
		}
	}
	it := r.GetIterator(v)
	var out []Value
	for {
		x, ok := it.Step(r)
		if !ok {
			return out
		}
		r.Poll()
		if len(out) == cap(out) {
			if len(out) >= MaxArrayLength {
				it.CloseQuietly(r)
				r.ThrowRange(ArrayLengthMessage)
			}
			// The new backing array, as append would grow it, and
			// what its elements will cost once charged.
			r.Reserve(valueBytes * 2 * (cap(out) + 1))
		}
		out = append(out, x)
	}
}

// BoundaryValue is implemented by the Internal of objects that cross to
// the host as something else (URLSearchParams as its query string,
// Headers as {name: value}).
type BoundaryValue interface {
	BoundaryValue(r *Realm) Value
}
