// Package jsops holds the JavaScript operators as both engines apply
// them (binary operators, unary minus and ~, the error text of a failed
// `in`), so that engine "ast" and engine "vm" share one definition.
package jsops

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

// Binary applies a non-logical binary operator.
func Binary(r *value.Realm, op ast.BinaryOp, a, b value.Value) value.Value {
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
			r.ThrowType("Cannot use 'in' operator to search for '%s' in %s", inKeyText(r, a), DescribeIn(r, b))
		}
		return value.Bool(r.HasProperty(o, r.ToPropertyKey(a)))
	}
	panic("jsops: unknown operator " + op.String())
}

// inKeyText is how a failed `in` names the key.
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

// DescribeIn is how a failed `in` names the value it searched.
func DescribeIn(r *value.Realm, v value.Value) string {
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

// BitNot is ~v.
func BitNot(r *value.Realm, v value.Value) value.Value {
	return value.Number(float64(^r.ToInt32(v)))
}

// Negate is -v.
func Negate(r *value.Realm, v value.Value) value.Value { return value.Number(-r.ToNumber(v)) }
