package vm

// The operators, as engine "ast" applies them (a copy of interp/ops.go,
// to move into value/ so that both engines share one definition).

import (
	"math"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/jsnum"
	"github.com/go-codemode/codemode/value"
)

// coerces reports whether op converts its operands to primitives: the
// arithmetic, relational, bitwise and shift operators (not equality,
// instanceof or in, which compare or look up objects as they are).
func coerces(op ast.BinaryOp) bool {
	switch op {
	case ast.OpEq, ast.OpNe, ast.OpStrictEq, ast.OpStrictNe, ast.OpInstanceof, ast.OpIn:
		return false
	}
	return true
}

// binary applies a non-logical binary operator.
func binaryOp(r *value.Realm, op ast.BinaryOp, a, b value.Value) value.Value {
	if coerces(op) && (a.IsObject() || b.IsObject()) {
		r.RequireData(a, b)
	}
	switch op {
	case ast.OpAdd:
		return r.Add(a, b)
	case ast.OpSub:
		return value.Number(r.ToNumber(a) - r.ToNumber(b))
	case ast.OpMul:
		return value.Number(r.ToNumber(a) * r.ToNumber(b))
	case ast.OpDiv:
		return value.Number(r.ToNumber(a) / r.ToNumber(b))
	case ast.OpMod:
		return value.Number(jsMod(r.ToNumber(a), r.ToNumber(b)))
	case ast.OpExp:
		return value.Number(jsPow(r.ToNumber(a), r.ToNumber(b)))
	case ast.OpEq:
		return value.Bool(r.LooseEquals(a, b))
	case ast.OpNe:
		return value.Bool(!r.LooseEquals(a, b))
	case ast.OpStrictEq:
		return value.Bool(r.StrictEquals(a, b))
	case ast.OpStrictNe:
		return value.Bool(!r.StrictEquals(a, b))
	case ast.OpLt:
		return value.Bool(r.Compare(a, b, true) == -1)
	case ast.OpGt:
		return value.Bool(r.Compare(b, a, false) == -1)
	case ast.OpLe:
		c := r.Compare(b, a, false)
		return value.Bool(c == 0 || c == 1)
	case ast.OpGe:
		c := r.Compare(a, b, true)
		return value.Bool(c == 0 || c == 1)
	case ast.OpBitOr:
		return value.Number(float64(r.ToInt32(a) | r.ToInt32(b)))
	case ast.OpBitXor:
		return value.Number(float64(r.ToInt32(a) ^ r.ToInt32(b)))
	case ast.OpBitAnd:
		return value.Number(float64(r.ToInt32(a) & r.ToInt32(b)))
	case ast.OpShl:
		x, y := r.ToInt32(a), r.ToUint32(b)
		return value.Number(float64(x << (y & 31)))
	case ast.OpShr:
		x, y := r.ToInt32(a), r.ToUint32(b)
		return value.Number(float64(x >> (y & 31)))
	case ast.OpUShr:
		x, y := r.ToUint32(a), r.ToUint32(b)
		return value.Number(float64(x >> (y & 31)))
	case ast.OpInstanceof:
		return value.Bool(r.InstanceOf(a, b))
	case ast.OpIn:
		o := b.AsObject()
		if o == nil {
			r.ThrowType("Cannot use 'in' operator to search for '%s' in %s", inKeyText(r, a), describeIn(r, b))
		}
		return value.Bool(r.HasProperty(o, r.ToPropertyKey(a)))
	}
	panic("vm: unknown operator " + op.String())
}

func inKeyText(r *value.Realm, v value.Value) string {
	if s := v.AsSymbol(); s != nil {
		return s.String()
	}
	s, ok := v.ToString()
	if !ok {
		return "#<Object>"
	}
	return s.String()
}

func describeIn(r *value.Realm, v value.Value) string {
	if s := v.AsString(); s != nil {
		return s.String()
	}
	s, ok := v.ToString()
	if !ok {
		return r.Describe(v)
	}
	return s.String()
}

// jsMod is %: the sign follows the dividend, as math.Mod does.
func jsMod(x, y float64) float64 {
	if y == 0 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsNaN(y) {
		return math.NaN()
	}
	if math.IsInf(y, 0) {
		return x
	}
	if x == 0 {
		return x
	}
	m := math.Mod(x, y)
	if m == 0 && math.Signbit(x) {
		return math.Copysign(0, -1)
	}
	return m
}

// jsPow is **, correctly rounded as V8's.
func jsPow(x, y float64) float64 { return jsnum.Pow(x, y) }

func bitNot(r *value.Realm, v value.Value) value.Value {
	return value.Number(float64(^r.ToInt32(v)))
}

func negate(r *value.Realm, v value.Value) value.Value { return value.Number(-r.ToNumber(v)) }

