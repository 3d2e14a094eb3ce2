package builtin

import (
	"github.com/go-codemode/codemode/value"
)

func installObject(l *value.Library) {
	l.Intrinsic(value.ObjectCtor, value.IntrinsicSpec{Name: "Object",
		Func: &value.Native{Name: "Object", Length: 1, Ctor: true, Fn: objectCtor},
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.ObjectPrototype))
			r.Methods(o, objectStatics)
		}})
	l.Extend(value.ObjectPrototype, func(r *value.Realm, o *value.Object) {
		o.Define("constructor", value.Obj(r.Intrinsic(value.ObjectCtor)), value.Writable|value.Configurable)
		r.Methods(o, objectProto)
	})
	l.GlobalIntrinsic("Object", value.ObjectCtor)
	l.Register(objectStatics...)
	l.Register(objectProto...)
}

func objectCtor(r *value.Realm, c *value.Call) value.Value {
	v := c.Arg(0)
	if c.NewTarget != nil && c.NewTarget != c.Callee {
		return value.Obj(value.NewObject(r.ProtoFromCtor(c.NewTarget, value.ObjectPrototype)))
	}
	if v.IsNullish() {
		return value.Obj(r.NewPlainObject())
	}
	return value.Obj(r.ToObject(v)) // a primitive's wrapper object
}

// ownEnumerable lists the own enumerable string keys of any value (a
// string's indexes too), as Object.keys sees them.
func ownEnumerable(r *value.Realm, v value.Value) (keys []string, obj *value.Object) {
	if v.IsNullish() {
		r.ThrowType("Cannot convert undefined or null to object")
	}
	if s := v.AsString(); s != nil {
		r.Tick(s.Len())
		r.Reserve(24 * s.Len())
		keys = make([]string, s.Len())
		for i := range keys {
			keys[i] = value.NumberToString(float64(i)).String()
		}
		return keys, nil
	}
	o := v.AsObject()
	if o == nil {
		return nil, nil
	}
	return r.OwnKeys(o, true, false), o
}

