package ast

// The linker turns a program and a module map into one ordinary Program,
// which both engines run as they run any other: modules are desugared
// into code the engines already know, never added to them.
//
// Each module the program reaches becomes a top-level constant with a
// hidden name, one that no source text can write: "@name" holds the
// module's value, "*name" the namespace object of a module that is not an
// ES module, when something asks for it. The constants come first, in
// the order the modules run (depth first, post-order, from the program's
// imports in source order, as JavaScript evaluates modules); the
// program's own statements follow:
//
//	const @helpers = (function () {         an ES module: its namespace
//	  const slugify = @strings.slugify;      its imports, bound first
//	  ...its code, export keywords dropped...
//	  return {__proto__: null, get slugify() { return slugify; }};
//	})();                                    (awaited if it has top-level await)
//	const @legacy = (module => {             a CommonJS module: module.exports
//	  (function (exports, module) {...}).call(module.exports, module.exports, module);
//	  return module.exports;
//	})({exports: {}});
//	const @config.json = {...};              json: the value; text: the string
//	const data = @config.json;               the program's imports of the map
//	...the program...
//
// A module's function is marked with Function.Module, and the resolver
// gives it no scope but its own, the hidden names and the globals (see
// resolve.go). Import declarations of map names, export ... from, and
// require("name") and import("name") with a literal name are rewritten to
// read the hidden constants (import() as (async () => namespace)()); names
// the host provides at run time (node:fs) are left to the engines, as
// without a module map, except that a re-export from one (export { x }
// from "node:fs") imports it under a hidden name of the module's. An
// export default of an expression or of an anonymous function or class
// binds the name "default", which no source can write either, so that the
// function's name is "default", as in JavaScript. The namespace object of
// a module that is not an ES module is made when an import asks for it:
// {__proto__: null, ...module.exports, default: module.exports} for
// CommonJS, {__proto__: null, default: value} for json and text. Print
// shows a linked program with these names, so its output is not source
// to parse again.
//
// Linking reads every module twice. The first reading, of each text alone,
// finds what a module imports and exports, so that errors point into the
// module's own text; once the modules reached and their order are known,
// their texts are laid out after the program's in one Source and read
// again, at their offsets there, to build the Program (linkbuild.go).

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// ModuleSource is one module of a module map.
type ModuleSource struct {
	// Kind is "js" (an ES module), "cjs" (a CommonJS module: module,
	// exports and require in scope), "json" (its default export is the
	// value) or "text" (its default export is the text).
	Kind string
	// Text is the source (js, cjs), the JSON text (json) or the string
	// (text).
	Text string
}

// LinkOptions are the options of Link.
type LinkOptions struct {
	// Options apply to the program and to its js and cjs modules.
	Options
	// HostModule reports whether the host provides a module of this name
	// when the program runs (node:fs, crypto, ...). An import of a name
	// that is neither in the module map nor accepted here is a ParseError.
	// When nil, every name outside the map is left to the host, as Parse
	// leaves every name.
	HostModule func(name string) bool
}

// maxStarExports bounds the names that export * adds to modules' export
// tables, all modules together: a chain of modules each re-exporting the
// next one's names grows quadratically.
const maxStarExports = 1 << 18

// Link parses a program (cleaned up as Parse does) and every module of the
// map that it reaches, and links them into one Program, which the engines
// run as they run any other (see the top of link.go for its shape).
//
// Modules run once, before the program's statements, in the order
// JavaScript evaluates them: a module's imports first, in source order.
// require("name") and import("name") of a map name, with a literal name,
// count as imports: the module runs before the program starts, wherever
// the call is. A module with top-level await is awaited before the next
// one starts.
//
// What JavaScript leaves to the module system, Link decides statically:
//   - an import cycle is an error;
//   - an import of a name that is neither in the map nor provided by the
//     host (LinkOptions.HostModule) is an error;
//   - importing a name that an ES, JSON or text module does not export is
//     an error (Node's message).
//
// Named imports are bound when the importing module starts, to the value
// the export has then: they are copies, not live bindings (everything a
// module imports has finished running by then). A namespace object (import
// * as ns, import()) reads through getters, so ns.x sees later assignments
// to an exported let. Its keys are sorted as JavaScript sorts them, except
// that names that look like array indices come first, as in any object.
//
// The result is deterministic: the same inputs give the same Program.
// Errors are *Error; one inside a module names the module (Location.Module)
// and has its position in the module's own text.
func Link(entry string, modules map[string]ModuleSource, opts LinkOptions) (prog *Program, err error) {
	defer func() {
		if rec := recover(); rec != nil {
			// A bug: an error rather than a crash of the host.
			prog, err = nil, &Error{Pos: NoPos, Msg: fmt.Sprintf("internal error: linker failed: %v", rec)}
		}
	}()
	l := &linker{opts: opts, modules: modules, units: map[string]*unit{}}
	p, perr := l.link(entry)
	if perr != nil {
		return nil, perr
	}
	return p, nil
}

