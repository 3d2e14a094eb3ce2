package ast

// The second reading of the linker (see link.go): the modules' texts are
// laid out after the program's in one Source and parsed again there, and
// the Program is built of them: each module a hidden constant, its imports
// and exports desugared into declarations and getters.

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"
)

// build lays the modules' texts out after the program's, reads every unit
// again at its offset, and makes the Program.
func (l *linker) build(main *unit, src *Source) (*Program, *Error) {
	size := len(main.text)
	for _, u := range l.order {
		size += 1 + len(u.text)
	}
	if size > math.MaxInt32 {
		return nil, &Error{Pos: NoPos, Msg: fmt.Sprintf("The program and its modules are too large to link (%d bytes)", size)}
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(main.text)
	units := make([]Unit, 0, len(l.order))
	for _, u := range l.order {
		b.WriteByte('\n') // each module starts a line
		u.base = b.Len()
		b.WriteString(u.text)
		units = append(units, Unit{Module: u.name, Kind: u.kind, Start: u.base, End: b.Len()})
	}
	full := &Source{Text: b.String(), Start: src.Start, End: src.End, blanks: src.blanks, units: units}

	fn, err := parseBody(full, unitEntry, !l.opts.NoTypeScript, nil)
	if err != nil {
		return nil, l.relocate(full, err)
	}
	var body []Stmt
	for _, u := range l.order {
		decls, err := l.moduleDecls(u, full)
		if err != nil {
			return nil, l.relocate(full, err)
		}
		body = append(body, decls...)
	}
	fn.Body.Body = append(body, l.rewriteBody(main, fn.Body.Body)...)
	prog, err := resolveLinked(full, fn)
	if err != nil {
		return nil, l.relocate(full, err)
	}
	for _, u := range l.order {
		for _, ref := range u.locals {
			if ref.id.Binding == nil || ref.id.Binding.Storage == Global {
				return nil, l.errorAt(u, ref.pos, "Export '%s' is not defined in module", ref.name)
			}
		}
	}
	return prog, nil
}

// relocate makes an error found in the linked Source point into the text
// of the module it is in.
func (l *linker) relocate(full *Source, err *Error) *Error {
	err.Location = full.Location(err.Pos)
	if u := full.unitAt(int(err.Pos)); u != nil {
		err.Pos -= Pos(u.Start)
		err.Msg = fmt.Sprintf("Module %q: %s", u.Module, err.Msg)
	}
	return err
}

// moduleDecls returns the program's declarations of a module's hidden
// constants.
func (l *linker) moduleDecls(u *unit, full *Source) ([]Stmt, *Error) {
	at := At{Pos(u.base)}
	var init Expr
	switch u.kind {
	case "json":
		x, err := jsonExpr(u.text, u.base)
		if err != nil {
			return nil, err
		}
		init = x
	case "text":
		init = &StringLit{At: at, Value: u.text, Raw: quoteJS(u.text)}
	default:
		src := &Source{Text: full.Text, Start: u.base, End: u.base + len(u.text)}
		fn, err := parseBody(src, unitMode(u.kind), !l.opts.NoTypeScript, nil)
		if err != nil {
			return nil, err
		}
		moduleFunc(u, fn)
		fn.Body.Body = l.rewriteBody(u, fn.Body.Body)
		if u.kind == "js" {
			fn.Async = u.tla
			fn.Body.Body = append(fn.Body.Body, &Return{At: at, X: l.namespace(u, at)})
			init = &Call{At: at, Callee: &FuncLit{At: at, Func: fn}}
			if u.tla {
				init = &Await{At: at, X: init}
			}
		} else {
			init = cjsCall(fn, at)
		}
	}
	decls := []Stmt{constDecl(at, valueName(u), init)}
	if u.needNS {
		// The namespace object of a module that is not an ES module: its
		// value's properties, and the value as default.
		props := []*Property{protoNull(at)}
		if u.kind == "cjs" {
			props = append(props, &Property{At: at, Kind: PropSpread, Value: ident(at, valueName(u))})
		}
		props = append(props, &Property{At: at, Kind: PropInit, Key: &Name{At: at, Name: "default"}, Value: ident(at, valueName(u))})
		decls = append(decls, constDecl(at, "*"+u.name, &ObjectLit{At: at, Props: props}))
	}
	return decls, nil
}

// cjsCall runs a CommonJS module's function fn, with this and exports
// module.exports, and gives module.exports:
//
//	(module => {
//	  (function (exports, module) {...}).call(module.exports, module.exports, module);
//	  return module.exports;
//	})({exports: {}})
func cjsCall(fn *Function, at At) Expr {
	exports := func() Expr { return &Member{At: at, X: ident(at, "module"), Prop: &Name{At: at, Name: "exports"}} }
	run := &Call{At: at, Callee: &Member{At: at, X: &FuncLit{At: at, Func: fn}, Prop: &Name{At: at, Name: "call"}},
		Args: []Expr{exports(), exports(), ident(at, "module")}}
	wrapper := &Function{At: at, Kind: FuncArrow, Strict: true, SimpleParams: true, Params: []Pattern{ident(at, "module")},
		Body: &Block{At: at, End: at.Start, Body: []Stmt{&ExprStmt{At: at, X: run}, &Return{At: at, X: exports()}}}}
	module := &ObjectLit{At: at, Props: []*Property{{At: at, Kind: PropInit, Key: &Name{At: at, Name: "exports"}, Value: &ObjectLit{At: at}}}}
	return &Call{At: at, Callee: &FuncLit{At: at, Func: wrapper}, Args: []Expr{module}}
}

// rewriteBody rewrites a unit's top-level statements: its imports of map
// names become constants bound first, its re-exports from host modules
// import them, and its require and import calls of map names read the
// modules' constants.
func (l *linker) rewriteBody(u *unit, body []Stmt) []Stmt {
	if len(u.sites) > 0 {
		for _, s := range body {
			rewriteExprs(s, func(x Expr) Expr { return l.rewriteCall(u, x) })
		}
	}
	var head, rest []Stmt
	for _, s := range body {
		if im, ok := s.(*Import); ok && l.inMap(im.Module.Value) {
			if d := l.importDecl(im); d != nil {
				head = append(head, d)
			}
			continue
		}
		rest = append(rest, s)
	}
	// A re-export from a module the host provides reads it through an
	// import of its own.
	seen := map[string]bool{}
	for _, ex := range u.exports {
		if ex.From != nil && !l.inMap(ex.From.Value) && !seen[ex.From.Value] {
			seen[ex.From.Value] = true
			head = append(head, &Import{At: ex.At, Namespace: ident(ex.At, hostLocal(ex.From.Value)), Module: ex.From})
		}
	}
	return append(head, rest...)
}

// hostLocal is the name of a module's binding of a host module it
// re-exports from.
func hostLocal(name string) string { return "*" + name }

// rewriteCall returns what replaces require("m") or import("m") of a map
// name: m's value, or a promise of its namespace. Other expressions stay
// (nil).
func (l *linker) rewriteCall(u *unit, x Expr) Expr {
	var s site
	var lit *StringLit
	switch c := x.(type) {
	case *Call:
		id, ok := c.Callee.(*Ident)
		if !ok || id.Name != "require" || len(c.Args) != 1 {
			return nil
		}
		s = site{c.Start - Pos(u.base), false}
		lit, _ = c.Args[0].(*StringLit)
	case *ImportCall:
		s = site{c.Start - Pos(u.base), true}
		lit, _ = c.Arg.(*StringLit)
	default:
		return nil
	}
	name, ok := u.sites[s]
	if !ok || lit == nil || lit.Value != name {
		return nil
	}
	t, at := l.units[name], At{x.Pos()}
	if !s.dynamic {
		return ident(at, valueName(t))
	}
	ns := l.originExpr(origin{u: t, ns: true}, at)
	arrow := &Function{At: at, Kind: FuncArrow, Async: true, Strict: true, SimpleParams: true, ExprBody: ns}
	return &Call{At: at, Callee: &FuncLit{At: at, Func: arrow}}
}

// importDecl turns an import declaration of a map name into a constant
// declaration of its bindings, or nil when it binds nothing.
func (l *linker) importDecl(im *Import) Stmt {
	t := l.units[im.Module.Value]
	var decls []*Declarator
	bind := func(local *Ident, name string) {
		o, _ := l.lookup(t, name, nil, local.Start) // checked by checkImports
		decls = append(decls, &Declarator{At: local.At, Target: local, Init: l.originExpr(o, local.At)})
	}
	if im.Default != nil {
		bind(im.Default, "default")
	}
	if im.Namespace != nil {
		bind(im.Namespace, "*")
	}
	for _, sp := range im.Specs {
		bind(sp.Local, sp.Imported.Name)
	}
	if len(decls) == 0 {
		return nil
	}
	return &VarDecl{At: im.At, Kind: DeclConst, Decls: decls}
}

// originExpr reads an import's value.
func (l *linker) originExpr(o origin, at At) Expr {
	switch {
	case o.ns && o.u.kind != "js":
		return ident(at, "*"+o.u.name)
	case o.ns, o.whole:
		return ident(at, valueName(o.u))
	}
	return member(at, ident(at, valueName(o.u)), o.name)
}

// namespace builds an ES module's namespace object: a getter for each
// export, sorted by name, on no prototype.
func (l *linker) namespace(u *unit, at At) Expr {
	names := make([]string, 0, len(u.table))
	for name := range u.table {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return lessUTF16(names[i], names[j]) })
	props := make([]*Property, 0, len(names)+1)
	props = append(props, protoNull(at))
	for _, name := range names {
		o, e := u.table[name], u.own[name]
		pos := at // an export's getter is where it is exported
		if e != nil {
			pos = At{Pos(u.base) + e.pos}
		}
		var x Expr
		switch {
		case o.u != u:
			x = l.originExpr(o, pos)
		case e.from == "":
			id := ident(pos, e.local)
			u.locals = append(u.locals, localRef{id: id, name: e.local, pos: e.pos})
			x = id
		case e.imported == "*":
			x = ident(pos, hostLocal(e.from))
		default:
			x = member(pos, ident(pos, hostLocal(e.from)), e.imported)
		}
		get := &Function{At: pos, Kind: FuncGetter, Strict: true, SimpleParams: true,
			Body: &Block{At: pos, End: pos.Start, Body: []Stmt{&Return{At: pos, X: x}}}}
		props = append(props, &Property{At: pos, Kind: PropGet, Key: propKey(pos, name), Value: &FuncLit{At: pos, Func: get}})
	}
	return &ObjectLit{At: at, Props: props}
}

