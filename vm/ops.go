package vm

// Property steps with the VM's own fast paths. The operators and the
// conversions both engines share are in internal/jsops.

import (
	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/jsops"
	"github.com/go-codemode/codemode/value"
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
	if v, ok := jsops.GetIndexFast(o, k); ok {
		return v
	}
	return jsops.GetIndex(r, o, k)
}

// setIndex is o[k] = v with the array fast path.
func setIndex(r *value.Realm, o, k, v value.Value) {
	done, err := jsops.SetIndexFast(r, o, k, v)
	if err != nil {
		r.ThrowRange(value.ArrayLengthMessage)
	}
	if !done {
		jsops.SetIndex(r, o, k, v)
	}
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

// templateString concatenates a template's parts as engine "ast" does.
func templateString(r *value.Realm, parts []value.Value) value.Value {
	var b value.Builder
	// Room for the literal parts and a short value per substitution, as
	// engine "ast" reserves: one allocation for most templates.
	n := 8 * (len(parts) / 2)
	for i := 0; i < len(parts); i += 2 {
		n += parts[i].AsString().Len()
	}
	b.Grow(n)
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

// forIn is the state of a for-in loop: the keys listed at its start and
// how many have been visited.
type forIn struct {
	obj  value.Value
	o    *value.Object
	keys []string
	next int
}
