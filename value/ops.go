package value

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/go-codemode/codemode/internal/jsnum"
)

// The object operations of the specification ([[Get]], [[Set]],
// [[HasProperty]], [[Delete]], [[OwnPropertyKeys]]) over every kind of
// object codemode has, and the conversions that may call program code
// (ToPrimitive and what builds on it). Getters, setters, valueOf and
// toString run through the realm's Agent.

// Indexed is implemented by the Internal of objects whose integer keys
// are elements rather than properties (Uint8Array).
type Indexed interface {
	IndexLen() int
	IndexGet(i int) Value
	// IndexSet stores v (already converted as the type requires) and
	// reports false when i is out of range.
	IndexSet(r *Realm, i int, v Value) bool
}

// HostObject is implemented by the Internal of objects whose properties
// the host computes (tool references: every name is a path below). Their
// ordinary properties are never consulted.
type HostObject interface {
	// HostGet returns the property key of o, or ok=false for none.
	HostGet(r *Realm, o *Object, key string) (v Value, ok bool)
	// HostKeys lists o's enumerable keys (Object.keys, for...in).
	HostKeys(r *Realm, o *Object) []string
}

// HostCallable is implemented by the Internal of callable host objects.
type HostCallable interface {
	HostCall(r *Realm, o *Object, c *Call) Value
}

// RequireData throws the reference's InvalidDataValue TypeError "Binary
// operators require data values." when a or b is opaque: a function (the
// Symbol constructor and tool references included), a promise, a
// generator, or another host object. Operators that coerce their operands
// call it before ToPrimitive, so that `"n=" + tools.x.y()` fails loudly
// instead of giving "n=[object Promise]", a silent wrong answer.
func (r *Realm) RequireData(a, b Value) {
	if opaque(a) || opaque(b) {
		r.ThrowKind("InvalidDataValue", TypeError, "Binary operators require data values.")
	}
}

func opaque(v Value) bool {
	o, ok := v.ref.(*Object)
	if !ok {
		return false
	}
	return o.callable || o.Class == ClassPromise || o.Class == ClassGenerator || o.Class == ClassHost
}

// ProtoOf returns the object whose properties a primitive exposes
// (String.prototype for strings), or the object itself.
func (r *Realm) ProtoOf(v Value) *Object {
	switch x := v.ref.(type) {
	case *Object:
		return x
	case *String:
		return r.Intrinsic(StringPrototype)
	case *numberTag:
		return r.Intrinsic(NumberPrototype)
	case *boolTag:
		return r.Intrinsic(BooleanPrototype)
	case *Symbol:
		return r.Intrinsic(SymbolPrototype)
	}
	return nil
}

// Get is v[key] for any value: primitives read their prototype's
// properties, null and undefined throw V8's TypeError.
func (r *Realm) Get(v Value, key string) Value {
	switch x := v.ref.(type) {
	case *Object:
		return r.GetObj(x, key, v)
	case *String:
		if key == "length" {
			return Number(float64(x.Len()))
		}
		if i, ok := arrayIndex(key); ok {
			if i < x.Len() {
				return Str(x.Slice(i, i+1))
			}
			return Undefined
		}
		return r.GetObj(r.Intrinsic(StringPrototype), key, v)
	case nil, *holeTag, *nullTag:
		r.ThrowType("Cannot read properties of %s (reading '%s')", v.TypeOfNullish(), KeyString(key))
	}
	return r.GetObj(r.ProtoOf(v), key, v)
}

// TypeOfNullish names null or undefined for error messages.
func (v Value) TypeOfNullish() string {
	if v.IsNull() {
		return "null"
	}
	return "undefined"
}

// KeyString renders a property key for an error message.
func KeyString(key string) string {
	if s := SymbolOfKey(key); s != nil {
		return s.String()
	}
	return NewString(key).String()
}

// GetObj is o[key] with receiver as `this` for getters.
func (r *Realm) GetObj(o *Object, key string, receiver Value) Value {
	for obj := o; obj != nil; obj = obj.Proto {
		if obj.Class != ClassObject && obj.Class != ClassFunction {
			if v, ok := r.getExotic(obj, key); ok {
				return v
			}
		}
		if i := obj.find(key); i >= 0 {
			p := &obj.props[i]
			if p.Flags&Accessor == 0 {
				return p.Value
			}
			if p.Get == nil {
				return Undefined
			}
			return r.CallObject(p.Get, receiver, nil)
		}
	}
	return Undefined
}