// lessUTF16 orders strings by their UTF-16 code units, as JavaScript
// compares strings: code points past U+FFFF (surrogate pairs) sort before
// U+E000..U+FFFF, unlike in UTF-8.
func lessUTF16(a, b string) bool {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		ra, na := utf8.DecodeRuneInString(a[i:])
		rb, nb := utf8.DecodeRuneInString(b[j:])
		if ra != rb {
			return utf16Key(ra) < utf16Key(rb)
		}
		i, j = i+na, j+nb
	}
	return len(a) < len(b)
}

// utf16Key is a code point's first UTF-16 unit, with the code point to
// break ties.
func utf16Key(r rune) int64 {
	if r >= 0x10000 {
		return int64(0xD800+((r-0x10000)>>10))<<21 | int64(r)
	}
	return int64(r) << 21
}

// ---------------------------------------------------------------------------
// Building nodes

func ident(at At, name string) *Ident { return &Ident{At: at, Name: name} }

func constDecl(at At, name string, init Expr) Stmt {
	return &VarDecl{At: at, Kind: DeclConst, Decls: []*Declarator{{At: at, Target: ident(at, name), Init: init}}}
}

// protoNull is the entry __proto__: null of an object literal.
func protoNull(at At) *Property {
	return &Property{At: at, Kind: PropInit, Key: &Name{At: at, Name: "__proto__"}, Value: &NullLit{At: at}}
}

