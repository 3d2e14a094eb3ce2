package collections

import (
	"github.com/go-codemode/codemode/value"
)

// WeakMap and WeakSet. Their keys are held strongly: a run is short and
// its whole heap goes when it ends, and a program cannot tell, since weak
// collections can be neither iterated nor sized.

func installWeak(l *value.Library) {
	l.Intrinsic(value.WeakMapPrototype, value.IntrinsicSpec{Name: "WeakMap.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("constructor", value.Obj(r.Intrinsic(value.WeakMapCtor)), value.Writable|value.Configurable)
			r.Methods(o, weakMapProto)
			tag(o, "WeakMap")
		}})
	l.Intrinsic(value.WeakMapCtor, value.IntrinsicSpec{Name: "WeakMap",
		Func: &value.Native{Name: "WeakMap", Length: 0, Ctor: true, Fn: weakCtor(false)},
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.WeakMapPrototype))
		}})
	l.Intrinsic(value.WeakSetPrototype, value.IntrinsicSpec{Name: "WeakSet.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("constructor", value.Obj(r.Intrinsic(value.WeakSetCtor)), value.Writable|value.Configurable)
			r.Methods(o, weakSetProto)
			tag(o, "WeakSet")
		}})
	l.Intrinsic(value.WeakSetCtor, value.IntrinsicSpec{Name: "WeakSet",
		Func: &value.Native{Name: "WeakSet", Length: 0, Ctor: true, Fn: weakCtor(true)},
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.WeakSetPrototype))
		}})
	l.GlobalIntrinsic("WeakMap", value.WeakMapCtor)
	l.GlobalIntrinsic("WeakSet", value.WeakSetCtor)
	l.Register(weakMapProto...)
	l.Register(weakSetProto...)
}

// WeakKey is a key of a weak collection: an object or a symbol, compared
// by identity.
type WeakKey struct {
	Obj *value.Object
	Sym string // a symbol's key: its identity
}

// WeakData is the Internal of WeakMap and WeakSet objects (a WeakSet's
// values are all undefined).
type WeakData struct {
	M map[WeakKey]value.Value
}

// weakKey is CanBeHeldWeakly: objects, and symbols other than those of
// the Symbol.for registry.
func weakKey(v value.Value) (WeakKey, bool) {
	if o := v.AsObject(); o != nil {
		return WeakKey{Obj: o}, true
	}
	if s := v.AsSymbol(); s != nil && !s.Registered() {
		return WeakKey{Sym: s.Key()}, true
	}
	return WeakKey{}, false
}

func weakCtor(set bool) value.NativeFunc {
	name, proto, class, adderName := "WeakMap", value.WeakMapPrototype, value.ClassWeakMap, "set"
	if set {
		name, proto, class, adderName = "WeakSet", value.WeakSetPrototype, value.ClassWeakSet, "add"
	}
	return func(r *value.Realm, c *value.Call) value.Value {
		if c.NewTarget == nil {
			r.ThrowType("Constructor %s requires 'new'", name)
		}
		o := newInstance(r, r.ProtoFromCtor(c.NewTarget, proto), class, &WeakData{M: map[WeakKey]value.Value{}})
		iterable := c.Arg(0)
		if iterable.IsNullish() {
			return value.Obj(o)
		}
		adder := r.Get(value.Obj(o), adderName)
		if !isCallable(adder) {
			notFunctionProperty(r, adder, adderName, value.Obj(o))
		}
		if !set {
			addEntries(r, iterable, nil, adder.AsObject(), value.Obj(o))
			return value.Obj(o)
		}
		src := openIterable(r, iterable)
		for {
			v, ok := src.step(r)
			if !ok {
				break
			}
			callOrClose(r, src, adder.AsObject(), value.Obj(o), []value.Value{v})
			poll(r)
		}
		return value.Obj(o)
	}
}

func thisWeak(r *value.Realm, c *value.Call, class value.Class, method string) *WeakData {
	if o := c.This.AsObject(); o != nil && o.Class == class {
		if w, ok := o.Internal.(*WeakData); ok {
			return w
		}
	}
	incompatible(r, method, c.This)
	return nil
}