var objectStatics = []*value.Native{
	Native("Object.keys", 1, func(r *value.Realm, c *value.Call) value.Value {
		keys, _ := ownEnumerable(r, c.Arg(0))
		r.Tick(len(keys))
		r.Charge(48 * len(keys)) // the key strings, before they are made
		r.Reserve(24 * len(keys))
		return value.Obj(r.NewArrayValue(strValues(keys)))
	}),
	Native("Object.values", 1, func(r *value.Realm, c *value.Call) value.Value {
		v := c.Arg(0)
		keys, o := ownEnumerable(r, v)
		r.Reserve(24 * len(keys))
		out := make([]value.Value, 0, len(keys))
		for _, k := range keys {
			r.Poll()
			if o != nil && !stillEnumerable(r, o, k) {
				continue
			}
			out = append(out, r.Get(v, k))
		}
		return value.Obj(r.NewArrayValue(out))
	}),
	Native("Object.entries", 1, func(r *value.Realm, c *value.Call) value.Value {
		v := c.Arg(0)
		keys, o := ownEnumerable(r, v)
		r.Reserve(24 * len(keys))
		out := make([]value.Value, 0, len(keys))
		for _, k := range keys {
			r.Poll()
			if o != nil && !stillEnumerable(r, o, k) {
				continue
			}
			pair := r.NewArrayValue([]value.Value{value.StrOf(k), r.Get(v, k)})
			out = append(out, value.Obj(pair))
		}
		return value.Obj(r.NewArrayValue(out))
	}),
	Native("Object.assign", 2, func(r *value.Realm, c *value.Call) value.Value {
		target := value.Obj(r.ToObject(c.Arg(0)))
		for _, src := range c.Args[1:] {
			if src.IsNullish() {
				continue
			}
			keys, o := ownEnumerable(r, src)
			if o != nil {
				keys = r.OwnKeys(o, true, true)
			}
			for _, k := range keys {
				r.Poll()
				r.Set(target, k, r.Get(src, k))
			}
		}
		return target
	}),
	Native("Object.freeze", 1, func(r *value.Realm, c *value.Call) value.Value {
		if o := c.Arg(0).AsObject(); o != nil {
			o.Freeze()
			if a, ok := o.Internal.(*value.ArrayData); ok {
				a.Frozen, a.Sealed, a.LengthReadOnly = true, true, true
			}
		}
		return c.Arg(0)
	}),
	Native("Object.isFrozen", 1, func(r *value.Realm, c *value.Call) value.Value {
		o := c.Arg(0).AsObject()
		if o == nil {
			return value.True
		}
		if a, ok := o.Internal.(*value.ArrayData); ok && a.Len() > 0 && !a.Frozen {
			return value.False
		}
		return value.Bool(o.IsFrozen())
	}),
	Native("Object.seal", 1, func(r *value.Realm, c *value.Call) value.Value {
		if o := c.Arg(0).AsObject(); o != nil {
			o.Seal()
			if a, ok := o.Internal.(*value.ArrayData); ok {
				a.Sealed = true
			}
		}
		return c.Arg(0)
	}),
	Native("Object.isSealed", 1, func(r *value.Realm, c *value.Call) value.Value {
		o := c.Arg(0).AsObject()
		if o == nil {
			return value.True
		}
		if a, ok := o.Internal.(*value.ArrayData); ok && a.Len() > 0 && !a.Sealed {
			return value.False
		}
		return value.Bool(o.IsSealed())
	}),
	Native("Object.preventExtensions", 1, func(r *value.Realm, c *value.Call) value.Value {
		if o := c.Arg(0).AsObject(); o != nil {
			o.PreventExtensions()
		}
		return c.Arg(0)
	}),
	Native("Object.isExtensible", 1, func(r *value.Realm, c *value.Call) value.Value {
		o := c.Arg(0).AsObject()
		return value.Bool(o != nil && o.Extensible())
	}),
	Native("Object.create", 2, func(r *value.Realm, c *value.Call) value.Value {
		p := c.Arg(0)
		var proto *value.Object
		switch {
		case p.IsNull():
		case p.IsObject():
			proto = p.AsObject()
		default:
			r.ThrowType("Object prototype may only be an Object or null: %s", r.Describe(p))
		}
		o := value.NewObject(proto)
		r.Charge(96)
		if props := c.Arg(1); !props.IsUndefined() {
			defineProperties(r, o, props)
		}
		return value.Obj(o)
	}),
	Native("Object.getPrototypeOf", 1, func(r *value.Realm, c *value.Call) value.Value {
		v := c.Arg(0)
		if v.IsNullish() {
			r.ThrowType("Cannot convert undefined or null to object")
		}
		p := r.ProtoOf(v)
		if v.IsObject() {
			p = v.AsObject().Proto
		}
		if p == nil {
			return value.Null
		}
		return value.Obj(p)
	}),
	Native("Object.setPrototypeOf", 2, func(r *value.Realm, c *value.Call) value.Value {
		o := c.Arg(0).AsObject()
		p := c.Arg(1)
		if !p.IsObject() && !p.IsNull() {
			r.ThrowType("Object prototype may only be an Object or null: %s", r.Describe(p))
		}
		if o == nil {
			return c.Arg(0)
		}
		np := p.AsObject()
		for x := np; x != nil; x = x.Proto {
			if x == o {
				r.ThrowType("Cyclic __proto__ value")
			}
		}
		if !o.Extensible() && np != o.Proto {
			r.ThrowType("#<Object> is not extensible")
		}
		o.Proto = np
		return c.Arg(0)
	}),
	Native("Object.defineProperty", 3, func(r *value.Realm, c *value.Call) value.Value {
		o := c.Arg(0).AsObject()
		if o == nil {
			r.ThrowType("Object.defineProperty called on non-object")
		}
		key := r.ToPropertyKey(c.Arg(1))
		definePropertyFromDescriptor(r, o, key, c.Arg(2))
		return c.Arg(0)
	}),
	Native("Object.defineProperties", 2, func(r *value.Realm, c *value.Call) value.Value {
		o := c.Arg(0).AsObject()
		if o == nil {
			r.ThrowType("Object.defineProperties called on non-object")
		}
		defineProperties(r, o, c.Arg(1))
		return c.Arg(0)
	}),
	Native("Object.getOwnPropertyNames", 1, func(r *value.Realm, c *value.Call) value.Value {
		o := r.ToObject(c.Arg(0))
		return value.Obj(r.NewArrayValue(strValues(r.OwnKeys(o, false, false))))
	}),
	Native("Object.getOwnPropertySymbols", 1, func(r *value.Realm, c *value.Call) value.Value {
		o := r.ToObject(c.Arg(0))
		var out []value.Value
		for _, k := range r.OwnKeys(o, false, true) {
			if s := value.SymbolOfKey(k); s != nil {
				out = append(out, value.Sym(s))
			}
		}
		return value.Obj(r.NewArrayValue(out))
	}),
	Native("Object.getOwnPropertyDescriptor", 2, func(r *value.Realm, c *value.Call) value.Value {
		o := r.ToObject(c.Arg(0))
		key := r.ToPropertyKey(c.Arg(1))
		p, ok := r.GetOwnProperty(o, key)
		if !ok || value.IsPrivateKey(key) {
			return value.Undefined
		}
		return value.Obj(descriptorObject(r, p))
	}),
	Native("Object.getOwnPropertyDescriptors", 1, func(r *value.Realm, c *value.Call) value.Value {
		o := r.ToObject(c.Arg(0))
		out := r.NewPlainObject()
		for _, k := range r.OwnKeys(o, false, true) {
			if p, ok := r.GetOwnProperty(o, k); ok && !value.IsPrivateKey(k) {
				out.Define(k, value.Obj(descriptorObject(r, p)), value.DefaultFlags)
			}
		}
		return value.Obj(out)
	}),
	Native("Object.fromEntries", 1, func(r *value.Realm, c *value.Call) value.Value {
		if c.Arg(0).IsNullish() {
			r.ThrowType("%s is not iterable", c.Arg(0).TypeOfNullish())
		}
		out := r.NewPlainObject()
		it := r.GetIterator(c.Arg(0))
		for {
			e, ok := it.Step(r)
			if !ok {
				break
			}
			if !e.IsObject() {
				it.CloseQuietly(r)
				r.ThrowType("Iterator value %s is not an entry object", r.Describe(e))
			}
			// The entry's key, its value, then the key's conversion; a
			// throw in any of them closes the iterator.
			if exc := r.Try(func() {
				k, v := r.GetIndex(e, 0), r.GetIndex(e, 1)
				r.DefineProperty(out, value.Property{Key: r.ToPropertyKey(k), Value: v, Flags: value.DefaultFlags})
			}); exc != nil {
				it.CloseQuietly(r)
				panic(exc)
			}
		}
		return value.Obj(out)
	}),
	Native("Object.groupBy", 2, func(r *value.Realm, c *value.Call) value.Value {
		out := value.NewObject(nil)
		cb := c.Arg(1)
		if o := cb.AsObject(); o == nil || !o.Callable() {
			r.ThrowType("%s is not a function", r.Describe(cb))
		}
		it := r.GetIterator(c.Arg(0))
		i := 0
		for {
			v, ok := it.Step(r)
			if !ok {
				break
			}
			var k value.Value
			if exc := r.Try(func() { k = r.Call(cb, value.Undefined, []value.Value{v, value.Number(float64(i))}) }); exc != nil {
				it.CloseQuietly(r)
				panic(exc)
			}
			key := r.ToPropertyKey(k)
			g := out.GetOwn(key)
			if g == nil {
				out.Define(key, value.Obj(r.NewArrayValue(nil)), value.DefaultFlags)
				g = out.GetOwn(key)
			}
			if err := g.Value.AsObject().Array().Push(v); err != nil {
				r.ThrowRange(value.ArrayLengthMessage)
			}
			i++
		}
		return value.Obj(out)
	}),
	Native("Object.hasOwn", 2, func(r *value.Realm, c *value.Call) value.Value {
		v := c.Arg(0)
		if v.IsNullish() { // ToObject comes before ToPropertyKey
			r.ThrowType("Cannot convert undefined or null to object")
		}
		key := r.ToPropertyKey(c.Arg(1))
		return value.Bool(hasOwn(r, v, key))
	}),
	Native("Object.is", 2, func(r *value.Realm, c *value.Call) value.Value {
		return value.Bool(value.SameValue(c.Arg(0), c.Arg(1)))
	}),
}