// member reads property name of x: x.name, or x["name"] for a name that
// is not an identifier.
func member(at At, x Expr, name string) Expr {
	if isIdentifierName(name) {
		return &Member{At: at, X: x, Prop: &Name{At: at, Name: name}}
	}
	return &Index{At: at, X: x, Index: &StringLit{At: at, Value: name, Raw: quoteJS(name)}}
}

// propKey is an object literal's key for name.
func propKey(at At, name string) Expr {
	if isIdentifierName(name) {
		return &Name{At: at, Name: name}
	}
	return &StringLit{At: at, Value: name, Raw: quoteJS(name)}
}

// isIdentifierName reports whether name can follow a dot.
func isIdentifierName(name string) bool {
	return name != "" && quoteImportName(name) == name
}

// rewriteExprs replaces each expression below n, held in a field or list
// of expressions, for which f returns a node; the replacement is not
// visited. It finds nodes as Inspect does.
func rewriteExprs(n Node, f func(Expr) Expr) {
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return
	}
	v = v.Elem()
	for i := 0; i < v.NumField(); i++ {
		rewriteValue(v.Field(i), f)
	}
}

var exprType = reflect.TypeFor[Expr]()

func rewriteValue(v reflect.Value, f func(Expr) Expr) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() || !v.CanInterface() {
			return
		}
		if v.Type() == exprType && v.CanSet() {
			if x := f(v.Interface().(Expr)); x != nil {
				v.Set(reflect.ValueOf(x))
				return
			}
		}
		if n, ok := v.Interface().(Node); ok {
			rewriteExprs(n, f)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			rewriteValue(v.Index(i), f)
		}
	}
}
