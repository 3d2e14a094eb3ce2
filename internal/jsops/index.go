package jsops

import "github.com/go-codemode/codemode/value"

// GetIndexFast is o[k] for an array indexed by a present element, or
// ok=false for every other case (GetIndex's).
func GetIndexFast(o, k value.Value) (v value.Value, ok bool) {
	if k.IsNumber() {
		if oo := o.AsObject(); oo != nil {
			if a, isArray := oo.Internal.(*value.ArrayData); isArray {
				n := k.Num()
				if i := int(n); float64(i) == n && i >= 0 {
					return a.Get(i)
				}
			}
		}
	}
	return value.Undefined, false
}

// GetIndex is o[k] in general.
func GetIndex(r *value.Realm, o, k value.Value) value.Value {
	if o.IsNullish() {
		ThrowNullishBase(r, o, k, "read", "reading")
	}
	return r.Get(o, r.ToPropertyKey(k))
}

// SetIndexFast is o[k] = v for a plain array written at an index up to
// its length; done=false for every other case (SetIndex's). Not with
// elements defined as ordinary properties (accessors, read-only or
// hidden elements), nor with element-like keys on the prototypes: those
// go through Set. err is the array-length RangeError's cause.
func SetIndexFast(r *value.Realm, o, k, v value.Value) (done bool, err error) {
	if !k.IsNumber() {
		return false, nil
	}
	oo := o.AsObject()
	if oo == nil || oo.Class != value.ClassArray || oo.Proto != r.Intrinsic(value.ArrayPrototype) {
		return false, nil
	}
	a, ok := oo.Internal.(*value.ArrayData)
	if !ok || a.Frozen || a.Sealed || !oo.Extensible() || oo.HasIndexKeys() {
		return false, nil
	}
	n := k.Num()
	if i := int(n); float64(i) == n && i >= 0 && i <= a.Len() && !protoHasIndexes(r) {
		return true, a.Set(i, v)
	}
	return false, nil
}

// SetIndex is o[k] = v in general.
func SetIndex(r *value.Realm, o, k, v value.Value) {
	if o.IsNullish() {
		ThrowNullishBase(r, o, k, "set", "setting")
	}
	r.Set(o, r.ToPropertyKey(k), v)
}

// protoHasIndexes reports whether Array.prototype or Object.prototype
// has element-like keys (a setter there must see array writes).
func protoHasIndexes(r *value.Realm) bool {
	return r.Intrinsic(value.ArrayPrototype).HasIndexKeys() || r.Intrinsic(value.ObjectPrototype).HasIndexKeys()
}