// getExotic reads the element-like own properties of arrays and indexed
// objects, and the computed properties of host objects.
func (r *Realm) getExotic(o *Object, key string) (Value, bool) {
	switch in := o.Internal.(type) {
	case HostObject:
		v, ok := in.HostGet(r, o, key)
		if !ok {
			return Undefined, true // nothing inherited either
		}
		return v, true
	case *String:
		if o.Class == ClassString {
			if i, ok := arrayIndex(key); ok && i < in.Len() {
				return Str(in.Slice(i, i+1)), true
			}
		}
	case *ArrayData:
		if key == "length" {
			return Number(float64(in.length)), true
		}
		if i, ok := arrayIndex(key); ok {
			v, present := in.Get(i)
			if present {
				return v, true
			}
			return Undefined, false
		}
	case Indexed:
		if key == "length" && o.Class == ClassUint8Array {
			return Undefined, false // an accessor on the prototype
		}
		if i, ok := arrayIndex(key); ok {
			if i < in.IndexLen() {
				return in.IndexGet(i), true
			}
			return Undefined, true
		}
		if canonicalNumeric(key) {
			return Undefined, true // "-1", "1.5", "NaN": never properties
		}
	}
	return Undefined, false
}

// canonicalNumeric reports a CanonicalNumericIndexString that is not an
// array index: typed arrays treat such keys as (missing) elements.
func canonicalNumeric(key string) bool {
	if key == "-0" {
		return true
	}
	if key == "" || len(key) > 32 {
		return false
	}
	f, ok := StrOf(key).ToNumber()
	return ok && NumberToString(f).String() == key
}

// GetIndex is v[i] for a non-negative integer i, fast for arrays.
func (r *Realm) GetIndex(v Value, i int) Value {
	if o := v.AsObject(); o != nil {
		if a, ok := o.Internal.(*ArrayData); ok {
			if v, present := a.Get(i); present {
				return v
			}
		}
	}
	return r.Get(v, strconv.Itoa(i))
}

