package value

// Wrapper objects (boxed primitives): new String("s"), new Number(1),
// new Boolean(false), Object(sym). Each is an ordinary object of class
// ClassString, ClassNumber, ClassBoolean or ClassSymbol whose Internal
// is the primitive it wraps, the specification's [[StringData]] (a
// *String), [[NumberData]], [[BooleanData]] or [[SymbolData]] (a Value).
// A String wrapper is also an exotic object: its indexes and length are
// read-only own properties (see the string cases in ops.go).

// PrimitiveValue returns the primitive a wrapper object holds, or
// ok=false for any other object. String.prototype, Number.prototype and
// Boolean.prototype are wrappers themselves (of "", 0 and false).
func (o *Object) PrimitiveValue() (Value, bool) {
	switch o.Class {
	case ClassString:
		if s, ok := o.Internal.(*String); ok {
			return Str(s), true
		}
	case ClassNumber, ClassBoolean, ClassSymbol:
		if v, ok := o.Internal.(Value); ok {
			return v, true
		}
	}
	return Undefined, false
}

// stringData is the string a String wrapper holds, or nil.
func stringData(o *Object) *String {
	if o.Class != ClassString {
		return nil
	}
	s, _ := o.Internal.(*String)
	return s
}

// ThisPrimitive is the thisXValue of the built-in methods: v itself when
// it is a primitive of kind k, the value a wrapper of that kind holds, or
// ok=false (the method's TypeError).
func ThisPrimitive(v Value, k Kind) (Value, bool) {
	if v.Kind() == k {
		return v, true
	}
	if o := v.AsObject(); o != nil {
		if p, ok := o.PrimitiveValue(); ok && p.Kind() == k {
			return p, true
		}
	}
	return Undefined, false
}

// wrapperClass is the class of the wrapper of a primitive kind.
func wrapperClass(k Kind) Class {
	switch k {
	case KindString:
		return ClassString
	case KindNumber:
		return ClassNumber
	case KindBoolean:
		return ClassBoolean
	}
	return ClassSymbol
}

// NewWrapper makes the wrapper object of primitive v with the given
// prototype (a constructor's, for subclasses); v must not be null,
// undefined or an object. A String object gets its length property; its
// characters are exotic (see stringIndex).
func (r *Realm) NewWrapper(v Value, proto *Object) *Object {
	r.Charge(objectBytes)
	o := NewObject(proto)
	o.Class = wrapperClass(v.Kind())
	if s := v.AsString(); s != nil {
		o.Internal = s
		o.Define("length", Number(float64(s.Len())), 0) // read-only, as the characters
	} else {
		o.Internal = v
	}
	return o
}

// Box is ToObject for a primitive: its wrapper, with the intrinsic
// prototype of its kind. Objects pass through; null and undefined throw.
func (r *Realm) Box(v Value) *Object {
	if o := v.AsObject(); o != nil {
		return o
	}
	if v.IsNullish() {
		r.ThrowType("Cannot convert undefined or null to object")
	}
	return r.NewWrapper(v, r.ProtoOf(v))
}

// UnwrapForJSON is the step of JSON.stringify's SerializeJSONProperty
// that replaces a wrapper object by its primitive: ToNumber of a Number
// object, ToString of a String object (both may run the program's
// valueOf or toString), the value of a Boolean object. Other values pass
// through. The host boundary, which follows JSON.stringify, uses it too.
func (r *Realm) UnwrapForJSON(v Value) Value {
	o := v.AsObject()
	if o == nil {
		return v
	}
	p, ok := o.PrimitiveValue()
	if !ok {
		return v
	}
	switch o.Class {
	case ClassNumber:
		return Number(r.ToNumber(v))
	case ClassString:
		return Str(r.ToString(v))
	case ClassBoolean:
		return p
	}
	return v
}
