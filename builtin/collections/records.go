package collections

import (
	"github.com/go-codemode/codemode/value"
)

// The iterator records the collections consume: a sequence opened from an
// iterable (GetIterator), an iterator used directly (GetIteratorDirect),
// and a Map or Set walked without any iterator object when nothing the
// program did could tell the difference.

// stepper is an iterator being consumed.
type stepper interface {
	// step is IteratorStepValue: the next value, or ok=false when done.
	step(r *value.Realm) (v value.Value, ok bool)
	// closeQuietly is IteratorClose with a throw completion: errors from
	// return() are dropped, the original exception wins.
	closeQuietly(r *value.Realm)
}

// callOrClose calls fn; if it throws, the iterator is closed first
// (IfAbruptCloseIterator) and the exception propagates.
func callOrClose(r *value.Realm, s stepper, fn *value.Object, this value.Value, args []value.Value) value.Value {
	res, exc := r.TryCall(value.Obj(fn), this, args)
	if exc != nil {
		s.closeQuietly(r)
		r.Throw(exc.Value)
	}
	return res
}

// fastRecord is value's iterator record: arrays and strings whose
// iteration nobody changed are walked without iterator objects.
type fastRecord struct{ rec *value.IteratorRecord }

func (f fastRecord) step(r *value.Realm) (value.Value, bool) { return f.rec.Step(r) }
func (f fastRecord) closeQuietly(r *value.Realm)             { f.rec.CloseQuietly(r) }

// Direct is an Iterator Record over an iterator object: the object and
// the next method read once when it was opened. It is also the state of
// iterator helpers, so its fields are plain data.
type Direct struct {
	Iterator value.Value
	Next     value.Value
	Done     bool
	// NamedNext makes a non-callable next fail as V8's set methods
	// report it (`string "next" is not a function`).
	NamedNext bool
}

// getIteratorDirect is GetIteratorDirect: obj is used as the iterator.
func getIteratorDirect(r *value.Realm, obj value.Value) *Direct {
	return &Direct{Iterator: obj, Next: r.Get(obj, "next")}
}

func (d *Direct) step(r *value.Realm) (value.Value, bool) {
	res, ok := d.result(r)
	if !ok {
		return value.Undefined, false
	}
	return r.Get(res, "value"), true
}

// advance is IteratorStep: it moves on without reading the value.
func (d *Direct) advance(r *value.Realm) bool {
	_, ok := d.result(r)
	return ok
}

// result calls next and returns its result object, or ok=false when the
// iterator is done.
func (d *Direct) result(r *value.Realm) (value.Value, bool) {
	if d.Done {
		return value.Undefined, false
	}
	if !isCallable(d.Next) {
		d.Done = true
		if d.NamedNext {
			r.ThrowType(`string "next" is not a function`)
		}
		r.ThrowType("%s is not a function", typed(r, d.Next))
	}
	res := r.CallObject(d.Next.AsObject(), d.Iterator, nil)
	if !res.IsObject() {
		d.Done = true
		r.ThrowType("Iterator result %s is not an object", plain(r, res))
	}
	if r.Get(res, "done").ToBoolean() {
		d.Done = true
		return value.Undefined, false
	}
	return res, true
}

// close is IteratorClose with a normal completion: return() is called if
// there is one, and its errors propagate.
func (d *Direct) close(r *value.Realm) {
	d.Done = true
	ret := r.Get(d.Iterator, "return")
	if ret.IsNullish() {
		return
	}
	if !isCallable(ret) {
		r.ThrowType("%s is not a function", typed(r, ret))
	}
	if res := r.CallObject(ret.AsObject(), d.Iterator, nil); !res.IsObject() {
		r.ThrowType("return called on non-object")
	}
}

func (d *Direct) closeQuietly(r *value.Realm) {
	_ = r.Try(func() { d.close(r) })
}

// openIterable is GetIterator(v, sync) for the constructors and groupBy,
// with the messages V8's built-ins give.
func openIterable(r *value.Realm, v value.Value) stepper {
	if o := v.AsObject(); o != nil && o.Class == value.ClassArray || v.IsString() {
		return fastRecord{r.GetIterator(v)}
	}
	method := r.Get(v, value.SymIterator.Key())
	if !isCallable(method) {
		notIterable(r, v)
	}
	it := r.CallObject(method.AsObject(), v, nil)
	if !it.IsObject() {
		r.ThrowType("Result of the Symbol.iterator method is not an object")
	}
	return getIteratorDirect(r, it)
}

// ordSource walks a Map or Set the way its untouched iterator would.
type ordSource struct {
	it   *value.MapIterator
	kind value.IterKind
	set  bool
}

func (s *ordSource) step(r *value.Realm) (value.Value, bool) {
	k, v, ok := s.it.Next()
	if !ok {
		return value.Undefined, false
	}
	if s.kind == value.IterEntries {
		if s.set {
			v = k
		}
		return value.Obj(r.NewArrayValue([]value.Value{k, v})), true
	}
	return k, true
}

// fastSource returns a walker over v when v is a Map or Set whose
// iteration is exactly the built-in one (its own prototype, no own
// Symbol.iterator, the intrinsic iterator method and next), so that
// walking its entries directly cannot be told apart from iterating it.
// Callers use it only where nothing can throw while walking, since the
// walker has no iterator object to close.
func fastSource(r *value.Realm, v value.Value) (*ordSource, bool) {
	o := v.AsObject()
	if o == nil || o.Class != value.ClassMap && o.Class != value.ClassSet {
		return nil, false
	}
	m, ok := o.Internal.(*value.OrderedMap)
	if !ok || o.GetOwn(value.SymIterator.Key()) != nil {
		return nil, false
	}
	set := o.Class == value.ClassSet
	proto, iterProto, method, next := value.MapPrototype, value.MapIteratorPrototype, mapEntries, mapIterNext
	kind := value.IterEntries
	if set {
		proto, iterProto, method, next = value.SetPrototype, value.SetIteratorPrototype, setValues, setIterNext
		kind = value.IterValues
	}
	if o.Proto != r.Intrinsic(proto) || !ownDataIs(o.Proto, value.SymIterator.Key(), method) ||
		!ownDataIs(r.Intrinsic(iterProto), "next", next) {
		return nil, false
	}
	return &ordSource{it: m.Iterate(), kind: kind, set: set}, true
}

func ownDataIs(o *value.Object, key string, n *value.Native) bool {
	p := o.GetOwn(key)
	return p != nil && !p.IsAccessor() && isNative(p.Value, n)
}
