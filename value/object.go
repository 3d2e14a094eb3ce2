package value

import (
	"slices"
	"strconv"
)

// Class says which kind of object an Object is; Internal holds the data
// that kind needs (array elements, a function's code, a Map's entries).
type Class uint8

// Object classes.
const (
	ClassObject Class = iota
	ClassArray
	ClassFunction
	ClassError
	ClassBoolean
	ClassNumber
	ClassString
	ClassDate
	ClassRegExp
	ClassMap
	ClassSet
	ClassWeakMap
	ClassWeakSet
	ClassPromise
	ClassIterator
	ClassGenerator
	ClassURL
	ClassURLSearchParams
	ClassHeaders
	ClassUint8Array
	ClassArguments
	ClassSymbol // a Symbol wrapper object, Object(sym)
	// ClassHost is an object the host computes (a tool reference).
	ClassHost
)

// PropFlags are a property's attributes.
type PropFlags uint8

// Property attributes. Accessor marks a getter/setter pair; tombstone
// marks a deleted slot awaiting compaction (never visible).
const (
	Writable PropFlags = 1 << iota
	Enumerable
	Configurable
	Accessor
	tombstone

	// DefaultFlags are the attributes of a property made by assignment or
	// an object literal.
	DefaultFlags = Writable | Enumerable | Configurable
)

// Property is one own property: a data value, or a getter and setter.
type Property struct {
	Key   string // WTF-8 (see String.Key)
	Value Value
	Get   *Object // accessor getter, or nil
	Set   *Object // accessor setter, or nil
	Flags PropFlags
}

// IsAccessor reports a getter/setter property.
func (p *Property) IsAccessor() bool { return p.Flags&Accessor != 0 }

// Object is a JavaScript object. Its own properties keep JavaScript's
// order: integer-like keys ascending, then the others in the order they
// were added.
//
// Properties live in a slice; past indexMin of them a map from key to
// slot keeps lookups constant-time. Deleting leaves a tombstone (so
// indexes stay valid) that is compacted when tombstones outnumber live
// slots.
type Object struct {
	Proto    *Object
	Class    Class
	Internal any // class-specific data

	props      []Property
	index      map[string]int32
	dead       int // tombstones in props
	hasIndex   bool
	notExtends bool
	// callable is set for functions; the engines store the code in
	// Internal.
	callable bool
}

// indexMin is the property count past which an object builds a map.
const indexMin = 8

// NewObject makes an ordinary object with the given prototype (or nil).
func NewObject(proto *Object) *Object { return &Object{Proto: proto} }

// NewFunctionObject makes a callable object of ClassFunction whose code
// (an engine's closure or a built-in's name) is in internal.
func NewFunctionObject(proto *Object, internal any) *Object {
	return &Object{Proto: proto, Class: ClassFunction, Internal: internal, callable: true}
}

// Callable reports whether the object can be called.
func (o *Object) Callable() bool { return o.callable }

// Extensible reports whether properties may be added.
func (o *Object) Extensible() bool { return !o.notExtends }

// PreventExtensions stops new properties from being added.
func (o *Object) PreventExtensions() { o.notExtends = true }

func (o *Object) find(key string) int {
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return int(i)
		}
		return -1
	}
	for i := range o.props {
		if o.props[i].Key == key && o.props[i].Flags&tombstone == 0 {
			return i
		}
	}
	return -1
}

// GetOwn returns the own property named key, or nil. The pointer is valid
// until the object's properties next change.
func (o *Object) GetOwn(key string) *Property {
	if i := o.find(key); i >= 0 {
		return &o.props[i]
	}
	return nil
}

// Lookup finds key on the object or its prototype chain, returning the
// property and the object that owns it. A getter found there is for the
// engine to call with the original receiver.
func (o *Object) Lookup(key string) (*Property, *Object) {
	for obj := o; obj != nil; obj = obj.Proto {
		if p := obj.GetOwn(key); p != nil {
			return p, obj
		}
	}
	return nil, nil
}

// Define creates or replaces an own property with the given value and
// attributes, without any checks: the built-ins and the engines check
// writability and extensibility first where JavaScript requires it.
func (o *Object) Define(key string, v Value, flags PropFlags) {
	if i := o.find(key); i >= 0 {
		o.props[i] = Property{Key: key, Value: v, Flags: flags}
		return
	}
	o.add(Property{Key: key, Value: v, Flags: flags})
}

// DefineAccessor creates or replaces an own getter/setter property.
func (o *Object) DefineAccessor(key string, get, set *Object, flags PropFlags) {
	p := Property{Key: key, Get: get, Set: set, Flags: flags | Accessor}
	if i := o.find(key); i >= 0 {
		o.props[i] = p
		return
	}
	o.add(p)
}

// Put assigns an own data property the way `o.key = v` does when the
// object itself holds (or would hold) it: it reports false when the
// property is read-only or the object not extensible, which strict code
// turns into a TypeError. Accessors and inherited properties are the
// engine's to handle before calling Put.
func (o *Object) Put(key string, v Value) bool {
	if i := o.find(key); i >= 0 {
		p := &o.props[i]
		if p.Flags&Writable == 0 || p.IsAccessor() {
			return false
		}
		p.Value = v
		return true
	}
	if o.notExtends {
		return false
	}
	o.add(Property{Key: key, Value: v, Flags: DefaultFlags})
	return true
}