func hasOwn(r *value.Realm, v value.Value, key string) bool {
	if v.IsNullish() {
		r.ThrowType("Cannot convert undefined or null to object")
	}
	if s := v.AsString(); s != nil {
		if i, ok := value.ArrayIndexOf(key); ok {
			return i < s.Len()
		}
		return key == "length"
	}
	o := v.AsObject()
	if o == nil || value.IsPrivateKey(key) {
		return false
	}
	return r.HasOwn(o, key)
}

func stillEnumerable(r *value.Realm, o *value.Object, k string) bool {
	p, ok := r.GetOwnProperty(o, k)
	return ok && p.Flags&value.Enumerable != 0
}

func strValues(keys []string) []value.Value {
	out := make([]value.Value, len(keys))
	for i, k := range keys {
		out[i] = value.StrOf(k)
	}
	return out
}

// descriptorObject is the object form of a property descriptor.
func descriptorObject(r *value.Realm, p value.Property) *value.Object {
	d := r.NewPlainObject()
	if p.IsAccessor() {
		get, set := value.Undefined, value.Undefined
		if p.Get != nil {
			get = value.Obj(p.Get)
		}
		if p.Set != nil {
			set = value.Obj(p.Set)
		}
		d.Define("get", get, value.DefaultFlags)
		d.Define("set", set, value.DefaultFlags)
	} else {
		d.Define("value", p.Value, value.DefaultFlags)
		d.Define("writable", value.Bool(p.Flags&value.Writable != 0), value.DefaultFlags)
	}
	d.Define("enumerable", value.Bool(p.Flags&value.Enumerable != 0), value.DefaultFlags)
	d.Define("configurable", value.Bool(p.Flags&value.Configurable != 0), value.DefaultFlags)
	return d
}

