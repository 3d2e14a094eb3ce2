package json

import (
	"errors"

	"github.com/go-codemode/codemode/value"
)

// The data path: value.StringifyData writes plain data without the
// realm, and reports ErrNeedsEngine for anything else (a toJSON method,
// an accessor, an object that is not ordinary). A scan first refuses what
// it would get wrong or could not bound:
//   - symbol values and symbol or private keys, which StringifyData
//     would write;
//   - an array whose prototype chain has elements (a hole would read
//     them);
//   - objects other than ordinary objects and arrays, accessors, and
//     nesting past value.MaxJSONDepth, which is also where a cycle ends
//     the scan (the general path words those errors, with the path to
//     the cycle);
//   - a text that could be longer than value.MaxStringLength bytes,
//     counted generously, so that neither a huge text nor a shared subtree
//     repeated many times is ever built here: the general path stops those
//     as it writes.
// Whatever the scan or StringifyData refuses, the general path writes.

// fastStringify writes v with the data path when it can. done is false
// when the general path must write it; ok is false when JSON.stringify
// returns undefined.
func fastStringify(r *value.Realm, v value.Value, gap string) (text string, ok, done bool) {
	sc := scanner{gap: len(gap)}
	if !sc.value(v, 0) {
		return "", false, false
	}
	// The text is at most sc.bytes (under MaxStringLength): one call of
	// a few ms, charged as work before it runs.
	r.Tick(sc.bytes / 8)
	text, ok, err := value.StringifyData(v, gap)
	switch {
	case err == nil:
		return text, ok, true
	case errors.Is(err, value.ErrJSONDepth):
		r.ThrowRange("Maximum call stack size exceeded")
	}
	// ErrNeedsEngine, or ErrCircular (the general path finds the cycle
	// again and describes it).
	return "", false, false
}

// numberBytes is the longest a number is written
// ("-0.0000012345678901234567").
const numberBytes = 25

type scanner struct {
	gap   int // bytes of indent per level
	bytes int // an upper bound on the text's length so far
}

// value scans v at the given nesting depth; false sends it to the general
// path.
func (sc *scanner) value(v value.Value, depth int) bool {
	switch v.Kind() {
	case value.KindUndefined:
		sc.bytes += 4 // "null" in an array
	case value.KindNull, value.KindBoolean:
		sc.bytes += 5
	case value.KindNumber:
		sc.bytes += numberBytes
	case value.KindString:
		sc.bytes += 2 + 6*v.AsString().Len()
	case value.KindSymbol:
		return false
	case value.KindObject:
		o := v.AsObject()
		if o.Callable() {
			sc.bytes += 4
			break
		}
		return sc.object(o, depth)
	}
	return sc.bytes <= value.MaxStringLength
}

func (sc *scanner) object(o *value.Object, depth int) bool {
	// A cycle goes this deep before the scan gives up on it.
	if depth >= value.MaxJSONDepth {
		return false
	}
	// Each member: a comma, a newline and its indent.
	line := 2 + (depth+1)*sc.gap
	sc.bytes += 2 + line
	switch o.Class {
	case value.ClassArray:
		arr := o.Array()
		if arr == nil {
			return false
		}
		for p := o.Proto; p != nil; p = p.Proto {
			if p.HasIndexKeys() || p.Array() != nil && p.Array().Len() > 0 {
				return false
			}
		}
		n := arr.Len()
		if sc.bytes+n*(line+4) > value.MaxStringLength {
			return false
		}
		if elems, dense := arr.Dense(); dense {
			for _, el := range elems {
				sc.bytes += line
				if !sc.value(el, depth+1) {
					return false
				}
			}
			return true
		}
		for i := 0; i < n; i++ {
			el, _ := arr.Get(i)
			sc.bytes += line
			if !sc.value(el, depth+1) {
				return false
			}
		}
		return true
	case value.ClassObject:
		if o.Internal != nil {
			return false
		}
		keys := o.OwnKeys(true)
		for _, k := range keys {
			if len(k) > 0 && k[0] >= 0xfe { // a symbol or private key
				return false
			}
			p := o.GetOwn(k)
			if p == nil || p.IsAccessor() {
				return false
			}
			sc.bytes += line + 3 + 6*len(k)
			if p.Value.IsUndefined() {
				continue
			}
			if !sc.value(p.Value, depth+1) {
				return false
			}
		}
		return sc.bytes <= value.MaxStringLength
	}
	return false
}