// Reserve makes room for n more own properties, so that an object
// built with a known number of keys (a copied map) grows its property
// list once.
func (o *Object) Reserve(n int) {
	if n > 0 && cap(o.props)-len(o.props) < n {
		o.props = append(make([]Property, 0, len(o.props)+n), o.props...)
	}
}

func (o *Object) add(p Property) {
	if !o.hasIndex && IsArrayIndex(p.Key) {
		o.hasIndex = true
	}
	o.props = append(o.props, p)
	if o.index != nil {
		o.index[p.Key] = int32(len(o.props) - 1)
	} else if len(o.props) > indexMin {
		o.buildIndex()
	}
}

func (o *Object) buildIndex() {
	o.index = make(map[string]int32, len(o.props))
	for i := range o.props {
		if o.props[i].Flags&tombstone == 0 {
			o.index[o.props[i].Key] = int32(i)
		}
	}
}

// Delete removes an own property. It reports false, changing nothing, when
// the property is not configurable; deleting a missing key succeeds.
func (o *Object) Delete(key string) bool {
	i := o.find(key)
	if i < 0 {
		return true
	}
	if o.props[i].Flags&Configurable == 0 {
		return false
	}
	o.props[i] = Property{Flags: tombstone}
	o.dead++
	if o.index != nil {
		delete(o.index, key)
	}
	if o.dead > len(o.props)/2 {
		o.compact()
	}
	return true
}

func (o *Object) compact() {
	live := o.props[:0]
	for _, p := range o.props {
		if p.Flags&tombstone == 0 {
			live = append(live, p)
		}
	}
	clear(o.props[len(live):])
	o.props, o.dead = live, 0
	if o.index != nil {
		o.buildIndex()
	}
}

// EachOwn calls f with each own property in slot order (not key order),
// without allocating; f must not add or delete properties.
func (o *Object) EachOwn(f func(p *Property)) {
	for i := range o.props {
		if o.props[i].Flags&tombstone == 0 {
			f(&o.props[i])
		}
	}
}

// HasIndexKeys reports whether the object has ever had an element-like
// (array index) key among its ordinary properties.
func (o *Object) HasIndexKeys() bool { return o.hasIndex }

// IsPrivateKey reports a key that holds a class's private member: such
// keys never show in key lists.
func IsPrivateKey(key string) bool { return len(key) > 0 && key[0] == 0xfe }

// Len is the number of own properties.
func (o *Object) Len() int { return len(o.props) - o.dead }

// OwnKeys returns the own property keys in JavaScript's order: array
// indexes ascending, then the other keys in insertion order. With
// enumerableOnly, non-enumerable properties are left out.
func (o *Object) OwnKeys(enumerableOnly bool) []string {
	keys := make([]string, 0, o.Len())
	var indexes []string
	for i := range o.props {
		p := &o.props[i]
		if p.Flags&tombstone != 0 || enumerableOnly && p.Flags&Enumerable == 0 || IsPrivateKey(p.Key) {
			continue
		}
		if o.hasIndex && IsArrayIndex(p.Key) {
			indexes = append(indexes, p.Key)
			continue
		}
		keys = append(keys, p.Key)
	}
	if len(indexes) == 0 {
		return keys
	}
	slices.SortFunc(indexes, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b) // canonical indexes: shorter is smaller
		}
		if a < b {
			return -1
		} else if a > b {
			return 1
		}
		return 0
	})
	return append(indexes, keys...)
}

// Freeze makes every own property read-only and non-configurable and
// stops extensions (Object.freeze). Seal leaves data writable.
func (o *Object) Freeze() { o.lock(true) }

// Seal makes every own property non-configurable and stops extensions.
func (o *Object) Seal() { o.lock(false) }

func (o *Object) lock(freeze bool) {
	o.notExtends = true
	for i := range o.props {
		p := &o.props[i]
		p.Flags &^= Configurable
		if freeze && !p.IsAccessor() {
			p.Flags &^= Writable
		}
	}
}

// IsFrozen reports Object.isFrozen; IsSealed reports Object.isSealed.
func (o *Object) IsFrozen() bool { return o.isLocked(true) }

// IsSealed reports whether no property can be added or removed.
func (o *Object) IsSealed() bool { return o.isLocked(false) }

func (o *Object) isLocked(frozen bool) bool {
	if !o.notExtends {
		return false
	}
	for i := range o.props {
		p := &o.props[i]
		if p.Flags&tombstone != 0 {
			continue
		}
		if p.Flags&Configurable != 0 || frozen && !p.IsAccessor() && p.Flags&Writable != 0 {
			return false
		}
	}
	return true
}

// IsArrayIndex reports whether key is a canonical array index: the
// decimal form of an integer in [0, 2^32 - 2], without leading zeros.
func IsArrayIndex(key string) bool {
	n := len(key)
	if n == 0 || n > 10 || key[0] == '0' && n > 1 {
		return false
	}
	for i := 0; i < n; i++ {
		if key[i] < '0' || key[i] > '9' {
			return false
		}
	}
	if n < 10 {
		return true
	}
	v, err := strconv.ParseUint(key, 10, 64)
	return err == nil && v < 1<<32-1
}