func defineProperties(r *value.Realm, o *value.Object, props value.Value) {
	po := props.AsObject()
	if po == nil {
		return
	}
	for _, k := range r.OwnKeys(po, true, true) {
		definePropertyFromDescriptor(r, o, k, r.Get(props, k))
	}
}

// definePropertyFromDescriptor is Object.defineProperty's core: absent
// fields keep the current property's attributes (or default to false).
func definePropertyFromDescriptor(r *value.Realm, o *value.Object, key string, desc value.Value) {
	d := desc.AsObject()
	if d == nil {
		r.ThrowType("Property description must be an object: %s", r.Describe(desc))
	}
	has := func(k string) bool { return r.HasProperty(d, k) }
	cur, exists := r.GetOwnProperty(o, key)
	p := value.Property{Key: key}
	if exists {
		p = cur
	}
	if has("enumerable") {
		setFlag(&p, value.Enumerable, r.Get(desc, "enumerable").ToBoolean())
	}
	if has("configurable") {
		setFlag(&p, value.Configurable, r.Get(desc, "configurable").ToBoolean())
	}
	isAccessor := has("get") || has("set")
	if isAccessor {
		if has("value") || has("writable") {
			r.ThrowType("Invalid property descriptor. Cannot both specify accessors and a value or writable attribute")
		}
		if !p.IsAccessor() {
			p.Value, p.Get, p.Set = value.Undefined, nil, nil
			p.Flags &^= value.Writable
		}
		p.Flags |= value.Accessor
		for _, k := range []string{"get", "set"} {
			if !has(k) {
				continue
			}
			fv := r.Get(desc, k)
			f := fv.AsObject()
			if !fv.IsUndefined() && (f == nil || !f.Callable()) {
				r.ThrowType("%s must be a function: %s", map[string]string{"get": "Getter", "set": "Setter"}[k], r.Describe(fv))
			}
			if k == "get" {
				p.Get = f
			} else {
				p.Set = f
			}
		}
	} else {
		if p.IsAccessor() && (has("value") || has("writable")) {
			p.Flags &^= value.Accessor
			p.Get, p.Set = nil, nil
		}
		if has("value") {
			p.Value = r.Get(desc, "value")
		}
		if has("writable") {
			setFlag(&p, value.Writable, r.Get(desc, "writable").ToBoolean())
		}
	}
	if !r.DefineProperty(o, p) {
		r.ThrowType("Cannot redefine property: %s", value.KeyString(key))
	}
}