// arrayIndex parses a canonical array index key.
func arrayIndex(key string) (int, bool) {
	n := len(key)
	if n == 0 || n > 10 || key[0] < '0' || key[0] > '9' || key[0] == '0' && n > 1 {
		return 0, false
	}
	v := 0
	for i := 0; i < n; i++ {
		c := key[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	if v > 1<<32-2 {
		return 0, false
	}
	return v, true
}

// ArrayIndexOf parses a canonical array index key (exported for engines).
func ArrayIndexOf(key string) (int, bool) { return arrayIndex(key) }

// Set is v[key] = val in strict code: any failure throws V8's TypeError.
func (r *Realm) Set(v Value, key string, val Value) {
	switch x := v.ref.(type) {
	case *Object:
		if !r.SetObj(x, key, val, v) {
			r.failSet(x, key)
		}
		return
	case nil, *holeTag, *nullTag:
		r.ThrowType("Cannot set properties of %s (setting '%s')", v.TypeOfNullish(), KeyString(key))
	}
	// A primitive: only an inherited setter can take the assignment.
	if p, _ := r.ProtoOf(v).Lookup(key); p != nil && p.IsAccessor() && p.Set != nil {
		r.CallObject(p.Set, v, []Value{val})
		return
	}
	s, _ := v.ToString()
	if v.IsSymbol() {
		s = v.AsSymbol().DescriptiveString()
	}
	r.ThrowType("Cannot create property '%s' on %s '%s'", KeyString(key), v.TypeOf(), s.String())
}

func (r *Realm) failSet(o *Object, key string) {
	if p, _ := o.Lookup(key); p != nil && p.IsAccessor() {
		r.ThrowType("Cannot set property %s of %s which has only a getter", KeyString(key), r.ObjectTag(o))
	}
	if a, ok := o.Internal.(*ArrayData); ok && a.Frozen {
		r.ThrowType("Cannot assign to read only property '%s' of object '%s'", KeyString(key), r.ObjectTag(o))
	}
	if !o.Extensible() && o.GetOwn(key) == nil {
		r.ThrowType("Cannot add property %s, object is not extensible", KeyString(key))
	}
	r.ThrowType("Cannot assign to read only property '%s' of object '%s'", KeyString(key), r.ObjectTag(o))
}

// ObjectTag is V8's short rendering of an object in messages: #<Object>,
// #<Foo> for instances of Foo, [object Array].
func (r *Realm) ObjectTag(o *Object) string {
	if o.Class == ClassArray {
		return "[object Array]"
	}
	if o.callable {
		return "function"
	}
	name := "Object"
	if t, _ := o.Lookup(SymToStringTag.key); t != nil && !t.IsAccessor() && t.Value.IsString() {
		return "[object " + t.Value.AsString().String() + "]"
	}
	if c, ok := o.Lookup("constructor"); ok != nil && c != nil && !c.IsAccessor() {
		if f := c.Value.AsObject(); f != nil && f.callable {
			if n := r.FunctionName(f); n != "" {
				name = n
			}
		}
	}
	return "#<" + name + ">"
}

// SetObj is o[key] = val with the given receiver; it reports false where
// strict code throws.
func (r *Realm) SetObj(o *Object, key string, val Value, receiver Value) bool {
	// Own exotic elements first.
	switch in := o.Internal.(type) {
	case HostObject:
		return false
	case *String:
		if stringIndex(o, key) {
			return false // a String object's characters are read-only
		}
	case *ArrayData:
		if i, ok := arrayIndex(key); ok && !(o.hasIndex && o.find(key) >= 0) {
			if in.Frozen {
				return false
			}
			if _, present := in.Get(i); present || r.inheritedSetter(o.Proto, key) == nil {
				if !present && !o.Extensible() {
					return false
				}
				if receiver.AsObject() == o {
					if err := in.Set(i, val); err != nil {
						r.ThrowRange(ArrayLengthMessage)
					}
					return true
				}
			}
		} else if key == "length" {
			if in.Frozen || in.LengthReadOnly {
				return false
			}
			n, ok := r.ToArrayLength(val)
			if !ok {
				r.ThrowRange(ArrayLengthMessage)
			}
			if err := in.SetLength(n); err != nil {
				r.ThrowRange(ArrayLengthMessage)
			}
			return true
		}
	case Indexed:
		if i, ok := arrayIndex(key); ok {
			in.IndexSet(r, i, val)
			return true
		}
		if canonicalNumeric(key) {
			r.ToNumber(val) // converted, then dropped, as for an out-of-range index
			return true
		}
	}
	if i := o.find(key); i >= 0 {
		p := &o.props[i]
		if p.Flags&Accessor != 0 {
			if p.Set == nil {
				return false
			}
			r.CallObject(p.Set, receiver, []Value{val})
			return true
		}
		if p.Flags&Writable == 0 {
			return false
		}
		if receiver.AsObject() == o {
			p.Value = val
			return true
		}
		return r.defineOnReceiver(receiver, key, val)
	}
	// Inherited: a setter runs; a read-only data property blocks.
	for obj := o.Proto; obj != nil; obj = obj.Proto {
		if obj.Class != ClassObject && obj.Class != ClassFunction {
			if stringIndex(obj, key) {
				return false
			}
			if _, ok := r.getExotic(obj, key); ok {
				break
			}
		}
		if p := obj.GetOwn(key); p != nil {
			if p.IsAccessor() {
				if p.Set == nil {
					return false
				}
				r.CallObject(p.Set, receiver, []Value{val})
				return true
			}
			if p.Flags&Writable == 0 {
				return false
			}
			break
		}
	}
	return r.defineOnReceiver(receiver, key, val)
}

func (r *Realm) inheritedSetter(proto *Object, key string) *Property {
	if proto == nil {
		return nil
	}
	if p, _ := proto.Lookup(key); p != nil && p.IsAccessor() {
		return p
	}
	return nil
}

// defineOnReceiver creates or updates the receiver's own data property.
func (r *Realm) defineOnReceiver(receiver Value, key string, val Value) bool {
	ro := receiver.AsObject()
	if ro == nil {
		return false
	}
	if a, ok := ro.Internal.(*ArrayData); ok {
		if i, ok := arrayIndex(key); ok {
			if a.Frozen || !ro.Extensible() {
				return false
			}
			if err := a.Set(i, val); err != nil {
				r.ThrowRange(ArrayLengthMessage)
			}
			return true
		}
	}
	if p := ro.GetOwn(key); p != nil {
		if p.IsAccessor() || p.Flags&Writable == 0 {
			return false
		}
		p.Value = val
		return true
	}
	if !ro.Extensible() {
		return false
	}
	r.Charge(propertyBytes)
	ro.add(Property{Key: key, Value: val, Flags: DefaultFlags})
	return true
}

// propertyBytes is what one added property costs in the memory count.
const propertyBytes = 64

// ToArrayLength converts a value assigned to an array's length.
func (r *Realm) ToArrayLength(v Value) (int, bool) {
	n := r.ToNumber(v)
	if n < 0 || n != math.Trunc(n) || n > MaxArrayLength {
		return 0, false
	}
	return int(n), true
}

// HasProperty is `key in o`.
func (r *Realm) HasProperty(o *Object, key string) bool {
	for obj := o; obj != nil; obj = obj.Proto {
		if r.HasOwn(obj, key) {
			return true
		}
	}
	return false
}

// HasOwn reports an own property, elements included.
func (r *Realm) HasOwn(o *Object, key string) bool {
	switch in := o.Internal.(type) {
	case HostObject:
		_, ok := in.HostGet(r, o, key)
		return ok
	case *String:
		if stringIndex(o, key) {
			return true
		}
	case *ArrayData:
		if key == "length" {
			return true
		}
		if i, ok := arrayIndex(key); ok {
			if _, present := in.Get(i); present {
				return true
			}
		}
	case Indexed:
		if i, ok := arrayIndex(key); ok {
			return i < in.IndexLen()
		}
	}
	return o.find(key) >= 0
}

// GetOwnProperty returns a copy of an own property, elements and array
// length included.
func (r *Realm) GetOwnProperty(o *Object, key string) (Property, bool) {
	switch in := o.Internal.(type) {
	case HostObject:
		v, ok := in.HostGet(r, o, key)
		return Property{Key: key, Value: v, Flags: Enumerable}, ok
	case *String:
		if stringIndex(o, key) {
			i, _ := arrayIndex(key)
			return Property{Key: key, Value: Str(in.Slice(i, i+1)), Flags: Enumerable}, true
		}
	case *ArrayData:
		if key == "length" {
			f := PropFlags(0)
			if !in.Frozen && !in.LengthReadOnly {
				f = Writable
			}
			return Property{Key: key, Value: Number(float64(in.length)), Flags: f}, true
		}
		if i, ok := arrayIndex(key); ok {
			v, present := in.Get(i)
			if !present {
				break // maybe an accessor among the ordinary properties
			}
			f := DefaultFlags
			if in.Frozen {
				f = Enumerable
			} else if in.Sealed {
				f = Writable | Enumerable
			}
			return Property{Key: key, Value: v, Flags: f}, true
		}
	case Indexed:
		if i, ok := arrayIndex(key); ok {
			if i < in.IndexLen() {
				return Property{Key: key, Value: in.IndexGet(i), Flags: Writable | Enumerable | Configurable}, true
			}
			return Property{}, false
		}
	}
	if p := o.GetOwn(key); p != nil {
		return *p, true
	}
	return Property{}, false
}

// DeleteProp is `delete o[key]` in strict code: false means TypeError.
func (r *Realm) DeleteProp(o *Object, key string) bool {
	switch in := o.Internal.(type) {
	case HostObject:
		return false
	case *String:
		if stringIndex(o, key) {
			return false
		}
	case *ArrayData:
		if key == "length" {
			return false
		}
		if i, ok := arrayIndex(key); ok {
			if _, present := in.Get(i); present && (in.Frozen || in.Sealed) {
				return false
			}
			in.Delete(i)
			return o.Delete(key)
		}
	case Indexed:
		if i, ok := arrayIndex(key); ok {
			return i >= in.IndexLen()
		}
	}
	return o.Delete(key)
}

// OwnKeys returns o's own string keys in JavaScript order (elements
// first); with enumerableOnly, only enumerable ones. Symbol keys are left
// out unless withSymbols, and then come last.
func (r *Realm) OwnKeys(o *Object, enumerableOnly, withSymbols bool) []string {
	var elems []string
	switch in := o.Internal.(type) {
	case HostObject:
		return in.HostKeys(r, o)
	case *ArrayData:
		// A key string an element: check they fit before making them.
		n := len(in.dense) + len(in.sparse)
		r.Tick(n)
		r.Reserve(40 * n)
		elems = in.IndexKeys()
		if !enumerableOnly {
			elems = append(elems, "length")
		}
	case Indexed:
		n := in.IndexLen()
		r.Tick(n)
		r.Reserve(40 * n)
		elems = make([]string, n)
		for i := range elems {
			elems[i] = strconv.Itoa(i)
		}
	case *String:
		if o.Class == ClassString {
			// A String object's characters come first; its own index
			// keys past them follow in the ordinary keys' order.
			n := in.Len()
			r.Tick(n)
			r.Reserve(40 * n)
			elems = make([]string, n)
			for i := range elems {
				elems[i] = strconv.Itoa(i)
			}
		}
	}
	keys := o.OwnKeys(enumerableOnly)
	r.Tick(len(keys))
	var syms []string
	out := keys[:0]
	for _, k := range keys {
		if IsSymbolKey(k) {
			syms = append(syms, k)
		} else {
			out = append(out, k)
		}
	}
	keys = out
	if len(elems) > 0 {
		if o.hasIndex && o.Class == ClassArray {
			// Accessors defined at indexes live among the ordinary
			// properties: merge them into the element order.
			elems, keys = mergeIndexKeys(elems, keys, enumerableOnly)
		}
		keys = append(elems, keys...)
	}
	if withSymbols {
		keys = append(keys, syms...)
	}
	return keys
}

// DefineProperty defines an own property with full attributes, handling
// array elements and length. It reports false where
// Object.defineProperty throws.
func (r *Realm) DefineProperty(o *Object, p Property) bool {
	if stringIndex(o, p.Key) {
		// A character: only a redefinition that changes nothing.
		cur, _ := r.GetOwnProperty(o, p.Key)
		return !p.IsAccessor() && p.Flags == cur.Flags && SameValue(p.Value, cur.Value)
	}
	if a, ok := o.Internal.(*ArrayData); ok {
		const plain = Writable | Enumerable | Configurable
		if i, ok := arrayIndex(p.Key); ok && !p.IsAccessor() && p.Flags&plain == plain {
			if a.Frozen || (!o.Extensible() && !r.HasOwn(o, p.Key)) {
				return false
			}
			if cur := o.GetOwn(p.Key); cur != nil {
				if cur.Flags&Configurable == 0 {
					return false
				}
				o.Delete(p.Key)
			}
			if err := a.Set(i, p.Value); err != nil {
				r.ThrowRange(ArrayLengthMessage)
			}
			return true
		}
		if i, ok := arrayIndex(p.Key); ok {
			// An accessor element, or one that is read-only, hidden or
			// fixed: the element leaves the dense storage, which holds
			// only plain elements, and becomes an ordinary property.
			if a.Frozen || (!o.Extensible() && !r.HasOwn(o, p.Key)) {
				return false
			}
			a.Delete(i)
			if i >= a.Len() {
				if err := a.SetLength(i + 1); err != nil {
					r.ThrowRange(ArrayLengthMessage)
				}
			}
		}
		if p.Key == "length" {
			if n, ok := r.ToArrayLength(p.Value); ok && !p.Value.IsUndefined() {
				if err := a.SetLength(n); err != nil {
					r.ThrowRange(ArrayLengthMessage)
				}
			}
			if p.Flags&Writable == 0 {
				a.LengthReadOnly = true
			}
			return true
		}
	}
	if cur := o.GetOwn(p.Key); cur != nil {
		if cur.Flags&Configurable == 0 {
			// Only a writable data property's value may change.
			if cur.IsAccessor() || p.IsAccessor() || cur.Flags&Writable == 0 && !SameValue(cur.Value, p.Value) {
				return false
			}
			if p.Flags&(Configurable|Enumerable) != cur.Flags&(Configurable|Enumerable) {
				return false
			}
		}
		*cur = p
		return true
	}
	if !o.Extensible() {
		return false
	}
	r.Charge(propertyBytes)
	o.add(p)
	return true
}

// ---------------------------------------------------------------------------
// Conversions

// Hint is ToPrimitive's preferred type.
type Hint uint8

// ToPrimitive hints.
const (
	HintDefault Hint = iota
	HintNumber
	HintString
)

// hintNames are the arguments a Symbol.toPrimitive method gets.
var hintNames = [...]*String{HintDefault: NewString("default"), HintNumber: NewString("number"), HintString: NewString("string")}

// ToPrimitive converts an object to a primitive: its Symbol.toPrimitive
// method when it has one (Date and Symbol objects do), else valueOf and
// toString in the order the hint says. Primitives pass through.
func (r *Realm) ToPrimitive(v Value, hint Hint) Value {
	o := v.AsObject()
	if o == nil {
		return v
	}
	if f := r.GetObj(o, SymToPrimitive.key, v); !f.IsNullish() {
		fo := f.AsObject()
		if fo == nil || !fo.callable {
			r.ThrowType("%s is not a function", r.Describe(f))
		}
		res := r.CallObject(fo, v, []Value{Str(hintNames[hint])})
		if res.IsObject() {
			r.ThrowType("Cannot convert object to primitive value")
		}
		return res
	}
	return r.OrdinaryToPrimitive(v, hint)
}

// OrdinaryToPrimitive calls valueOf and toString in the order the hint
// says (number first for the default hint).
func (r *Realm) OrdinaryToPrimitive(v Value, hint Hint) Value {
	o := v.AsObject()
	if hint == HintDefault {
		hint = HintNumber
	}
	order := [2]string{"valueOf", "toString"}
	if hint == HintString {
		order = [2]string{"toString", "valueOf"}
	}
	for _, name := range order {
		f := r.GetObj(o, name, v)
		if fo := f.AsObject(); fo != nil && fo.callable {
			res := r.CallObject(fo, v, nil)
			if !res.IsObject() {
				return res
			}
		}
	}
	r.ThrowType("Cannot convert object to primitive value")
	return Undefined
}

// ToNumber is the specification's ToNumber for any value.
func (r *Realm) ToNumber(v Value) float64 {
	switch v.ref.(type) {
	case *numberTag:
		return v.num
	case *Object:
		v = r.ToPrimitive(v, HintNumber)
	case *Symbol:
		r.ThrowType("Cannot convert a Symbol value to a number")
	}
	if v.IsSymbol() {
		r.ThrowType("Cannot convert a Symbol value to a number")
	}
	f, _ := v.ToNumber()
	return f
}

// ToString is the specification's ToString for any value.
func (r *Realm) ToString(v Value) *String {
	switch x := v.ref.(type) {
	case *String:
		return x
	case *Object:
		v = r.ToPrimitive(v, HintString)
	}
	if v.IsSymbol() {
		r.ThrowType("Cannot convert a Symbol value to a string")
	}
	s, _ := v.ToString()
	return s
}

// ToPropertyKey is the specification's ToPropertyKey for any value.
func (r *Realm) ToPropertyKey(v Value) string {
	switch x := v.ref.(type) {
	case *Symbol:
		return x.key
	case *Object:
		v = r.ToPrimitive(v, HintString)
		if s := v.AsSymbol(); s != nil {
			return s.key
		}
	}
	k, _ := v.ToPropertyKey()
	return k
}

// ToIntegerOrInfinity converts for integer arguments (indexes, counts).
func (r *Realm) ToIntegerOrInfinity(v Value) float64 {
	return jsnum.ToIntegerOrInfinity(r.ToNumber(v))
}

// ToInt32 converts for the bitwise operators.
func (r *Realm) ToInt32(v Value) int32 { return jsnum.ToInt32(r.ToNumber(v)) }

// ToUint32 converts for >>> and lengths.
func (r *Realm) ToUint32(v Value) uint32 { return jsnum.ToUint32(r.ToNumber(v)) }

// ToLength clamps to [0, 2^53-1].
func (r *Realm) ToLength(v Value) int {
	n := r.ToIntegerOrInfinity(v)
	if n <= 0 {
		return 0
	}
	if n > 1<<53-1 {
		return 1<<53 - 1
	}
	return int(n)
}

// RelativeIndex resolves a relative index argument (slice, at) against
// length: negative counts from the end, the result clamps to [0, length].
func (r *Realm) RelativeIndex(v Value, length int, dflt int) int {
	if v.IsUndefined() {
		return dflt
	}
	n := r.ToIntegerOrInfinity(v)
	if n < 0 {
		n += float64(length)
		if n < 0 {
			return 0
		}
		return int(n)
	}
	if n > float64(length) {
		return length
	}
	return int(n)
}

// ToObject is the specification's ToObject: objects pass through,
// primitives get their wrapper object (Box), null and undefined throw.
func (r *Realm) ToObject(v Value) *Object { return r.Box(v) }

// stringIndex reports a key that names a character of a String object:
// an index below its length.
func stringIndex(o *Object, key string) bool {
	s := stringData(o)
	if s == nil {
		return false
	}
	i, ok := arrayIndex(key)
	return ok && i < s.Len()
}

// ---------------------------------------------------------------------------
// Operators

// LooseEquals is ==.
func (r *Realm) LooseEquals(a, b Value) bool {
	for {
		ka, kb := a.Kind(), b.Kind()
		if ka == kb {
			return r.StrictEquals(a, b)
		}
		switch {
		case a.IsNullish() && b.IsNullish():
			return true
		case a.IsNullish() || b.IsNullish():
			return false
		case ka == KindNumber && kb == KindString:
			return a.num == r.ToNumber(b)
		case ka == KindString && kb == KindNumber:
			return r.ToNumber(a) == b.num
		case ka == KindBoolean:
			a = Number(a.num)
		case kb == KindBoolean:
			b = Number(b.num)
		case (ka == KindString || ka == KindNumber || ka == KindSymbol) && kb == KindObject:
			b = r.ToPrimitive(b, HintDefault)
		case ka == KindObject && (kb == KindString || kb == KindNumber || kb == KindSymbol):
			a = r.ToPrimitive(a, HintDefault)
		default:
			return false
		}
	}
}

// Add is the + operator.
func (r *Realm) Add(a, b Value) Value {
	if a.IsNumber() && b.IsNumber() {
		return Number(a.num + b.num)
	}
	sa, aok := a.ref.(*String)
	sb, bok := b.ref.(*String)
	if aok && bok {
		return Str(r.Concat(sa, sb))
	}
	// A short string and a number ("ab" + i): one buffer, not a string
	// per part.
	if aok && b.IsNumber() && sa.length < ropeMin || bok && a.IsNumber() && sb.length < ropeMin {
		var bl Builder
		if aok {
			bl.WriteString(sa)
			bl.WriteNumber(b.num)
		} else {
			bl.WriteNumber(a.num)
			bl.WriteString(sb)
		}
		s := bl.String()
		r.Charge(s.Bytes())
		return Str(s)
	}
	a = r.ToPrimitive(a, HintDefault)
	b = r.ToPrimitive(b, HintDefault)
	if a.IsString() || b.IsString() {
		return Str(r.Concat(r.ToString(a), r.ToString(b)))
	}
	return Number(r.ToNumber(a) + r.ToNumber(b))
}

// Concat joins two strings, enforcing MaxStringLength and counting the
// new string's memory.
func (r *Realm) Concat(a, b *String) *String {
	n := a.Len() + b.Len()
	if n > MaxStringLength {
		r.ThrowRange("Invalid string length")
	}
	s := Concat(a, b)
	if s != a && s != b {
		r.Charge(s.Bytes())
	}
	return s
}

// Compare is the abstract relational comparison a < b: it returns -1, 0,
// 1, or 2 when the answer is undefined (NaN). leftFirst says which side
// converts first.
func (r *Realm) Compare(a, b Value, leftFirst bool) int {
	if a.IsNumber() && b.IsNumber() {
		return cmpNum(a.num, b.num)
	}
	if leftFirst {
		a = r.ToPrimitive(a, HintNumber)
		b = r.ToPrimitive(b, HintNumber)
	} else {
		b = r.ToPrimitive(b, HintNumber)
		a = r.ToPrimitive(a, HintNumber)
	}
	if sa, ok := a.ref.(*String); ok {
		if sb, ok := b.ref.(*String); ok {
			r.tickCompare(min(sa.Len(), sb.Len()))
			return Compare(sa, sb)
		}
	}
	return cmpNum(r.ToNumber(a), r.ToNumber(b))
}

// StrictEquals is ===, charging the work of comparing two long strings
// of the same length (Tick): one comparison of 16 M-character strings
// takes milliseconds, so a loop of them must count more than one unit
// an iteration to notice its deadline.
func (r *Realm) StrictEquals(a, b Value) bool {
	if sa, ok := a.ref.(*String); ok {
		if sb, ok := b.ref.(*String); ok && sa.Len() == sb.Len() {
			r.tickCompare(sa.Len())
		}
	}
	return StrictEquals(a, b)
}

// tickCompare charges comparing n code units: a unit of work per 64, for
// strings long enough to matter.
func (r *Realm) tickCompare(n int) {
	if n > 4096 {
		r.Tick(n >> 6)
	}
}

func cmpNum(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	case x == y:
		return 0
	}
	return 2
}

// InstanceOf is `v instanceof ctor`: the constructor's
// Symbol.hasInstance method when it has its own, else the prototype
// chain walk.
func (r *Realm) InstanceOf(v Value, ctor Value) bool {
	c := ctor.AsObject()
	if c == nil {
		r.ThrowType("Right-hand side of 'instanceof' is not an object")
	}
	if p, _ := c.Lookup(SymHasInstance.key); p != nil {
		h := p.Value
		if p.IsAccessor() {
			h = r.GetObj(c, SymHasInstance.key, ctor)
		}
		if ho := h.AsObject(); ho != nil {
			if n, ok := ho.Internal.(*Native); !ok || n.Name != "Function.prototype[Symbol.hasInstance]" {
				return r.Call(h, ctor, []Value{v}).ToBoolean()
			}
		} else if !h.IsNullish() {
			r.ThrowType("%s is not a function", r.Describe(h))
		}
	}
	return r.OrdinaryHasInstance(v, ctor)
}

// OrdinaryHasInstance is the prototype-chain test behind instanceof.
func (r *Realm) OrdinaryHasInstance(v Value, ctor Value) bool {
	c := ctor.AsObject()
	if c == nil || !c.callable {
		r.ThrowType("Right-hand side of 'instanceof' is not callable")
	}
	if b, ok := c.Internal.(*Bound); ok {
		if bf, ok := b.Data.(*BoundFunc); ok {
			return r.InstanceOf(v, Obj(bf.Target))
		}
	}
	o := v.AsObject()
	if o == nil {
		return false
	}
	proto := r.GetObj(c, "prototype", ctor).AsObject()
	if proto == nil {
		r.ThrowType("Function has non-object prototype 'undefined' in instanceof check")
	}
	for p := o.Proto; p != nil; p = p.Proto {
		if p == proto {
			return true
		}
	}
	return false
}

// BoundFunc is the Data of a function made by Function.prototype.bind.
type BoundFunc struct {
	Target *Object
	This   Value
	Args   []Value
}

// ---------------------------------------------------------------------------
// Allocation

// Charge counts bytes the program caused to be allocated, ending the run
// when they pass the budget.
func (r *Realm) Charge(bytes int) {
	r.allocated += int64(bytes)
	if r.Budget > 0 && r.allocated > r.Budget {
		r.OverBudget()
	}
}

// Reserve ends the run with MemoryLimitExceeded when bytes more would
// pass the budget, without counting them: a built-in calls it before it
// makes something that is charged once made (an array's elements, a
// string), so that the Go heap never holds much more than the budget.
func (r *Realm) Reserve(bytes int) {
	if r.Budget > 0 && r.allocated+int64(bytes) > r.Budget {
		r.OverBudget()
	}
}

// CheckBudget ends the run if allocations counted elsewhere (array
// growth) have passed the budget.
func (r *Realm) CheckBudget() {
	if r.Budget > 0 && r.allocated > r.Budget {
		r.OverBudget()
	}
}

// OverBudget ends the run with MemoryLimitExceeded.
func (r *Realm) OverBudget() {
	panic(&Interrupt{Kind: "MemoryLimitExceeded",
		Message: fmt.Sprintf("Execution exceeded its memory limit of %d bytes.", r.Budget)})
}

// Allocated is the number of bytes charged so far.
func (r *Realm) Allocated() int64 { return r.allocated }

// NewPlainObject makes {} with Object.prototype.
func (r *Realm) NewPlainObject() *Object {
	r.Charge(objectBytes)
	return NewObject(r.Intrinsic(ObjectPrototype))
}

// objectBytes is what an empty object costs in the memory count.
const objectBytes = 96

// NewArrayValue makes an array of elems (which it keeps).
func (r *Realm) NewArrayValue(elems []Value) *Object {
	if len(elems) > MaxArrayLength {
		r.ThrowRange(ArrayLengthMessage)
	}
	r.Charge(objectBytes + valueBytes*cap(elems))
	o := NewArray(r.Intrinsic(ArrayPrototype), elems)
	o.Internal.(*ArrayData).meter = &r.allocated
	return o
}

// mergeIndexKeys moves the index-like keys of props (accessor elements)
// into elems in numeric order; "length", when present at the end of
// elems, stays after all the indexes.
func mergeIndexKeys(elems, props []string, _ bool) ([]string, []string) {
	var idx, rest []string
	for _, k := range props {
		if IsArrayIndex(k) {
			idx = append(idx, k)
		} else {
			rest = append(rest, k)
		}
	}
	if len(idx) == 0 {
		return elems, props
	}
	tail := []string(nil)
	if n := len(elems); n > 0 && elems[n-1] == "length" {
		elems, tail = elems[:n-1], []string{"length"}
	}
	all := append(append([]string(nil), elems...), idx...)
	slices.SortFunc(all, func(a, b string) int {
		x, _ := arrayIndex(a)
		y, _ := arrayIndex(b)
		return x - y
	})
	return append(all, tail...), rest
}
