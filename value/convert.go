package value

import (
	"math"

	"github.com/go-codemode/codemode/internal/jsnum"
)

// Conversions of primitive values, as the specification's abstract
// operations define them. Objects first go through ToPrimitive, which may
// call program code (valueOf, toString) and so belongs to the engines; the
// functions here report ok=false for an object.

// ToNumber converts a primitive to a number (the spec's ToNumber).
func (v Value) ToNumber() (float64, bool) {
	switch r := v.ref.(type) {
	case nil, *holeTag:
		return math.NaN(), true
	case *nullTag:
		return 0, true
	case *boolTag, *numberTag:
		return v.num, true
	case *String:
		return jsnum.Parse(r.String()), true
	}
	return 0, false
}

// NumberToString is Number::toString(x): "0.30000000000000004", "1e+21",
// "-Infinity", and "0" for -0.
func NumberToString(f float64) *String {
	if f >= 0 && f < smallInts && f == math.Trunc(f) && !signbit(f) {
		return smallIntStrings[int(f)]
	}
	return NewString(jsnum.Format(f))
}

// smallInts are the integers whose strings are made once: array indexes
// and counters are converted constantly.
const smallInts = 256

var smallIntStrings = func() [smallInts]*String {
	var t [smallInts]*String
	for i := range t {
		t[i] = NewString(jsnum.Format(float64(i)))
	}
	return t
}()

// ToString converts a primitive to a string (the spec's ToString).
func (v Value) ToString() (*String, bool) {
	switch r := v.ref.(type) {
	case nil, *holeTag:
		return strUndefined, true
	case *nullTag:
		return strNull, true
	case *boolTag:
		if v.num != 0 {
			return strTrue, true
		}
		return strFalse, true
	case *numberTag:
		return NumberToString(v.num), true
	case *String:
		return r, true
	}
	return nil, false
}

var (
	strUndefined = NewString("undefined")
	strNull      = NewString("null")
	strTrue      = NewString("true")
	strFalse     = NewString("false")
)

// ToPropertyKey converts a primitive to a property key (WTF-8).
func (v Value) ToPropertyKey() (string, bool) {
	if v.IsNumber() {
		f := v.num
		if f >= 0 && f < 1<<31 && f == math.Trunc(f) && !signbit(f) {
			return itoa(int(f)), true
		}
	}
	s, ok := v.ToString()
	if !ok {
		return "", false
	}
	return s.Key(), true
}

// itoa is strconv.Itoa for non-negative ints without the import, with the
// small ones shared.
func itoa(n int) string {
	if n < smallInts {
		return smallIntStrings[n].ascii
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
