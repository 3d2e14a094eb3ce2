package collections

import (
	"github.com/go-codemode/codemode/value"
)

// Map, Map.groupBy and the Map iterator.

func installMap(l *value.Library) {
	l.Intrinsic(value.MapPrototype, value.IntrinsicSpec{Name: "Map.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("constructor", value.Obj(r.Intrinsic(value.MapCtor)), value.Writable|value.Configurable)
			r.Methods(o, mapProto[:8]) // get set has delete clear entries forEach keys
			getter(r, o, "size", "size", mapSize)
			r.Methods(o, mapProto[8:])
			tag(o, "Map")
			alias(o, value.SymIterator.Key(), "entries")
		}})
	l.Intrinsic(value.MapCtor, value.IntrinsicSpec{Name: "Map",
		Func: &value.Native{Name: "Map", Length: 0, Ctor: true, Fn: mapCtor},
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.MapPrototype))
			r.Methods(o, []*value.Native{mapGroupBy})
		}})
	l.Intrinsic(value.MapIteratorPrototype, value.IntrinsicSpec{Name: "%MapIteratorPrototype%", Proto: value.IteratorPrototype,
		Init: func(r *value.Realm, o *value.Object) {
			r.Method(o, "next", mapIterNext)
			tag(o, "Map Iterator")
		}})
	l.GlobalIntrinsic("Map", value.MapCtor)
	l.Register(mapProto...)
	l.Register(mapSize, mapGroupBy, mapIterNext)
}

// CollectionIterator is the Internal of Map and Set iterators: a live
// position in the collection and what to produce. It is set to nil when
// the iteration ends, as the specification's iterators forget their
// collection.
type CollectionIterator struct {
	It   *value.MapIterator
	Kind value.IterKind
	Set  bool
}

func newCollectionIterator(r *value.Realm, m *value.OrderedMap, kind value.IterKind, set bool) value.Value {
	proto := value.MapIteratorPrototype
	if set {
		proto = value.SetIteratorPrototype
	}
	return value.Obj(newInstance(r, r.Intrinsic(proto), value.ClassIterator,
		&CollectionIterator{It: m.Iterate(), Kind: kind, Set: set}))
}

func collectionIterNext(r *value.Realm, c *value.Call, set bool) value.Value {
	var ci *CollectionIterator
	if o := c.This.AsObject(); o != nil {
		ci, _ = o.Internal.(*CollectionIterator)
	}
	if ci == nil || ci.Set != set {
		name := "Map Iterator"
		if set {
			name = "Set Iterator"
		}
		incompatible(r, name+".prototype.next", c.This)
	}
	if ci.It == nil {
		return value.Obj(r.IterResult(value.Undefined, true))
	}
	k, v, ok := ci.It.Next()
	if !ok {
		ci.It = nil
		return value.Obj(r.IterResult(value.Undefined, true))
	}
	if set {
		v = k
	}
	switch ci.Kind {
	case value.IterKeys:
		return value.Obj(r.IterResult(k, false))
	case value.IterValues:
		return value.Obj(r.IterResult(v, false))
	}
	return value.Obj(r.IterResult(value.Obj(r.NewArrayValue([]value.Value{k, v})), false))
}

var mapIterNext = native("%MapIteratorPrototype%.next", 0, func(r *value.Realm, c *value.Call) value.Value {
	return collectionIterNext(r, c, false)
})

func thisMap(r *value.Realm, c *value.Call, method string) *value.OrderedMap {
	if o := c.This.AsObject(); o != nil && o.Class == value.ClassMap {
		if m, ok := o.Internal.(*value.OrderedMap); ok {
			return m
		}
	}
	incompatible(r, "Map.prototype."+method, c.This)
	return nil
}

// mapPut sets an entry, charging for a new one.
func mapPut(r *value.Realm, m *value.OrderedMap, k, v value.Value) {
	n := m.Len()
	m.Set(k, v)
	if m.Len() > n {
		r.Charge(entryBytes)
	}
}

