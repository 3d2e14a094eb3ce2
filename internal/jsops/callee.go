package jsops

import (
	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/value"
)

// CalleeText renders a callee as V8 does in "x is not a function".
func CalleeText(x ast.Expr) string {
	switch x := x.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.This:
		return "this"
	case *ast.Super:
		return "super"
	case *ast.Member:
		dot := "."
		if x.Optional {
			dot = "?."
		}
		if x.Private != nil {
			return CalleeText(x.X) + dot + "#" + x.Private.Name
		}
		return CalleeText(x.X) + dot + x.Prop.Name
	case *ast.Index:
		open := "["
		if x.Optional {
			open = "?.["
		}
		return CalleeText(x.X) + open + indexText(x.Index) + "]"
	case *ast.Call:
		return CalleeText(x.Callee) + "(...)"
	case *ast.Chain:
		return CalleeText(x.X)
	case *ast.StringLit:
		return "\"" + x.Value + "\""
	case *ast.NumberLit:
		return x.Raw
	}
	return "(intermediate value)"
}

func indexText(x ast.Expr) string {
	switch x := x.(type) {
	case *ast.NumberLit:
		return x.Raw
	case *ast.StringLit:
		return "\"" + x.Value + "\""
	case *ast.Ident, *ast.Member:
		return CalleeText(x)
	}
	return "(intermediate value)"
}

// StaticKey is the property key of a non-computed key node (a name, a
// string or a number literal), or ok=false for a BigInt literal, which
// neither engine compiles as a key, or a node that is not a key.
func StaticKey(k ast.Expr) (key string, ok bool) {
	switch k := k.(type) {
	case *ast.Name:
		return k.Name, true
	case *ast.StringLit:
		return value.NewString(k.Value).Key(), true
	case *ast.NumberLit:
		return value.NumberToString(k.Value).Key(), true
	case *ast.Ident:
		return k.Name, true
	}
	return "", false
}
