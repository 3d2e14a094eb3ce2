package value

// Value is one JavaScript value. It is a small struct, not an interface,
// so that numbers and booleans never allocate: the number (or the boolean
// as 0/1) lives in num, and ref says what the value is.
//
//	ref                  the value
//	nil                  undefined (the zero Value)
//	(*numberTag)(nil)    a number: num
//	(*boolTag)(nil)      a boolean: num != 0
//	(*nullTag)(nil)      null
//	(*holeTag)(nil)      an array hole (never visible to programs)
//	*String              a string
//	*Symbol              a symbol (identified by its key)
//	*Object              an object (arrays, functions, errors, ... too)
//
// The tags are typed nil pointers: storing one in an interface does not
// allocate, and a type switch on ref dispatches on the kind.
type Value struct {
	ref any
	num float64
}

type (
	numberTag struct{}
	boolTag   struct{}
	nullTag   struct{}
	holeTag   struct{}
)

// The constant values.
var (
	Undefined = Value{}
	Null      = Value{ref: (*nullTag)(nil)}
	True      = Value{ref: (*boolTag)(nil), num: 1}
	False     = Value{ref: (*boolTag)(nil), num: 0}
	// Hole marks a missing element of a sparse array; programs see it as
	// undefined, and only array code ever stores or tests it.
	Hole = Value{ref: (*holeTag)(nil)}
)

// Number makes a number value.
func Number(f float64) Value { return Value{ref: (*numberTag)(nil), num: f} }

// Bool makes a boolean value.
func Bool(b bool) Value {
	if b {
		return True
	}
	return False
}

// Str makes a string value.
func Str(s *String) Value { return Value{ref: s} }

// StrOf makes a string value from Go text (see NewString).
func StrOf(s string) Value { return Value{ref: NewString(s)} }

// Obj makes an object value.
func Obj(o *Object) Value { return Value{ref: o} }

// Kind is the type of a value, as the specification names them.
type Kind uint8

// Kinds of values.
const (
	KindUndefined Kind = iota
	KindNull
	KindBoolean
	KindNumber
	KindString
	KindObject
	KindSymbol
)

var kindNames = [...]string{"undefined", "null", "boolean", "number", "string", "object", "symbol"}

func (k Kind) String() string { return kindNames[k] }

// Kind returns the value's type. A hole reads as undefined.
func (v Value) Kind() Kind {
	switch v.ref.(type) {
	case nil, *holeTag:
		return KindUndefined
	case *nullTag:
		return KindNull
	case *boolTag:
		return KindBoolean
	case *numberTag:
		return KindNumber
	case *String:
		return KindString
	case *Symbol:
		return KindSymbol
	}
	return KindObject
}

// IsUndefined reports undefined (or a hole).
func (v Value) IsUndefined() bool {
	switch v.ref.(type) {
	case nil, *holeTag:
		return true
	}
	return false
}

// IsNull reports null.
func (v Value) IsNull() bool { _, ok := v.ref.(*nullTag); return ok }

// IsNullish reports null or undefined.
func (v Value) IsNullish() bool {
	switch v.ref.(type) {
	case nil, *holeTag, *nullTag:
		return true
	}
	return false
}

// IsHole reports an array hole.
func (v Value) IsHole() bool { _, ok := v.ref.(*holeTag); return ok }

// IsNumber reports a number.
func (v Value) IsNumber() bool { _, ok := v.ref.(*numberTag); return ok }

// IsBool reports a boolean.
func (v Value) IsBool() bool { _, ok := v.ref.(*boolTag); return ok }

// IsString reports a string.
func (v Value) IsString() bool { _, ok := v.ref.(*String); return ok }

// IsObject reports an object.
func (v Value) IsObject() bool { _, ok := v.ref.(*Object); return ok }

// Num returns the number of a number value (or the 0/1 of a boolean).
func (v Value) Num() float64 { return v.num }

// BoolValue returns the boolean of a boolean value.
func (v Value) BoolValue() bool { return v.num != 0 }

// AsString returns the string of a string value, or nil.
func (v Value) AsString() *String { s, _ := v.ref.(*String); return s }

// AsObject returns the object of an object value, or nil.
func (v Value) AsObject() *Object { o, _ := v.ref.(*Object); return o }

// ToBoolean is the specification's ToBoolean: false for undefined, null,
// false, +0, -0, NaN and the empty string; true for everything else.
func (v Value) ToBoolean() bool {
	switch r := v.ref.(type) {
	case nil, *holeTag, *nullTag:
		return false
	case *boolTag:
		return v.num != 0
	case *numberTag:
		return v.num == v.num && v.num != 0 // NaN != NaN
	case *String:
		return r.Len() > 0
	}
	return true
}

// TypeOf is the typeof operator's answer.
func (v Value) TypeOf() string {
	switch r := v.ref.(type) {
	case nil, *holeTag:
		return "undefined"
	case *nullTag:
		return "object"
	case *boolTag:
		return "boolean"
	case *numberTag:
		return "number"
	case *String:
		return "string"
	case *Symbol:
		return "symbol"
	case *Object:
		if r.Callable() {
			return "function"
		}
	}
	return "object"
}

// StrictEquals is ===.
func StrictEquals(a, b Value) bool {
	switch ra := a.ref.(type) {
	case nil, *holeTag:
		return b.IsUndefined()
	case *nullTag:
		return b.IsNull()
	case *boolTag:
		return b.IsBool() && a.num == b.num
	case *numberTag:
		return b.IsNumber() && a.num == b.num
	case *String:
		rb, ok := b.ref.(*String)
		return ok && Equal(ra, rb)
	case *Object:
		return ra == b.ref
	case *Symbol:
		rb, ok := b.ref.(*Symbol)
		return ok && (ra == rb || ra.key == rb.key) // one symbol, one key
	}
	return false
}

// SameValueZero is the equality of includes, Map and Set: === except that
// NaN equals NaN.
func SameValueZero(a, b Value) bool {
	if a.IsNumber() && b.IsNumber() && a.num != a.num && b.num != b.num {
		return true
	}
	return StrictEquals(a, b)
}

// SameValue is Object.is: SameValueZero, except that +0 and -0 differ.
func SameValue(a, b Value) bool {
	if a.IsNumber() && b.IsNumber() && a.num == 0 && b.num == 0 {
		return signbit(a.num) == signbit(b.num)
	}
	return SameValueZero(a, b)
}

func signbit(f float64) bool { return 1/f < 0 }