func thisWeakMap(r *value.Realm, c *value.Call, method string) *WeakData {
	return thisWeak(r, c, value.ClassWeakMap, "WeakMap.prototype."+method)
}

func thisWeakSet(r *value.Realm, c *value.Call, method string) *WeakData {
	return thisWeak(r, c, value.ClassWeakSet, "WeakSet.prototype."+method)
}

// put stores an entry, charging for a new one.
func (w *WeakData) put(r *value.Realm, k WeakKey, v value.Value) {
	if _, ok := w.M[k]; !ok {
		r.Charge(entryBytes)
	}
	w.M[k] = v
}

func weakMapKey(r *value.Realm, v value.Value) WeakKey {
	k, ok := weakKey(v)
	if !ok {
		r.ThrowType("Invalid value used as weak map key")
	}
	return k
}

var weakMapProto = []*value.Native{
	native("WeakMap.prototype.delete", 1, func(r *value.Realm, c *value.Call) value.Value {
		w := thisWeakMap(r, c, "delete")
		k, ok := weakKey(c.Arg(0))
		if !ok {
			return value.False
		}
		_, had := w.M[k]
		delete(w.M, k)
		return value.Bool(had)
	}),
	native("WeakMap.prototype.get", 1, func(r *value.Realm, c *value.Call) value.Value {
		w := thisWeakMap(r, c, "get")
		if k, ok := weakKey(c.Arg(0)); ok {
			if v, ok := w.M[k]; ok {
				return v
			}
		}
		return value.Undefined
	}),
	native("WeakMap.prototype.set", 2, func(r *value.Realm, c *value.Call) value.Value {
		w := thisWeakMap(r, c, "set")
		w.put(r, weakMapKey(r, c.Arg(0)), c.Arg(1))
		return c.This
	}),
	native("WeakMap.prototype.has", 1, func(r *value.Realm, c *value.Call) value.Value {
		w := thisWeakMap(r, c, "has")
		k, ok := weakKey(c.Arg(0))
		if !ok {
			return value.False
		}
		_, had := w.M[k]
		return value.Bool(had)
	}),
	native("WeakMap.prototype.getOrInsert", 2, func(r *value.Realm, c *value.Call) value.Value {
		w := thisWeakMap(r, c, "getOrInsert")
		k := weakMapKey(r, c.Arg(0))
		if v, ok := w.M[k]; ok {
			return v
		}
		w.put(r, k, c.Arg(1))
		return c.Arg(1)
	}),
	native("WeakMap.prototype.getOrInsertComputed", 2, func(r *value.Realm, c *value.Call) value.Value {
		w := thisWeakMap(r, c, "getOrInsertComputed")
		if !isCallable(c.Arg(1)) {
			r.ThrowType("WeakMap.prototype.getOrInsertComputed is not a function")
		}
		k := weakMapKey(r, c.Arg(0))
		if v, ok := w.M[k]; ok {
			return v
		}
		v := r.CallObject(c.Arg(1).AsObject(), value.Undefined, []value.Value{c.Arg(0)})
		w.put(r, k, v)
		return v
	}),
}

var weakSetProto = []*value.Native{
	native("WeakSet.prototype.delete", 1, func(r *value.Realm, c *value.Call) value.Value {
		w := thisWeakSet(r, c, "delete")
		k, ok := weakKey(c.Arg(0))
		if !ok {
			return value.False
		}
		_, had := w.M[k]
		delete(w.M, k)
		return value.Bool(had)
	}),
	native("WeakSet.prototype.has", 1, func(r *value.Realm, c *value.Call) value.Value {
		w := thisWeakSet(r, c, "has")
		k, ok := weakKey(c.Arg(0))
		if !ok {
			return value.False
		}
		_, had := w.M[k]
		return value.Bool(had)
	}),
	native("WeakSet.prototype.add", 1, func(r *value.Realm, c *value.Call) value.Value {
		w := thisWeakSet(r, c, "add")
		k, ok := weakKey(c.Arg(0))
		if !ok {
			r.ThrowType("Invalid value used in weak set")
		}
		w.put(r, k, value.Undefined)
		return c.This
	}),
}