type linker struct {
	opts    LinkOptions
	modules map[string]ModuleSource
	units   map[string]*unit // the modules reached
	order   []*unit          // in the order they run
	stars   int              // names export * added, for maxStarExports
}

// unit is the program or one module of the map, and what the first
// reading learned about it.
type unit struct {
	name string // "" for the program
	kind string // "js", "cjs", "json" or "text"; "" for the program
	text string
	base int // where text starts in the linked Source

	deps    []dep           // the modules it names, in source order
	imports []*Import       // its import declarations
	exports []*exportDecl   // its export declarations (js)
	sites   map[site]string // require("m") and import("m") of map names, by position
	tla     bool            // it has top-level await (js)
	needNS  bool            // a namespace object is wanted (not js)
	state   uint8           // of the depth-first walk

	// For an ES module: its exports, by the name they are exported as.
	own       map[string]*export // by name: what it exports itself (not export *)
	ownList   []*export          // the same, in source order
	table     map[string]origin  // every export, where its value comes from
	ambiguous map[string]bool    // names export * gives it twice, differently
	locals    []localRef         // its namespace's getters of its own bindings
}

const (
	unseen uint8 = iota
	walking
	walked
)

// dep is a module name a unit uses, and where (in the unit's own text).
type dep struct {
	name string
	pos  Pos
}

// site is a call to rewrite: require("m"), or import("m") when dynamic.
type site struct {
	pos     Pos
	dynamic bool
}

// export is one name an ES module exports.
type export struct {
	name     string // the name it is exported as
	local    string // the module's binding, when from is ""
	from     string // the module it is re-exported from
	imported string // the export of from; "*" for its namespace
	pos      Pos
}

// origin is where an import's value comes from: the property name of u's
// value, or u's whole value, or u's namespace object.
type origin struct {
	u         *unit
	name      string
	whole, ns bool
}

// localRef is a namespace getter's reference to an exported binding,
// checked once resolved: the binding must be the module's own.
type localRef struct {
	id   *Ident
	name string
	pos  Pos
}

// isHiddenName reports whether a top-level name is one of Link's, which
// no source text can write.
func isHiddenName(name string) bool { return name != "" && (name[0] == '@' || name[0] == '*') }

func valueName(u *unit) string { return "@" + u.name }

func (l *linker) link(entry string) (*Program, *Error) {
	if err := l.checkMap(); err != nil {
		return nil, err
	}
	// The program, read as Parse reads it.
	var buf textBuf
	src := normalizeBuf(entry, !l.opts.NoTypeScript, &buf)
	prog, err := parseSourceWith(src, l.opts.Options, &buf)
	if err != nil {
		return nil, err.(*Error)
	}
	main := &unit{text: entry}
	l.scan(main, prog.Func)
	if err := l.walk(main); err != nil {
		return nil, err
	}
	if len(l.order) == 0 {
		return prog, nil // no module of the map: the program as it is
	}
	for _, u := range l.order {
		if err := l.resolveExports(u); err != nil {
			return nil, err
		}
	}
	for _, u := range append(l.order, main) {
		if err := l.checkImports(u); err != nil {
			return nil, err
		}
	}
	return l.build(main, src)
}

// checkMap rejects a map entry with no name or a kind that is not known.
func (l *linker) checkMap() *Error {
	for _, name := range l.names() {
		kind := l.modules[name].Kind
		switch {
		case name == "":
			return &Error{Pos: NoPos, Msg: "The module map has a module with an empty name."}
		case kind == "":
			return l.mapError(name, "Module %q has no kind (the kinds are js, cjs, json or text).", name)
		case kind != "js" && kind != "cjs" && kind != "json" && kind != "text":
			return l.mapError(name, "Module %q has unknown kind %q (the kinds are js, cjs, json or text).", name, kind)
		}
	}
	return nil
}

