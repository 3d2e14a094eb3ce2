package collections

import (
	"github.com/go-codemode/codemode/value"
)

// Set, its iterator, and the set methods (union, intersection, ...),
// which read the argument through the specification's GetSetRecord (its
// size, has and keys), so any set-like object works. When the argument
// is a real Set or Map whose has/keys are the built-in ones, they are
// answered from its entries directly.

func installSet(l *value.Library) {
	l.Intrinsic(value.SetPrototype, value.IntrinsicSpec{Name: "Set.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("constructor", value.Obj(r.Intrinsic(value.SetCtor)), value.Writable|value.Configurable)
			r.Methods(o, setProto[:11]) // has ... isDisjointFrom
			getter(r, o, "size", "size", setSize)
			r.Methods(o, setProto[11:])
			alias(o, "keys", "values")
			tag(o, "Set")
			alias(o, value.SymIterator.Key(), "values")
		}})
	l.Intrinsic(value.SetCtor, value.IntrinsicSpec{Name: "Set",
		Func: &value.Native{Name: "Set", Length: 0, Ctor: true, Fn: setCtor},
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.SetPrototype))
		}})
	l.Intrinsic(value.SetIteratorPrototype, value.IntrinsicSpec{Name: "%SetIteratorPrototype%", Proto: value.IteratorPrototype,
		Init: func(r *value.Realm, o *value.Object) {
			r.Method(o, "next", setIterNext)
			tag(o, "Set Iterator")
		}})
	l.GlobalIntrinsic("Set", value.SetCtor)
	l.Register(setProto...)
	l.Register(setSize, setIterNext)
}

var setIterNext = native("%SetIteratorPrototype%.next", 0, func(r *value.Realm, c *value.Call) value.Value {
	return collectionIterNext(r, c, true)
})

func asSet(v value.Value) *value.OrderedMap {
	if o := v.AsObject(); o != nil && o.Class == value.ClassSet {
		if m, ok := o.Internal.(*value.OrderedMap); ok {
			return m
		}
	}
	return nil
}

func thisSet(r *value.Realm, c *value.Call, method string) *value.OrderedMap {
	m := asSet(c.This)
	if m == nil {
		incompatible(r, "Set.prototype."+method, c.This)
	}
	return m
}

// setPut adds a value, charging for a new one.
func setPut(r *value.Realm, m *value.OrderedMap, v value.Value) {
	n := m.Len()
	m.Set(v, value.Undefined)
	if m.Len() > n {
		r.Charge(entryBytes)
	}
}

func setCtor(r *value.Realm, c *value.Call) value.Value {
	if c.NewTarget == nil {
		r.ThrowType("Constructor Set requires 'new'")
	}
	m := value.NewOrderedMap()
	o := newInstance(r, r.ProtoFromCtor(c.NewTarget, value.SetPrototype), value.ClassSet, m)
	iterable := c.Arg(0)
	if iterable.IsNullish() {
		return value.Obj(o)
	}
	adder := r.Get(value.Obj(o), "add")
	if !isCallable(adder) {
		notFunctionProperty(r, adder, "add", value.Obj(o))
	}
	var src stepper
	intrinsic := isNative(adder, setAdd)
	if s, ok := fastSource(r, iterable); ok && intrinsic {
		src = s
	} else {
		src = openIterable(r, iterable)
	}
	for {
		v, ok := src.step(r)
		if !ok {
			break
		}
		if intrinsic {
			setPut(r, m, v)
		} else {
			callOrClose(r, src, adder.AsObject(), value.Obj(o), []value.Value{v})
		}
		poll(r)
	}
	return value.Obj(o)
}

func newSet(r *value.Realm, m *value.OrderedMap) value.Value {
	return value.Obj(newInstance(r, r.Intrinsic(value.SetPrototype), value.ClassSet, m))
}

func copySet(r *value.Realm, m *value.OrderedMap) *value.OrderedMap {
	r.Tick(m.Len())
	r.Reserve((entryBytes + 48) * m.Len()) // the copy, and the entry lists read
	keys, _ := m.Entries()
	out := value.NewOrderedMap()
	for _, k := range keys {
		out.Set(k, value.Undefined)
	}
	r.Charge(entryBytes * len(keys))
	return out
}

// setRecord is the specification's Set Record of a set method's argument.
type setRecord struct {
	obj       value.Value
	size      float64
	has, keys *value.Object
}