func mapCtor(r *value.Realm, c *value.Call) value.Value {
	if c.NewTarget == nil {
		r.ThrowType("Constructor Map requires 'new'")
	}
	m := value.NewOrderedMap()
	o := newInstance(r, r.ProtoFromCtor(c.NewTarget, value.MapPrototype), value.ClassMap, m)
	iterable := c.Arg(0)
	if iterable.IsNullish() {
		return value.Obj(o)
	}
	adder := r.Get(value.Obj(o), "set")
	if !isCallable(adder) {
		notFunctionProperty(r, adder, "set", value.Obj(o))
	}
	if isNative(adder, mapSet) {
		if src, ok := fastSource(r, iterable); ok && !src.set {
			for {
				k, v, ok := src.it.Next()
				if !ok {
					break
				}
				mapPut(r, m, k, v)
				poll(r)
			}
			return value.Obj(o)
		}
		addEntries(r, iterable, func(k, v value.Value) { mapPut(r, m, k, v) }, nil, value.Undefined)
		return value.Obj(o)
	}
	addEntries(r, iterable, nil, adder.AsObject(), value.Obj(o))
	return value.Obj(o)
}

// addEntries is AddEntriesFromIterable: each value of the iterable must
// be an object whose "0" and "1" are a key and a value, given to put when
// the adder is the intrinsic one (nothing there can throw), else to a
// call of adder on target.
func addEntries(r *value.Realm, iterable value.Value, put func(k, v value.Value), adder *value.Object, target value.Value) {
	src := openIterable(r, iterable)
	for {
		next, ok := src.step(r)
		if !ok {
			return
		}
		k, v := entryOf(r, src, next)
		if put != nil {
			put(k, v)
		} else {
			callOrClose(r, src, adder, target, []value.Value{k, v})
		}
		poll(r)
	}
}

// entryOf reads the key and value of one entry, closing the iterator
// when the entry is not an object or a read throws.
func entryOf(r *value.Realm, src stepper, next value.Value) (k, v value.Value) {
	o := next.AsObject()
	if o == nil {
		src.closeQuietly(r)
		r.ThrowType("Iterator value %s is not an entry object", plain(r, next))
	}
	if o.Class == value.ClassArray {
		a := o.Array()
		k, ok0 := a.Get(0)
		v, ok1 := a.Get(1)
		if ok0 && ok1 {
			return k, v
		}
	}
	if exc := r.Try(func() { k = r.GetIndex(next, 0); v = r.GetIndex(next, 1) }); exc != nil {
		src.closeQuietly(r)
		r.Throw(exc.Value)
	}
	return k, v
}

var mapGroupBy = native("Map.groupBy", 2, func(r *value.Realm, c *value.Call) value.Value {
	items, cb := c.Arg(0), c.Arg(1)
	if items.IsNullish() {
		r.ThrowType("Map.groupBy called on null or undefined")
	}
	if !isCallable(cb) {
		r.ThrowType("%s is not a function", plain(r, cb))
	}
	fn := cb.AsObject()
	groups := value.NewOrderedMap()
	src := openIterable(r, items)
	for k := 0; ; k++ {
		v, ok := src.step(r)
		if !ok {
			break
		}
		key := callOrClose(r, src, fn, value.Undefined, []value.Value{v, value.Number(float64(k))})
		g, found := groups.Get(key)
		if !found {
			g = value.Obj(r.NewArrayValue(nil))
			mapPut(r, groups, key, g)
		}
		if err := g.AsObject().Array().Push(v); err != nil {
			src.closeQuietly(r)
			r.ThrowRange(value.ArrayLengthMessage)
		}
		r.Charge(16)
		poll(r)
	}
	o := newInstance(r, r.Intrinsic(value.MapPrototype), value.ClassMap, groups)
	return value.Obj(o)
})