func typeofString(v value.Value) value.Value {
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

var (
	strUndefined = value.StrOf("undefined")
	strObject    = value.StrOf("object")
	strBoolean   = value.StrOf("boolean")
	strNumber    = value.StrOf("number")
	strString    = value.StrOf("string")
	strFunction  = value.StrOf("function")
	strSymbol    = value.StrOf("symbol")
)

// opBinary is the ast operator of a binary opcode, for the slow path.
var opBinary = [...]ast.BinaryOp{
	ADD: ast.OpAdd, SUB: ast.OpSub, MUL: ast.OpMul, DIV: ast.OpDiv, MOD: ast.OpMod, EXP: ast.OpExp,
	EQ: ast.OpEq, NE: ast.OpNe, SEQ: ast.OpStrictEq, SNE: ast.OpStrictNe,
	LT: ast.OpLt, GT: ast.OpGt, LE: ast.OpLe, GE: ast.OpGe,
	BITOR: ast.OpBitOr, BITXOR: ast.OpBitXor, BITAND: ast.OpBitAnd,
	SHL: ast.OpShl, SHR: ast.OpShr, USHR: ast.OpUShr, INSTANCEOF: ast.OpInstanceof, IN: ast.OpIn,
}

// getIndex is o[k] with a fast path for arrays indexed by numbers.
func getIndex(r *value.Realm, o, k value.Value) value.Value {
	if k.IsNumber() {
		if oo := o.AsObject(); oo != nil {
			if a, ok := oo.Internal.(*value.ArrayData); ok {
				n := k.Num()
				if i := int(n); float64(i) == n && i >= 0 {
					if v, present := a.Get(i); present {
						return v
					}
				}
			}
		}
	}
	if o.IsNullish() {
		throwNullishBase(r, o, k, "read", "reading")
	}
	return r.Get(o, r.ToPropertyKey(k))
}

// throwNullishBase throws the TypeError of a property access on null or
// undefined, before the key is converted.
func throwNullishBase(r *value.Realm, o, k value.Value, verb, doing string) {
	if k.IsObject() {
		r.ThrowType("Cannot %s properties of %s", verb, o.TypeOfNullish())
	}
	r.ThrowType("Cannot %s properties of %s (%s '%s')", verb, o.TypeOfNullish(), doing, value.KeyString(r.ToPropertyKey(k)))
}

// setIndex is o[k] = v with the array fast path.
func setIndex(r *value.Realm, o, k, v value.Value) {
	if k.IsNumber() {
		if oo := o.AsObject(); oo != nil && oo.Class == value.ClassArray && oo.Proto == r.Intrinsic(value.ArrayPrototype) {
			// Not with elements defined as ordinary properties (accessors,
			// read-only or hidden elements): those go through Set.
			if a, ok := oo.Internal.(*value.ArrayData); ok && !a.Frozen && !a.Sealed && oo.Extensible() && !oo.HasIndexKeys() {
				n := k.Num()
				if i := int(n); float64(i) == n && i >= 0 && i <= a.Len() && !protoHasIndexes(r) {
					if err := a.Set(i, v); err != nil {
						r.ThrowRange(value.ArrayLengthMessage)
					}
					return
				}
			}
		}
	}
	if o.IsNullish() {
		throwNullishBase(r, o, k, "set", "setting")
	}
	r.Set(o, r.ToPropertyKey(k), v)
}

func protoHasIndexes(r *value.Realm) bool {
	return r.Intrinsic(value.ArrayPrototype).HasIndexKeys() || r.Intrinsic(value.ObjectPrototype).HasIndexKeys()
}

// setProp is o.name = v with the fast path for plain data properties.
func setProp(r *value.Realm, o value.Value, name string, v value.Value) {
	if oo := o.AsObject(); oo != nil && oo.Class == value.ClassObject {
		if p := oo.GetOwn(name); p != nil && p.Flags&(value.Accessor|value.Writable) == value.Writable {
			p.Value = v
			return
		}
	}
	r.Set(o, name, v)
}

// getProp is o.name with the fast path for plain data properties.
func getProp(r *value.Realm, o value.Value, key string) value.Value {
	if oo := o.AsObject(); oo != nil {
		if oo.Class == value.ClassObject {
			if p := oo.GetOwn(key); p != nil && !p.IsAccessor() {
				return p.Value
			}
		}
		return r.GetObj(oo, key, o)
	}
	return r.Get(o, key)
}

func deleteProp(r *value.Realm, o value.Value, key string) value.Value {
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

// keyValue is a property key as a value.
func keyValue(key string) value.Value {
	if s := value.SymbolOfKey(key); s != nil {
		return value.Sym(s)
	}
	return value.StrOf(key)
}

// toKeyValue converts a computed key to a string or symbol value once.
func toKeyValue(r *value.Realm, k value.Value) value.Value {
	if k.IsNumber() || k.IsString() || k.IsSymbol() {
		return k
	}
	return keyValue(r.ToPropertyKey(k))
}

// templateString concatenates a template's parts as engine "ast" does.
func templateString(r *value.Realm, parts []value.Value) value.Value {
	var b value.Builder
	for i, v := range parts {
		switch {
		case i%2 == 0:
			b.WriteString(v.AsString())
		case v.IsNumber():
			b.WriteNumber(v.Num())
		case v.IsString():
			b.WriteString(v.AsString())
		case v.IsObject() || v.IsSymbol():
			b.WriteString(r.ToString(v))
		default:
			vs, _ := v.ToString()
			b.WriteString(vs)
		}
		if b.Len() > value.MaxStringLength {
			r.ThrowRange("Invalid string length")
		}
	}
	s := b.String()
	r.Charge(s.Bytes())
	return value.Str(s)
}

// copyDataProperties copies the own enumerable properties of src onto o
// (object rest), skipping the keys in exclude.
func copyDataProperties(r *value.Realm, o *value.Object, src value.Value, exclude map[string]bool) {
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

// forInKeys lists the enumerable string keys of obj and its prototypes,
// each once, in for-in order (as engine "ast": interp/stmt.go).
func forInKeys(r *value.Realm, v value.Value, o *value.Object) []string {
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

// forIn is the state of a for-in loop: the keys listed at its start and
// how many have been visited.
type forIn struct {
	obj  value.Value
	o    *value.Object
	keys []string
	next int
}