// getSetRecord is GetSetRecord, with V8's messages.
func getSetRecord(r *value.Realm, v value.Value, method string) *setRecord {
	if !v.IsObject() {
		r.ThrowType("Set.prototype.%s argument must be an object", method)
	}
	num := r.ToNumber(r.Get(v, "size"))
	if num != num {
		r.ThrowType("The .size property is NaN")
	}
	size := r.ToIntegerOrInfinity(value.Number(num))
	if size < 0 {
		r.ThrowRange("'%s' is an invalid size", value.NumberToString(size).String())
	}
	has := r.Get(v, "has")
	if !isCallable(has) {
		r.ThrowType(`string "has" is not a function`)
	}
	keys := r.Get(v, "keys")
	if !isCallable(keys) {
		r.ThrowType(`string "keys" is not a function`)
	}
	return &setRecord{obj: v, size: size, has: has.AsObject(), keys: keys.AsObject()}
}

// builtinData returns the entries of the argument when it is a Set or Map
// and fn is its class's own intrinsic n (setN for a Set, mapN for a Map).
func (s *setRecord) builtinData(fn *value.Object, setN, mapN *value.Native) (*value.OrderedMap, bool) {
	o := s.obj.AsObject()
	m, ok := o.Internal.(*value.OrderedMap)
	if !ok {
		return nil, false
	}
	switch {
	case o.Class == value.ClassSet && fn.Internal == setN, o.Class == value.ClassMap && fn.Internal == mapN:
		return m, true
	}
	return nil, false
}

// contains calls has(v) on the argument.
func (s *setRecord) contains(r *value.Realm, v value.Value) bool {
	if m, ok := s.builtinData(s.has, setHas, mapHas); ok {
		return m.Has(v)
	}
	return r.CallObject(s.has, s.obj, []value.Value{v}).ToBoolean()
}

// keysIterator is a source of the argument's keys that can also be
// closed normally (when a predicate is decided early).
type keysIterator interface {
	stepper
	close(r *value.Realm)
}

func (s *ordSource) closeQuietly(*value.Realm) {}
func (s *ordSource) close(*value.Realm)        {}

// openKeys is GetIteratorFromMethod(obj, keys). A built-in Set's or Map's
// keys are walked directly when their iterator's next is the intrinsic
// one and nothing on its prototype chain has a return method to call.
func (s *setRecord) openKeys(r *value.Realm) keysIterator {
	if m, ok := s.builtinData(s.keys, setValues, mapKeys); ok {
		iterProto, next := r.Intrinsic(value.MapIteratorPrototype), mapIterNext
		if s.obj.AsObject().Class == value.ClassSet {
			iterProto, next = r.Intrinsic(value.SetIteratorPrototype), setIterNext
		}
		if ret, _ := iterProto.Lookup("return"); ret == nil && ownDataIs(iterProto, "next", next) {
			return &ordSource{it: m.Iterate(), kind: value.IterKeys}
		}
	}
	it := r.CallObject(s.keys, s.obj, nil)
	if !it.IsObject() {
		r.ThrowType("Result of the keys method is not an object")
	}
	d := getIteratorDirect(r, it)
	d.NamedNext = true
	return d
}

var (
	setAdd = native("Set.prototype.add", 1, func(r *value.Realm, c *value.Call) value.Value {
		setPut(r, thisSet(r, c, "add"), canonical(c.Arg(0)))
		return c.This
	})
	setHas = native("Set.prototype.has", 1, func(r *value.Realm, c *value.Call) value.Value {
		return value.Bool(thisSet(r, c, "has").Has(c.Arg(0)))
	})
	setValues = native("Set.prototype.values", 0, func(r *value.Realm, c *value.Call) value.Value {
		return newCollectionIterator(r, thisSet(r, c, "values"), value.IterValues, true)
	})
	setSize = native("get Set.prototype.size", 0, func(r *value.Realm, c *value.Call) value.Value {
		m := asSet(c.This)
		if m == nil {
			incompatible(r, "get Set.prototype.size", c.This)
		}
		return value.Number(float64(m.Len()))
	})
)

// setProto is in V8's property order; Install puts size after
// isDisjointFrom.
var setProto = []*value.Native{
	setHas,
	setAdd,
	native("Set.prototype.delete", 1, func(r *value.Realm, c *value.Call) value.Value {
		return value.Bool(thisSet(r, c, "delete").Delete(c.Arg(0)))
	}),
	native("Set.prototype.difference", 1, setDifference),
	native("Set.prototype.clear", 0, func(r *value.Realm, c *value.Call) value.Value {
		thisSet(r, c, "clear").Clear()
		return value.Undefined
	}),
	native("Set.prototype.entries", 0, func(r *value.Realm, c *value.Call) value.Value {
		return newCollectionIterator(r, thisSet(r, c, "entries"), value.IterEntries, true)
	}),
	native("Set.prototype.forEach", 1, func(r *value.Realm, c *value.Call) value.Value {
		m := thisSet(r, c, "forEach")
		fn := requireCallable(r, c.Arg(0))
		this := c.Arg(1)
		for it := m.Iterate(); ; {
			k, _, ok := it.Next()
			if !ok {
				break
			}
			r.CallObject(fn, this, []value.Value{k, k, c.This})
			poll(r)
		}
		return value.Undefined
	}),
	native("Set.prototype.intersection", 1, setIntersection),
	native("Set.prototype.isSubsetOf", 1, setIsSubsetOf),
	native("Set.prototype.isSupersetOf", 1, setIsSupersetOf),
	native("Set.prototype.isDisjointFrom", 1, setIsDisjointFrom),
	native("Set.prototype.symmetricDifference", 1, setSymmetricDifference),
	native("Set.prototype.union", 1, setUnion),
	setValues,
}