func setFlag(p *value.Property, f value.PropFlags, on bool) {
	if on {
		p.Flags |= f
	} else {
		p.Flags &^= f
	}
}

var objectProto = []*value.Native{
	Native("Object.prototype.hasOwnProperty", 1, func(r *value.Realm, c *value.Call) value.Value {
		key := r.ToPropertyKey(c.Arg(0))
		return value.Bool(hasOwn(r, c.This, key))
	}),
	Native("Object.prototype.isPrototypeOf", 1, func(r *value.Realm, c *value.Call) value.Value {
		v := c.Arg(0).AsObject()
		if v == nil {
			return value.False
		}
		o := thisObject(r, c, "Object.prototype.isPrototypeOf")
		for p := v.Proto; p != nil; p = p.Proto {
			if p == o {
				return value.True
			}
		}
		return value.False
	}),
	Native("Object.prototype.propertyIsEnumerable", 1, func(r *value.Realm, c *value.Call) value.Value {
		key := r.ToPropertyKey(c.Arg(0))
		if s := c.This.AsString(); s != nil {
			i, ok := value.ArrayIndexOf(key)
			return value.Bool(ok && i < s.Len())
		}
		o := c.This.AsObject()
		if o == nil {
			return value.False
		}
		return value.Bool(stillEnumerable(r, o, key))
	}),
	Native("Object.prototype.toString", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.StrOf(objectToString(r, c.This))
	}),
	Native("Object.prototype.toLocaleString", 0, func(r *value.Realm, c *value.Call) value.Value {
		return r.Call(r.Get(c.This, "toString"), c.This, nil)
	}),
	Native("Object.prototype.valueOf", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Obj(r.ToObject(c.This))
	}),
}

// objectToString is Object.prototype.toString: "[object Tag]".
func objectToString(r *value.Realm, v value.Value) string {
	switch v.Kind() {
	case value.KindUndefined:
		return "[object Undefined]"
	case value.KindNull:
		return "[object Null]"
	case value.KindString:
		return "[object String]"
	case value.KindNumber:
		return "[object Number]"
	case value.KindBoolean:
		return "[object Boolean]"
	}
	o := v.AsObject()
	builtinTag := "Object"
	if o != nil {
		switch {
		case o.Class == value.ClassArray:
			builtinTag = "Array"
		case o.Callable():
			builtinTag = "Function"
		case o.Class == value.ClassError:
			builtinTag = "Error"
		case o.Class == value.ClassDate:
			builtinTag = "Date"
		case o.Class == value.ClassRegExp:
			builtinTag = "RegExp"
		case o.Class == value.ClassArguments:
			builtinTag = "Arguments"
		case o.Class == value.ClassString || o.Class == value.ClassNumber || o.Class == value.ClassBoolean:
			if _, ok := o.PrimitiveValue(); ok {
				builtinTag = map[value.Class]string{value.ClassString: "String", value.ClassNumber: "Number", value.ClassBoolean: "Boolean"}[o.Class]
			}
		}
	}
	if t := r.Get(v, value.SymToStringTag.Key()); t.IsString() {
		return "[object " + t.AsString().String() + "]"
	}
	return "[object " + builtinTag + "]"
}
