package ast

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Inspect walks the tree rooted at n depth-first, in source order, calling
// f for each node; when f returns false, the node's children are skipped.
func Inspect(n Node, f func(Node) bool) {
	if n == nil || isNilNode(n) || !f(n) {
		return
	}
	v := reflect.ValueOf(n).Elem()
	for i := 0; i < v.NumField(); i++ {
		inspectValue(v.Field(i), f)
	}
}

func isNilNode(n Node) bool {
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

func inspectValue(v reflect.Value, f func(Node) bool) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() || !v.CanInterface() {
			return
		}
		if n, ok := v.Interface().(Node); ok {
			Inspect(n, f)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			inspectValue(v.Index(i), f)
		}
	}
}

// Dump renders a tree as an indented S-expression with the line:column of
// every node and the storage the resolver chose for every identifier. It
// is the format of the parser's golden tests.
func Dump(n Node, src *Source) string {
	d := &dumper{src: src}
	d.node(n, 0)
	return d.b.String()
}

type dumper struct {
	src *Source
	b   strings.Builder
}

// skipped fields hold resolver tables or back pointers that Dump shows in
// condensed form, or not at all.
var skippedFields = map[string]bool{"At": true, "Binding": true, "This": true, "Scope": true, "Inner": true,
	"CatchScope": true, "Strict": true, "SimpleParams": true, "End": true}

func (d *dumper) pos(p Pos) string {
	if d.src == nil || p < 0 {
		return ""
	}
	loc := d.src.Location(p)
	return fmt.Sprintf("@%d:%d", loc.Line, loc.Column)
}

func (d *dumper) node(n Node, depth int) {
	if n == nil || isNilNode(n) {
		d.b.WriteString("nil")
		return
	}
	v := reflect.ValueOf(n).Elem()
	t := v.Type()
	fmt.Fprintf(&d.b, "(%s%s", t.Name(), d.pos(n.Pos()))
	switch n := n.(type) {
	case *Ident:
		fmt.Fprintf(&d.b, " %s%s)", n.Name, bindingSummary(n.Binding))
		return
	case *This:
		fmt.Fprintf(&d.b, "%s)", bindingSummary(n.Binding))
		return
	case *Name:
		fmt.Fprintf(&d.b, " %s)", n.Name)
		return
	}
	for i := 0; i < t.NumField(); i++ {
		field := t.Field(i)
		if skippedFields[field.Name] {
			continue
		}
		fv := v.Field(i)
		if fv.IsZero() && field.Name != "Op" && field.Name != "Kind" {
			continue
		}
		d.b.WriteString("\n" + strings.Repeat("  ", depth+1) + field.Name + "=")
		d.value(fv, depth+1)
	}
	if fn, ok := n.(*Function); ok && fn.Scope != nil {
		d.b.WriteString("\n" + strings.Repeat("  ", depth+1) + "Frame=" + frameSummary(fn.Scope))
	}
	d.b.WriteString(")")
}

func (d *dumper) value(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.Type() == reflect.TypeFor[*string]() {
			d.b.WriteString(strconv.Quote(v.Elem().String()))
			return
		}
		if n, ok := v.Interface().(Node); ok {
			d.node(n, depth)
			return
		}
		fmt.Fprintf(&d.b, "%v", v.Interface())
	case reflect.Slice:
		d.b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			d.b.WriteString("\n" + strings.Repeat("  ", depth+1))
			el := v.Index(i)
			if (el.Kind() == reflect.Interface || el.Kind() == reflect.Pointer) && el.IsNil() {
				d.b.WriteString("nil")
				continue
			}
			d.value(el, depth+1)
		}
		d.b.WriteString("]")
	case reflect.String:
		d.b.WriteString(strconv.Quote(v.String()))
	default:
		if s, ok := v.Interface().(fmt.Stringer); ok {
			d.b.WriteString(s.String())
			return
		}
		fmt.Fprintf(&d.b, "%v", v.Interface())
	}
}

func bindingSummary(b *Binding) string {
	if b == nil {
		return ""
	}
	switch b.Storage {
	case Global:
		return " global"
	case Free:
		return fmt.Sprintf(" %s free#%d", b.Kind, b.Index)
	}
	return fmt.Sprintf(" %s %s#%d", b.Kind, b.Storage, b.Index)
}

func frameSummary(fs *FuncScope) string {
	var parts []string
	for _, b := range fs.Locals {
		parts = append(parts, fmt.Sprintf("%s:%s", b.Name, b.Storage))
	}
	s := "locals[" + strings.Join(parts, " ") + "]"
	if len(fs.Free) > 0 {
		parts = parts[:0]
		for _, b := range fs.Free {
			parts = append(parts, b.Name)
		}
		s += " free[" + strings.Join(parts, " ") + "]"
	}
	return s
}
