package jsops

// Conversions and property steps both engines take the same way.

import "github.com/go-codemode/codemode/value"

// TypeOf is the typeof operator, from strings made once.
func TypeOf(v value.Value) value.Value {
	switch v.TypeOf() {
	case "undefined":
		return strUndefined
	case "object":
		return strObject
	case "boolean":
		return strBoolean
	case "number":
		return strNumber
	case "string":
		return strString
	case "function":
		return strFunction
	}
	return strSymbol
}

// ThrowNullishBase throws the TypeError of a property access on null or
// undefined. The base is checked before the key is converted (GetValue's
// and PutValue's ToObject come first), so an object key is not converted
// for the message: its toString could throw or have side effects.
func ThrowNullishBase(r *value.Realm, o, k value.Value, verb, doing string) {
	if k.IsObject() {
		r.ThrowType("Cannot %s properties of %s", verb, o.TypeOfNullish())
	}
	r.ThrowType("Cannot %s properties of %s (%s '%s')", verb, o.TypeOfNullish(), doing, value.KeyString(r.ToPropertyKey(k)))
}

// KeyValue is a property key as a value.
func KeyValue(key string) value.Value {
	if s := value.SymbolOfKey(key); s != nil {
		return value.Sym(s)
	}
	return value.StrOf(key)
}

// ToKeyValue converts a computed key to a string or symbol value once.
func ToKeyValue(r *value.Realm, k value.Value) value.Value {
	if k.IsNumber() || k.IsString() || k.IsSymbol() {
		return k
	}
	return KeyValue(r.ToPropertyKey(k))
}

// CopyDataProperties copies the own enumerable properties of src onto o
// (object spread, rest patterns), skipping the keys in exclude.
func CopyDataProperties(r *value.Realm, o *value.Object, src value.Value, exclude map[string]bool) {
	if src.IsNullish() {
		return
	}
	if s := src.AsString(); s != nil {
		for i := 0; i < s.Len(); i++ {
			k := value.NumberToString(float64(i)).String()
			if !exclude[k] {
				r.DefineProperty(o, value.Property{Key: k, Value: value.Str(s.Slice(i, i+1)), Flags: value.DefaultFlags})
			}
		}
		return
	}
	so := src.AsObject()
	if so == nil {
		return
	}
	for _, k := range r.OwnKeys(so, false, true) {
		if exclude[k] {
			continue
		}
		p, ok := r.GetOwnProperty(so, k)
		if !ok || p.Flags&value.Enumerable == 0 {
			continue
		}
		v := p.Value
		if p.IsAccessor() {
			v = r.GetObj(so, k, src)
		}
		r.DefineProperty(o, value.Property{Key: k, Value: v, Flags: value.DefaultFlags})
	}
}

// ForInKeys lists the enumerable string keys of obj and its prototypes,
// each once, in for-in order.
func ForInKeys(r *value.Realm, v value.Value, o *value.Object) []string {
	if s := v.AsString(); s != nil {
		keys := make([]string, s.Len())
		for i := range keys {
			keys[i] = value.NumberToString(float64(i)).String()
		}
		return keys
	}
	var keys []string
	seen := map[string]bool{}
	for obj := o; obj != nil; obj = obj.Proto {
		for _, k := range r.OwnKeys(obj, false, false) {
			if seen[k] {
				continue
			}
			seen[k] = true
			if p, ok := r.GetOwnProperty(obj, k); ok && p.Flags&value.Enumerable != 0 {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

var (
	strUndefined = value.StrOf("undefined")
	strObject    = value.StrOf("object")
	strBoolean   = value.StrOf("boolean")
	strNumber    = value.StrOf("number")
	strString    = value.StrOf("string")
	strFunction  = value.StrOf("function")
	strSymbol    = value.StrOf("symbol")
)

// DeleteProperty is delete o[key] in strict code: true, or the TypeError
// of a property that cannot be deleted (InvalidDataValue for a tool
// reference, the reference's data gate).
func DeleteProperty(r *value.Realm, o value.Value, key string) value.Value {
	if o.IsNullish() {
		r.ThrowType("Cannot convert undefined or null to object")
	}
	obj := o.AsObject()
	if obj == nil {
		return value.True
	}
	if !r.DeleteProp(obj, key) {
		if obj.Class == value.ClassHost {
			r.ThrowKind("InvalidDataValue", value.TypeError, "Cannot delete property '%s' of a tool reference; tool references are read-only.", value.KeyString(key))
		}
		r.ThrowType("Cannot delete property '%s' of %s", value.KeyString(key), r.ObjectTag(obj))
	}
	return value.True
}