func setUnion(r *value.Realm, c *value.Call) value.Value {
	m := thisSet(r, c, "union")
	other := getSetRecord(r, c.Arg(0), "union")
	keys := other.openKeys(r)
	out := copySet(r, m)
	for {
		v, ok := keys.step(r)
		if !ok {
			break
		}
		setPut(r, out, canonical(v))
		poll(r)
	}
	return newSet(r, out)
}

func setIntersection(r *value.Realm, c *value.Call) value.Value {
	m := thisSet(r, c, "intersection")
	other := getSetRecord(r, c.Arg(0), "intersection")
	out := value.NewOrderedMap()
	if float64(m.Len()) <= other.size {
		// Live over this set: has() may add to it or delete from it.
		for it := m.Iterate(); ; {
			e, _, ok := it.Next()
			if !ok {
				break
			}
			if other.contains(r, e) {
				setPut(r, out, e)
			}
			poll(r)
		}
		return newSet(r, out)
	}
	keys := other.openKeys(r)
	for {
		v, ok := keys.step(r)
		if !ok {
			break
		}
		v = canonical(v)
		if m.Has(v) {
			setPut(r, out, v)
		}
		poll(r)
	}
	return newSet(r, out)
}

func setDifference(r *value.Realm, c *value.Call) value.Value {
	m := thisSet(r, c, "difference")
	other := getSetRecord(r, c.Arg(0), "difference")
	out := copySet(r, m)
	if float64(m.Len()) <= other.size {
		// Over the copy, as it was: changes has() makes to this set do not
		// matter.
		elems, _ := out.Entries()
		for _, e := range elems {
			if other.contains(r, e) {
				out.Delete(e)
			}
			poll(r)
		}
		return newSet(r, out)
	}
	keys := other.openKeys(r)
	for {
		v, ok := keys.step(r)
		if !ok {
			break
		}
		out.Delete(v)
		poll(r)
	}
	return newSet(r, out)
}

func setSymmetricDifference(r *value.Realm, c *value.Call) value.Value {
	m := thisSet(r, c, "symmetricDifference")
	other := getSetRecord(r, c.Arg(0), "symmetricDifference")
	keys := other.openKeys(r)
	out := copySet(r, m)
	for {
		v, ok := keys.step(r)
		if !ok {
			break
		}
		v = canonical(v)
		if m.Has(v) {
			out.Delete(v)
		} else {
			setPut(r, out, v)
		}
		poll(r)
	}
	return newSet(r, out)
}

func setIsSubsetOf(r *value.Realm, c *value.Call) value.Value {
	m := thisSet(r, c, "isSubsetOf")
	other := getSetRecord(r, c.Arg(0), "isSubsetOf")
	if float64(m.Len()) > other.size {
		return value.False
	}
	for it := m.Iterate(); ; {
		e, _, ok := it.Next()
		if !ok {
			return value.True
		}
		if !other.contains(r, e) {
			return value.False
		}
		poll(r)
	}
}

func setIsSupersetOf(r *value.Realm, c *value.Call) value.Value {
	m := thisSet(r, c, "isSupersetOf")
	other := getSetRecord(r, c.Arg(0), "isSupersetOf")
	if float64(m.Len()) < other.size {
		return value.False
	}
	keys := other.openKeys(r)
	for {
		v, ok := keys.step(r)
		if !ok {
			return value.True
		}
		if !m.Has(v) {
			keys.close(r)
			return value.False
		}
		poll(r)
	}
}

func setIsDisjointFrom(r *value.Realm, c *value.Call) value.Value {
	m := thisSet(r, c, "isDisjointFrom")
	other := getSetRecord(r, c.Arg(0), "isDisjointFrom")
	if float64(m.Len()) <= other.size {
		for it := m.Iterate(); ; {
			e, _, ok := it.Next()
			if !ok {
				return value.True
			}
			if other.contains(r, e) {
				return value.False
			}
			poll(r)
		}
	}
	keys := other.openKeys(r)
	for {
		v, ok := keys.step(r)
		if !ok {
			return value.True
		}
		if m.Has(v) {
			keys.close(r)
			return value.False
		}
		poll(r)
	}
}