func (l *linker) mapError(name, format string, args ...any) *Error {
	return &Error{Pos: NoPos, Location: Location{Module: name}, Msg: fmt.Sprintf(format, args...)}
}

// names returns the map's names, sorted.
func (l *linker) names() []string {
	names := make([]string, 0, len(l.modules))
	for name := range l.modules {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func (l *linker) inMap(name string) bool {
	_, ok := l.modules[name]
	return ok
}

// ---------------------------------------------------------------------------
// The first reading

// load reads a module of the map on its own.
func (l *linker) load(name string) (*unit, *Error) {
	ms := l.modules[name]
	u := &unit{name: name, kind: ms.Kind, text: ms.Text}
	src := NewSource(ms.Text)
	if !utf8.ValidString(ms.Text) {
		err := checkText(src)
		err.Location = src.Location(err.Pos)
		err.Location.Module = name
		err.Msg = fmt.Sprintf("Module %q is not valid UTF-8", name)
		return nil, err
	}
	switch u.kind {
	case "json":
		if _, err := jsonExpr(ms.Text, 0); err != nil {
			err.Location = src.Location(err.Pos)
			err.Location.Module = name
			err.Msg = fmt.Sprintf("Module %q is not valid JSON: %s", name, err.Msg)
			return nil, err
		}
		return u, nil
	case "text":
		return u, nil
	}
	fn, err := parseBody(src, unitMode(u.kind), !l.opts.NoTypeScript, nil)
	if err != nil {
		return nil, l.inModule(u, src, err)
	}
	moduleFunc(u, fn)
	if err := l.collectExports(u); err != nil {
		return nil, err
	}
	// The module's own bindings decide which require calls are the
	// module system's (require must be the global) and whether export
	// { a } names a binding.
	if _, err := resolveProgram(src, fn); err != nil {
		return nil, l.inModule(u, src, err)
	}
	l.scan(u, fn)
	if err := l.checkLocals(u, fn); err != nil {
		return nil, err
	}
	return u, nil
}

// exportsLocals reports whether an ES module has export { a } of its own
// bindings.
func (u *unit) exportsLocals() bool {
	for _, ex := range u.exports {
		if len(ex.Specs) > 0 && ex.From == nil {
			return true
		}
	}
	return false
}

// checkLocals checks that the bindings export { a } names are the
// module's own: declared at its top level, or imported.
func (l *linker) checkLocals(u *unit, fn *Function) *Error {
	top := map[string]bool{}
	for _, list := range [][]*Binding{fn.Scope.Vars.Bindings, fn.Body.Scope.Bindings} {
		for _, b := range list {
			top[b.Name] = true
		}
	}
	for _, im := range u.imports {
		for _, id := range []*Ident{im.Default, im.Namespace} {
			if id != nil {
				top[id.Name] = true
			}
		}
		for _, sp := range im.Specs {
			top[sp.Local.Name] = true
		}
	}
	if !u.exportsLocals() {
		return nil // every export is a declaration's
	}
	for _, e := range u.ownList {
		if e.from == "" && !top[e.local] {
			return l.errorAt(u, e.pos, "Export '%s' is not defined in module", e.local)
		}
	}
	return nil
}

func unitMode(kind string) unitKind {
	if kind == "cjs" {
		return unitCJS
	}
	return unitJS
}

// moduleFunc makes a module's parsed body the function that runs it:
// export declarations become the declarations they hold, and a CommonJS
// module takes exports and module as parameters.
func moduleFunc(u *unit, fn *Function) {
	fn.Kind, fn.Module = FuncNormal, u.name
	if u.kind == "cjs" {
		at := fn.At
		fn.Params = []Pattern{&Ident{At: at, Name: "exports"}, &Ident{At: at, Name: "module"}}
		return
	}
	body := fn.Body.Body[:0]
	u.exports = u.exports[:0]
	for _, s := range fn.Body.Body {
		ex, ok := s.(*exportDecl)
		if !ok {
			body = append(body, s)
			continue
		}
		u.exports = append(u.exports, ex)
		switch {
		case ex.Decl != nil:
			body = append(body, ex.Decl)
		case ex.Value != nil:
			id := &Ident{At: ex.At, Name: "default"}
			body = append(body, &VarDecl{At: ex.At, Kind: DeclConst, Decls: []*Declarator{{At: ex.At, Target: id, Init: ex.Value}}})
		}
	}
	fn.Body.Body = body
}

// scan finds the modules a resolved unit names: its import declarations,
// its export ... from, and its calls import("m") and require("m") (when
// require is the global). It also finds top-level await.
func (l *linker) scan(u *unit, fn *Function) {
	for _, s := range fn.Body.Body {
		if im, ok := s.(*Import); ok {
			u.imports = append(u.imports, im)
			u.deps = append(u.deps, dep{im.Module.Value, im.Module.Start})
		}
	}
	for _, ex := range u.exports {
		if ex.From != nil {
			u.deps = append(u.deps, dep{ex.From.Value, ex.From.Start})
		}
	}
	calls := strings.Contains(u.text, "require") || strings.Contains(u.text, "import")
	await := u.kind == "js" && strings.Contains(u.text, "await")
	if strings.Contains(u.text, `\u`) {
		calls, await = true, u.kind == "js" // escapes can spell any name
	}
	if calls || await {
		var nested []*Function
		visit := func(top bool) func(Node) bool {
			return func(n Node) bool {
				switch n := n.(type) {
				case *Function:
					if top && n != fn {
						nested = append(nested, n)
						return false
					}
				case *Await:
					u.tla = u.tla || top
				case *ForOf:
					u.tla = u.tla || top && n.Await
				case *Call:
					id, ok := n.Callee.(*Ident)
					if !ok || id.Name != "require" || n.Optional || len(n.Args) != 1 {
						break
					}
					if lit, ok := n.Args[0].(*StringLit); ok && id.Binding != nil && id.Binding.Storage == Global {
						l.addSite(u, site{n.Start, false}, lit)
					}
				case *ImportCall:
					if lit, ok := n.Arg.(*StringLit); ok {
						l.addSite(u, site{n.Start, true}, lit)
					}
				}
				return true
			}
		}
		Inspect(fn, visit(true))
		for _, f := range nested {
			Inspect(f, visit(false))
		}
	}
	sort.SliceStable(u.deps, func(i, j int) bool { return u.deps[i].pos < u.deps[j].pos })
}

func (l *linker) addSite(u *unit, s site, lit *StringLit) {
	u.deps = append(u.deps, dep{lit.Value, lit.Start})
	if l.inMap(lit.Value) {
		if u.sites == nil {
			u.sites = map[site]string{}
		}
		u.sites[s] = lit.Value
	}
}

// walk visits the modules the program reaches, depth first, reading each
// the first time, and lists them in post-order: the order they run. The
// stack is explicit, so a chain of any length is only as deep as the
// heap.
func (l *linker) walk(main *unit) *Error {
	type frame struct {
		u *unit
		i int
	}
	stack := []frame{{main, 0}}
	main.state = walking
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i == len(f.u.deps) {
			f.u.state = walked
			if f.u != main {
				l.order = append(l.order, f.u)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		u, d := f.u, f.u.deps[f.i]
		f.i++
		if !l.inMap(d.name) {
			if l.opts.HostModule != nil && !l.opts.HostModule(d.name) {
				return l.unknownModule(u, d)
			}
			continue
		}
		t := l.units[d.name]
		if t == nil {
			var err *Error
			if t, err = l.load(d.name); err != nil {
				return err
			}
			l.units[d.name] = t
		}
		switch t.state {
		case walking:
			var path []string
			for i := len(stack) - 1; i >= 0 && stack[i].u != t; i-- {
				path = append(path, stack[i].u.name)
			}
			path = append(path, t.name)
			slices.Reverse(path)
			return l.errorAt(u, d.pos, "%s", cycleMessage(append(path, t.name)))
		case unseen:
			t.state = walking
			stack = append(stack, frame{t, 0})
		}
	}
	return nil
}

// cycleMessage describes an import cycle: the path of modules, the first
// one again at its end. A long one is shortened in the middle.
func cycleMessage(path []string) string {
	var b strings.Builder
	b.WriteString("Module cycle: ")
	const ends = 8
	for i, name := range path {
		switch {
		case i == 0:
			fmt.Fprintf(&b, "%q", name)
		case len(path) > 2*ends+1 && i == ends:
			fmt.Fprintf(&b, ", which imports ... (%d more)", len(path)-2*ends)
		case len(path) > 2*ends+1 && i > ends && i < len(path)-ends:
		case i == 1:
			fmt.Fprintf(&b, " imports %q", name)
		default:
			fmt.Fprintf(&b, ", which imports %q", name)
		}
	}
	b.WriteString(".")
	return b.String()
}

// unknownModule reports an import of a name the map does not have and the
// host does not provide.
func (l *linker) unknownModule(u *unit, d dep) *Error {
	who := "The program"
	if u.name != "" {
		who = fmt.Sprintf("Module %q", u.name)
	}
	have := "it is empty"
	if names := l.names(); len(names) > 0 {
		const most = 20
		have = "it has: " + strings.Join(names[:min(len(names), most)], ", ")
		if len(names) > most {
			have += fmt.Sprintf(" and %d more", len(names)-most)
		}
	}
	return l.errorAt(u, d.pos, "%s imports %q, which is not in the module map (%s) and is not a module this host provides.", who, d.name, have)
}

// errorAt is an error at pos in u's own text. Its message names the
// module it is in, if it does not already start with a module's name.
func (l *linker) errorAt(u *unit, pos Pos, format string, args ...any) *Error {
	src := &Source{Text: u.text, End: len(u.text)}
	loc := src.Location(pos)
	loc.Module = u.name
	msg := fmt.Sprintf(format, args...)
	if u.name != "" && !strings.HasPrefix(msg, "Module ") {
		msg = fmt.Sprintf("Module %q: %s", u.name, msg)
	}
	return &Error{Pos: pos, Location: loc, Msg: msg}
}

// inModule names the module in an error found in its text alone.
func (l *linker) inModule(u *unit, src *Source, err *Error) *Error {
	err.Location = src.Location(err.Pos)
	err.Location.Module = u.name
	err.Msg = fmt.Sprintf("Module %q: %s", u.name, err.Msg)
	return err
}

// ---------------------------------------------------------------------------
// Exports

// collectExports lists what an ES module exports.
func (l *linker) collectExports(u *unit) *Error {
	if u.kind != "js" {
		return nil
	}
	u.own = map[string]*export{}
	add := func(e *export) *Error {
		if _, dup := u.own[e.name]; dup {
			return l.errorAt(u, e.pos, "Duplicate export of '%s'", e.name)
		}
		u.own[e.name] = e
		u.ownList = append(u.ownList, e)
		return nil
	}
	for _, ex := range u.exports {
		var err *Error
		switch {
		case ex.Default:
			local := "default"
			switch d := ex.Decl.(type) {
			case *FuncDecl:
				local = d.Func.Name.Name
			case *ClassDecl:
				local = d.Class.Name.Name
			}
			err = add(&export{name: "default", local: local, pos: ex.Start})
		case ex.Decl != nil:
			for _, id := range declaredNames(ex.Decl) {
				if err = add(&export{name: id.Name, local: id.Name, pos: id.Start}); err != nil {
					break
				}
			}
		case ex.Star && ex.As == nil:
			// export * from "m": resolved with the tables (resolveExports).
		case ex.Star:
			err = add(&export{name: ex.As.Name, from: ex.From.Value, imported: "*", pos: ex.As.Start})
		default:
			for _, sp := range ex.Specs {
				e := &export{name: sp.Exported.Name, local: sp.Local.Name, pos: sp.Exported.Start}
				if ex.From != nil {
					e.local, e.from, e.imported = "", ex.From.Value, sp.Local.Name
				}
				if err = add(e); err != nil {
					break
				}
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// declaredNames lists the names a declaration binds.
func declaredNames(s Stmt) []*Ident {
	var ids []*Ident
	switch d := s.(type) {
	case *VarDecl:
		for _, dc := range d.Decls {
			boundNames(dc.Target, func(id *Ident) { ids = append(ids, id) })
		}
	case *FuncDecl:
		ids = append(ids, d.Func.Name)
	case *ClassDecl:
		ids = append(ids, d.Class.Name)
	}
	return ids
}

// resolveExports builds an ES module's export table. Modules are taken in
// the order they run, so the tables of the modules it re-exports from are
// complete.
func (l *linker) resolveExports(u *unit) *Error {
	if u.kind != "js" {
		return nil
	}
	u.table = make(map[string]origin, len(u.own))
	for _, e := range u.ownList {
		name := e.name
		t := l.units[e.from]
		if e.from == "" || t == nil {
			// Its own binding, or a host module's export, read by its
			// namespace's getter.
			u.table[name] = origin{u: u, name: name}
			continue
		}
		o, err := l.lookup(t, e.imported, u, e.pos)
		if err != nil {
			return err
		}
		u.table[name] = o
	}
	var starred map[string]origin
	for _, ex := range u.exports {
		if !ex.Star || ex.As != nil {
			continue
		}
		t := l.units[ex.From.Value]
		switch {
		case t == nil || t.kind == "cjs":
			what := "a module the host provides"
			if t != nil {
				what = "a CommonJS module"
			}
			return l.errorAt(u, ex.Start, "Module %q re-exports everything from %q, %s, whose names are only known when it runs; re-export them by name: export { a, b } from %q", u.name, ex.From.Value, what, ex.From.Value)
		case t.kind != "js":
			continue // a JSON or text module exports only its default
		}
		if starred == nil {
			starred = map[string]origin{}
		}
		star := func(name string, o origin, ambiguous bool) {
			if _, explicit := u.own[name]; explicit || name == "default" {
				return
			}
			if prev, ok := starred[name]; ok && prev != o || ambiguous {
				if u.ambiguous == nil {
					u.ambiguous = map[string]bool{}
				}
				u.ambiguous[name] = true
			}
			starred[name] = o
			l.stars++
		}
		for name, o := range t.table {
			star(name, o, false)
		}
		for name := range t.ambiguous {
			star(name, origin{}, true)
		}
		if l.stars > maxStarExports {
			return l.errorAt(u, ex.Start, "The modules re-export too many names with export * (more than %d in all)", maxStarExports)
		}
	}
	for name, o := range starred {
		if !u.ambiguous[name] {
			u.table[name] = o
		}
	}
	return nil
}

// lookup finds where export name of module t comes from ("*" is its
// namespace), for an import in module u at pos.
func (l *linker) lookup(t *unit, name string, u *unit, pos Pos) (origin, *Error) {
	if name == "*" {
		t.needNS = t.needNS || t.kind != "js"
		return origin{u: t, ns: true}, nil
	}
	switch t.kind {
	case "js":
		if o, ok := t.table[name]; ok {
			return o, nil
		}
		if t.ambiguous[name] {
			return origin{}, l.errorAt(u, pos, "The requested module '%s' contains conflicting star exports for name '%s'", t.name, name)
		}
	case "cjs":
		if name == "default" {
			return origin{u: t, whole: true}, nil
		}
		return origin{u: t, name: name}, nil
	default:
		if name == "default" {
			return origin{u: t, whole: true}, nil
		}
	}
	return origin{}, l.errorAt(u, pos, "The requested module '%s' does not provide an export named '%s'", t.name, name)
}

// checkImports checks that what a unit imports from the map exists, and
// notes the namespace objects it needs.
func (l *linker) checkImports(u *unit) *Error {
	for _, ex := range u.exports {
		if t := l.units[modName(ex.From)]; t != nil && ex.Type != "" {
			if err := l.checkType(t, ex.Type, u, ex.From.Start); err != nil {
				return err
			}
		}
	}
	for _, im := range u.imports {
		t := l.units[im.Module.Value]
		if t == nil {
			continue
		}
		if im.Type != "" {
			if err := l.checkType(t, im.Type, u, im.Module.Start); err != nil {
				return err
			}
		}
		if im.Default != nil {
			if _, err := l.lookup(t, "default", u, im.Default.Start); err != nil {
				return err
			}
		}
		if im.Namespace != nil {
			l.lookup(t, "*", u, im.Namespace.Start)
		}
		for _, sp := range im.Specs {
			if _, err := l.lookup(t, sp.Imported.Name, u, sp.Imported.Start); err != nil {
				return err
			}
		}
	}
	for s, name := range u.sites {
		if t := l.units[name]; s.dynamic && t.kind != "js" {
			t.needNS = true
		}
	}
	return nil
}

// checkType checks an import's type attribute (with { type: "json" })
// against the kind of the module t.
func (l *linker) checkType(t *unit, typ string, u *unit, pos Pos) *Error {
	switch {
	case typ != "json" && typ != "text":
		return l.errorAt(u, pos, "Import attribute type %q is not supported (the types are json and text)", typ)
	case typ != t.kind:
		return l.errorAt(u, pos, "The requested module '%s' is a %s module, not %s: its import says with { type: %q }", t.name, t.kind, typ, typ)
	}
	return nil
}

func modName(lit *StringLit) string {
	if lit == nil {
		return ""
	}
	return lit.Value
}