var mapSet = native("Map.prototype.set", 2, func(r *value.Realm, c *value.Call) value.Value {
	mapPut(r, thisMap(r, c, "set"), c.Arg(0), c.Arg(1))
	return c.This
})

var (
	mapHas = native("Map.prototype.has", 1, func(r *value.Realm, c *value.Call) value.Value {
		return value.Bool(thisMap(r, c, "has").Has(c.Arg(0)))
	})
	mapKeys = native("Map.prototype.keys", 0, func(r *value.Realm, c *value.Call) value.Value {
		return newCollectionIterator(r, thisMap(r, c, "keys"), value.IterKeys, false)
	})
	mapEntries = native("Map.prototype.entries", 0, func(r *value.Realm, c *value.Call) value.Value {
		return newCollectionIterator(r, thisMap(r, c, "entries"), value.IterEntries, false)
	})
	mapSize = native("get Map.prototype.size", 0, func(r *value.Realm, c *value.Call) value.Value {
		if o := c.This.AsObject(); o != nil && o.Class == value.ClassMap {
			if m, ok := o.Internal.(*value.OrderedMap); ok {
				return value.Number(float64(m.Len()))
			}
		}
		incompatible(r, "get Map.prototype.size", c.This)
		return value.Undefined
	})
)

// mapProto is in V8's property order; Install puts size after keys.
var mapProto = []*value.Native{
	native("Map.prototype.get", 1, func(r *value.Realm, c *value.Call) value.Value {
		v, _ := thisMap(r, c, "get").Get(c.Arg(0))
		return v
	}),
	mapSet,
	mapHas,
	native("Map.prototype.delete", 1, func(r *value.Realm, c *value.Call) value.Value {
		return value.Bool(thisMap(r, c, "delete").Delete(c.Arg(0)))
	}),
	native("Map.prototype.clear", 0, func(r *value.Realm, c *value.Call) value.Value {
		thisMap(r, c, "clear").Clear()
		return value.Undefined
	}),
	mapEntries,
	native("Map.prototype.forEach", 1, func(r *value.Realm, c *value.Call) value.Value {
		m := thisMap(r, c, "forEach")
		fn := requireCallable(r, c.Arg(0))
		this := c.Arg(1)
		for it := m.Iterate(); ; {
			k, v, ok := it.Next()
			if !ok {
				break
			}
			r.CallObject(fn, this, []value.Value{v, k, c.This})
			poll(r)
		}
		return value.Undefined
	}),
	mapKeys,
	native("Map.prototype.values", 0, func(r *value.Realm, c *value.Call) value.Value {
		return newCollectionIterator(r, thisMap(r, c, "values"), value.IterValues, false)
	}),
	native("Map.prototype.getOrInsert", 2, func(r *value.Realm, c *value.Call) value.Value {
		m := thisMap(r, c, "getOrInsert")
		if v, ok := m.Get(c.Arg(0)); ok {
			return v
		}
		mapPut(r, m, c.Arg(0), c.Arg(1))
		return c.Arg(1)
	}),
	native("Map.prototype.getOrInsertComputed", 2, func(r *value.Realm, c *value.Call) value.Value {
		m := thisMap(r, c, "getOrInsertComputed")
		if !isCallable(c.Arg(1)) {
			r.ThrowType("Map.prototype.getOrInsertComputed is not a function")
		}
		key := canonical(c.Arg(0))
		if v, ok := m.Get(key); ok {
			return v
		}
		v := r.CallObject(c.Arg(1).AsObject(), value.Undefined, []value.Value{key})
		// The callback may have added the key itself: set overwrites it.
		mapPut(r, m, key, v)
		return v
	}),
}

// canonical is CanonicalizeKeyedCollectionKey: -0 becomes +0.
func canonical(k value.Value) value.Value {
	if k.IsNumber() && k.Num() == 0 {
		return value.Number(0)
	}
	return k
}
