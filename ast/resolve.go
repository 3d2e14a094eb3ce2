package ast

// The resolver runs once after parsing. It stamps every identifier with
// the Binding it refers to, decides where each binding lives (a frame slot,
// a captured cell, or the host's globals), lays out every function's frame
// (FuncScope) and every block's declarations (Scope), and reports the
// early errors that need scopes: redeclarations and duplicate parameters.
//
// Declarations are hoisted before uses are resolved: on entry to a function
// its parameters, vars and top-level function declarations are declared;
// on entry to a block, its let, const, class and function declarations.
// So a use always finds the declaration that is in scope where it stands,
// whatever the textual order; whether it runs before the declaration is
// the engines' business (the TDZ check, see Binding.Lexical).
//
// In a program made by Link, each module's code is a function marked with
// Function.Module. Its scope chain does not go through the program's: past
// its own layers come only the program's hidden names (the modules' values,
// see link.go), then the globals. So a module never sees what the program
// declares, as in JavaScript, where each module has a scope of its own.

import (
	"fmt"
	"sort"
)

var sprintf = fmt.Sprintf

type resolver struct {
	usePos  Pos // the identifier being looked up, for errors
	src     *Source
	env     *env
	fn      *funcState
	globals map[string]*Binding

	// Slabs for what the resolver allocates per identifier and scope (see
	// arena.go).
	bindings   slab[Binding]
	envs       slab[env]
	freeEnvs   []*env     // layers left, for reuse
	ptrs       []*Binding // room for the first few bindings of lists
	scopes     slab[Scope]
	funcScopes slab[FuncScope]
	funcStates slab[funcState]
	// lexical is the stack hoistVars passes down, kept between functions
	// for its array.
	lexical [][]Stmt

	// linked is set for a program made by Link; hidden is then the layer
	// of the program's hidden names, the only outer scope of a module.
	linked bool
	hidden *env
}

// env is one layer of names: a block, a function's var scope, a class
// name, a catch clause.
type env struct {
	parent *env
	fn     *funcState
	names  names
	// varScope is set on the layer that holds a function's parameters and
	// vars, where `arguments` is implicitly declared.
	varScope bool
	// inline holds the first few names, so that most layers need no
	// array of their own (an env never moves: it lives in a slab).
	inline [4]*Binding
}

type funcState struct {
	parent *funcState
	fn     *Function
	scope  *FuncScope
}

// names is the bindings of one layer. Most layers are small, so a slice
// searched from the end beats a map; past smallLayer names an index is
// built so that a scope with thousands of names stays linear.
type names struct {
	list  []*Binding
	index map[string]*Binding
}

const smallLayer = 16

func (ns *names) get(name string) (*Binding, bool) {
	if ns.index != nil {
		b, ok := ns.index[name]
		return b, ok
	}
	for i := len(ns.list) - 1; i >= 0; i-- {
		if ns.list[i].Name == name {
			return ns.list[i], true
		}
	}
	return nil, false
}

// set adds or replaces the binding for b.Name.
func (ns *names) set(b *Binding) {
	if old, ok := ns.get(b.Name); ok {
		for i := range ns.list {
			if ns.list[i] == old {
				ns.list[i] = b
			}
		}
	} else {
		ns.list = append(ns.list, b)
	}
	if ns.index == nil && len(ns.list) > smallLayer {
		ns.index = make(map[string]*Binding, 2*len(ns.list))
		for _, x := range ns.list {
			ns.index[x.Name] = x
		}
	} else if ns.index != nil {
		ns.index[b.Name] = b
	}
}

func resolveProgram(src *Source, fn *Function) (prog *Program, err *Error) {
	return resolveWith(&resolver{src: src}, fn)
}

// resolveLinked resolves a program made by Link, whose modules' functions
// see only the hidden names of the program.
func resolveLinked(src *Source, fn *Function) (prog *Program, err *Error) {
	return resolveWith(&resolver{src: src, linked: true}, fn)
}

func resolveWith(r *resolver, fn *Function) (prog *Program, err *Error) {
	src := r.src
	r.globals, r.lexical = map[string]*Binding{}, make([][]Stmt, 0, 16)
	defer func() {
		if rec := recover(); rec != nil {
			b, ok := rec.(bailout)
			if !ok {
				panic(rec)
			}
			prog, err = nil, b.err
		}
	}()
	r.function(fn, nil)
	prog = &Program{Source: src, Func: fn}
	for name := range r.globals {
		prog.Globals = append(prog.Globals, name)
	}
	sort.Strings(prog.Globals)
	return prog, nil
}

func (r *resolver) failAt(pos Pos, format string, args ...any) {
	panic(bailout{&Error{Pos: pos, Location: r.src.Location(pos), Msg: sprintf(format, args...)}})
}

// declare adds a binding for id to the layer e, owned by e's function.
func (r *resolver) declare(e *env, id *Ident, kind BindingKind) *Binding {
	b := r.newLocal(e.fn, id.Name, kind, id.Start)
	e.names.set(b)
	id.Binding = b
	return b
}

func (r *resolver) newLocal(st *funcState, name string, kind BindingKind, pos Pos) *Binding {
	b := alloc(&r.bindings, Binding{Name: name, Kind: kind, Decl: pos, Storage: Local, Index: len(st.scope.Locals), owner: st.scope})
	st.scope.Locals = append(r.room(st.scope.Locals), b)
	return b
}

// room returns list itself if it has room for one more binding, and
// otherwise, for an empty list, a few elements' room from a shared array:
// most lists of bindings are short, and growing each from nothing was
// most of the resolver's allocations. A longer list grows as usual.
func (r *resolver) room(list []*Binding) []*Binding {
	const first = 4
	if cap(list) > 0 {
		return list
	}
	if len(r.ptrs) < first {
		r.ptrs = make([]*Binding, 64*first)
	}
	list, r.ptrs = r.ptrs[:0:first], r.ptrs[first:]
	return list
}

func (r *resolver) push(varScope bool) *env {
	var e *env
	if n := len(r.freeEnvs); n > 0 {
		e, r.freeEnvs = r.freeEnvs[n-1], r.freeEnvs[:n-1]
	} else {
		e = r.envs.new()
		e.names.list = e.inline[:0]
	}
	e.parent, e.fn, e.varScope = r.env, r.fn, varScope
	r.env = e
	return r.env
}

// pop leaves the innermost layer. Nothing refers to a layer once it is
// left, so it is kept for reuse, with its names' array.
func (r *resolver) pop() {
	e := r.env
	r.env = e.parent
	clear(e.names.list)
	*e = env{names: names{list: e.names.list[:0]}}
	r.freeEnvs = append(r.freeEnvs, e)
}

// lookup finds the binding a name refers to from the current position,
// capturing it into the current function if it belongs to an outer one.
func (r *resolver) lookup(name string) *Binding {
	for e := r.env; e != nil; e = e.parent {
		if b, ok := e.names.get(name); ok {
			return r.capture(r.fn, b)
		}
		if e.varScope && name == "arguments" && e.fn.fn.Kind == FuncClassInit {
			r.failAt(r.usePos, "'arguments' is not allowed in class field initializer or static initialization block")
		}
		if e.varScope && name == "arguments" && hasOwnArguments(e.fn.fn.Kind) && e.fn.fn.Module == "" {
			sc := e.fn.scope
			if sc.Arguments == nil {
				sc.Arguments = r.newLocal(e.fn, "arguments", BindArguments, NoPos)
			}
			return r.capture(r.fn, sc.Arguments)
		}
	}
	g, ok := r.globals[name]
	if !ok {
		g = alloc(&r.bindings, Binding{Name: name, Kind: BindGlobal, Decl: NoPos, Storage: Global})
		r.globals[name] = g
	}
	return g
}

func hasOwnArguments(k FuncKind) bool {
	return k != FuncArrow && k != FuncProgram && k != FuncClassInit
}

// capture returns the binding through which function st sees b: b itself
// if st owns it, otherwise a Free binding that chains outwards.
func (r *resolver) capture(st *funcState, b *Binding) *Binding {
	if b.Storage == Global || b.owner == st.scope {
		return b
	}
	outer := r.capture(st.parent, b)
	for _, fb := range st.scope.Free {
		if fb.Outer == outer {
			return fb
		}
	}
	if outer.Storage == Local {
		outer.Storage = Cell
	}
	fb := alloc(&r.bindings, Binding{Name: b.Name, Kind: b.Kind, Decl: b.Decl, Storage: Free, Index: len(st.scope.Free), Outer: outer, owner: st.scope})
	st.scope.Free = append(r.room(st.scope.Free), fb)
	return fb
}

func (r *resolver) ident(id *Ident) {
	r.usePos = id.Start
	id.Binding = r.lookup(id.Name)
}

// this resolves `this` to the implicit binding of the nearest function
// that has its own (arrows see their parent's).
func (r *resolver) this(t *This) {
	st := r.fn
	for st.fn.Kind == FuncArrow && st.parent != nil {
		st = st.parent
	}
	if st.scope.This == nil {
		st.scope.This = r.newLocal(st, "this", BindThis, NoPos)
	}
	t.Binding = r.capture(r.fn, st.scope.This)
}

// ---------------------------------------------------------------------------
// Functions

// function resolves a function: its frame, parameters, hoisted
// declarations and body. A named function expression binds its own name
// in a layer of its own, so that parameters and vars may shadow it.
func (r *resolver) function(fn *Function, exprName *Ident) {
	st := alloc(&r.funcStates, funcState{parent: r.fn, fn: fn})
	fn.Scope = alloc(&r.funcScopes, FuncScope{Vars: r.scopes.new()})
	if r.fn != nil {
		fn.Scope.Parent = r.fn.scope
	}
	st.scope = fn.Scope
	savedEnv, savedFn := r.env, r.fn
	r.fn = st
	base := savedEnv
	if fn.Module != "" {
		// A module's scope chain skips the program's declarations.
		base = r.hidden
		r.env = base
	}
	defer func() {
		for r.env != base {
			r.pop()
		}
		r.env, r.fn = savedEnv, savedFn
	}()

	if exprName != nil {
		e := r.push(false)
		fn.Scope.Callee = r.declare(e, exprName, BindCallee)
	}
	vars := r.push(true)

	// Parameters.
	for _, prm := range fn.Params {
		r.declareParams(vars, prm)
	}
	if fn.Rest != nil {
		r.declareParams(vars, fn.Rest)
	}
	// Parameter defaults are resolved before the body's declarations
	// exist: they see the parameters and the enclosing scopes only, as
	// they run in an environment of their own.
	for _, prm := range fn.Params {
		r.pattern(prm)
	}
	if fn.Rest != nil {
		r.pattern(fn.Rest)
	}

	var body []Stmt
	if fn.Body != nil {
		body = fn.Body.Body
		fn.Body.Scope = r.scopes.new()
	}
	// Hoisted var declarations, checked against the lexical declarations
	// of every block they are hoisted through.
	r.hoistVars(vars, body, r.lexical[:0])
	// Function declarations at the top of the body are var-like.
	for _, s := range body {
		if fd, ok := s.(*FuncDecl); ok {
			name := fd.Func.Name
			if b, ok := vars.names.get(name.Name); ok {
				name.Binding = b
				if b.Kind == BindVar {
					b.Kind = BindFunction
				}
			} else {
				b := r.declare(vars, name, BindFunction)
				fn.Scope.Vars.Bindings = append(r.room(fn.Scope.Vars.Bindings), b)
			}
			fn.Scope.Vars.Funcs = append(fn.Scope.Vars.Funcs, fd)
		}
	}
	// Top-level lexical declarations share the var layer but may not
	// redeclare a parameter or var.
	if fn.Body != nil {
		r.declareLexical(vars, body, fn.Body.Scope, false)
	}
	if r.linked && savedFn == nil {
		r.hidden = r.hiddenLayer(vars)
	}

	// Now resolve the body.
	if fn.ExprBody != nil {
		r.expr(fn.ExprBody)
	}
	r.stmts(body)
}

// hiddenLayer returns a layer of the program's hidden names (see
// isHiddenName), declared in its top layer vars, for modules to see.
func (r *resolver) hiddenLayer(vars *env) *env {
	e := r.envs.new()
	e.names.list = e.inline[:0]
	e.fn = vars.fn
	for _, b := range vars.names.list {
		if isHiddenName(b.Name) {
			e.names.set(b)
		}
	}
	return e
}

func (r *resolver) declareParams(vars *env, prm Pattern) {
	boundNames(prm, func(id *Ident) {
		if prev, dup := vars.names.get(id.Name); dup && prev.Kind == BindParam {
			r.failAt(id.Start, "Duplicate parameter name not allowed in this context")
		}
		b := r.declare(vars, id, BindParam)
		r.fn.scope.Params = append(r.room(r.fn.scope.Params), b)
	})
}

// hoistVars declares the var-declared names of stmts (not of nested
// functions) in the function's var layer. lexical holds the lexically
// declared names of the blocks between the statements and the function,
// which a var may not redeclare.
func (r *resolver) hoistVars(vars *env, stmts []Stmt, lexical [][]Stmt) {
	for _, s := range stmts {
		r.hoistVarsStmt(vars, s, lexical)
	}
}

func (r *resolver) hoistVarsStmt(vars *env, s Stmt, lexical [][]Stmt) {
	switch s := s.(type) {
	case *VarDecl:
		if s.Kind == DeclVar {
			for _, d := range s.Decls {
				r.hoistPattern(vars, d.Target, lexical)
			}
		}
	case *Block:
		r.hoistVars(vars, s.Body, append(lexical, s.Body))
	case *If:
		r.hoistVarsStmt(vars, s.Then, lexical)
		if s.Else != nil {
			r.hoistVarsStmt(vars, s.Else, lexical)
		}
	case *For:
		if s.Init != nil {
			r.hoistVarsStmt(vars, s.Init, lexical)
			lexical = append(lexical, []Stmt{s.Init})
		}
		r.hoistVarsStmt(vars, s.Body, lexical)
	case *ForIn:
		r.hoistVarsStmt(vars, s.Body, r.hoistForHead(vars, s.Left, lexical))
	case *ForOf:
		r.hoistVarsStmt(vars, s.Body, r.hoistForHead(vars, s.Left, lexical))
	case *While:
		r.hoistVarsStmt(vars, s.Body, lexical)
	case *DoWhile:
		r.hoistVarsStmt(vars, s.Body, lexical)
	case *Try:
		r.hoistVarsStmt(vars, s.Block, lexical)
		if s.Handler != nil {
			inner := lexical
			if _, simple := s.Param.(*Ident); s.Param != nil && !simple {
				// A var may redeclare a simple catch parameter (Annex B),
				// not one bound by a pattern.
				inner = append(lexical, []Stmt{&VarDecl{Kind: DeclLet, Decls: []*Declarator{{Target: s.Param}}}})
			}
			r.hoistVarsStmt(vars, s.Handler, inner)
		}
		if s.Finalizer != nil {
			r.hoistVarsStmt(vars, s.Finalizer, lexical)
		}
	case *Switch:
		var all []Stmt
		for _, c := range s.Cases {
			all = append(all, c.Body...)
		}
		inner := append(lexical, all)
		for _, c := range s.Cases {
			r.hoistVars(vars, c.Body, inner)
		}
	case *Labeled:
		r.hoistVarsStmt(vars, s.Body, lexical)
	case *With:
		r.hoistVarsStmt(vars, s.Body, lexical)
	}
}

// hoistForHead hoists a var loop head, or adds a let/const head to the
// lexical declarations the body's vars may not redeclare.
func (r *resolver) hoistForHead(vars *env, left Node, lexical [][]Stmt) [][]Stmt {
	if d, ok := left.(*VarDecl); ok {
		if d.Kind == DeclVar {
			r.hoistVarsStmt(vars, d, lexical)
		} else {
			lexical = append(lexical, []Stmt{d})
		}
	}
	return lexical
}

func (r *resolver) hoistPattern(vars *env, target Pattern, lexical [][]Stmt) {
	boundNames(target, func(id *Ident) {
		for _, stmts := range lexical {
			if declaresLexically(stmts, id.Name) {
				r.failAt(id.Start, "Identifier '%s' has already been declared", id.Name)
			}
		}
		if _, ok := vars.names.get(id.Name); ok {
			return
		}
		b := r.declare(vars, id, BindVar)
		r.fn.scope.Vars.Bindings = append(r.room(r.fn.scope.Vars.Bindings), b)
	})
}

// declaresLexically reports whether a statement list declares name
// lexically (let, const, class, or a function declaration in a block).
func declaresLexically(stmts []Stmt, name string) bool {
	found := false
	for _, s := range stmts {
		switch s := s.(type) {
		case *VarDecl:
			if s.Kind != DeclVar {
				for _, d := range s.Decls {
					boundNames(d.Target, func(id *Ident) { found = found || id.Name == name })
				}
			}
		case *ClassDecl:
			found = found || s.Class.Name.Name == name
		case *FuncDecl:
			found = found || s.Func.Name.Name == name
		}
	}
	return found
}

// declareLexical declares the let, const and class declarations of a
// statement list in layer e, and (when blockFuncs) its function
// declarations too, recording them in sc.
func (r *resolver) declareLexical(e *env, stmts []Stmt, sc *Scope, blockFuncs bool) {
	add := func(id *Ident, kind BindingKind) {
		if _, ok := e.names.get(id.Name); ok {
			r.failAt(id.Start, "Identifier '%s' has already been declared", id.Name)
		}
		sc.Bindings = append(r.room(sc.Bindings), r.declare(e, id, kind))
	}
	for _, s := range stmts {
		switch s := s.(type) {
		case *VarDecl:
			if s.Kind == DeclVar {
				continue
			}
			kind := BindLet
			if s.Kind == DeclConst {
				kind = BindConst
			}
			for _, d := range s.Decls {
				boundNames(d.Target, func(id *Ident) { add(id, kind) })
			}
		case *ClassDecl:
			add(s.Class.Name, BindClass)
		case *FuncDecl:
			if blockFuncs {
				add(s.Func.Name, BindFunction)
				sc.Funcs = append(sc.Funcs, s)
			}
		}
	}
}

// boundNames calls f for each identifier a pattern binds, in order.
func boundNames(p Pattern, f func(*Ident)) {
	switch t := p.(type) {
	case *Ident:
		f(t)
	case *ArrayPattern:
		for _, el := range t.Elems {
			if el != nil {
				boundNames(el, f)
			}
		}
		if t.Rest != nil {
			boundNames(t.Rest, f)
		}
	case *ObjectPattern:
		for _, prop := range t.Props {
			boundNames(prop.Value, f)
		}
		if t.Rest != nil {
			boundNames(t.Rest, f)
		}
	case *AssignPattern:
		boundNames(t.Target, f)
	}
}

// ---------------------------------------------------------------------------
// Statements

func (r *resolver) stmts(list []Stmt) {
	for _, s := range list {
		r.stmt(s)
	}
}

// block resolves a statement list in a new layer.
func (r *resolver) block(b *Block) {
	b.Scope = r.scopes.new()
	e := r.push(false)
	r.declareLexical(e, b.Body, b.Scope, true)
	r.stmts(b.Body)
	r.pop()
}

func (r *resolver) stmt(s Stmt) {
	switch s := s.(type) {
	case *VarDecl:
		for _, d := range s.Decls {
			r.pattern(d.Target)
			if d.Init != nil {
				r.expr(d.Init)
			}
		}
	case *FuncDecl:
		r.function(s.Func, nil)
	case *ClassDecl:
		r.class(s.Class, false)
	case *ExprStmt:
		r.expr(s.X)
	case *Block:
		r.block(s)
	case *Empty, *Debugger, *Break, *Continue:
	case *If:
		r.expr(s.Test)
		r.stmt(s.Then)
		if s.Else != nil {
			r.stmt(s.Else)
		}
	case *For:
		s.Scope = r.scopes.new()
		e := r.push(false)
		if d, ok := s.Init.(*VarDecl); ok && d.Kind != DeclVar {
			r.declareLexical(e, []Stmt{d}, s.Scope, false)
		}
		if s.Init != nil {
			r.stmt(s.Init)
		}
		if s.Test != nil {
			r.expr(s.Test)
		}
		if s.Update != nil {
			r.expr(s.Update)
		}
		r.stmt(s.Body)
		r.pop()
	case *ForIn:
		s.Scope = r.forInOf(s.Left, s.Right, s.Body)
	case *ForOf:
		s.Scope = r.forInOf(s.Left, s.Right, s.Body)
	case *While:
		r.expr(s.Test)
		r.stmt(s.Body)
	case *DoWhile:
		r.stmt(s.Body)
		r.expr(s.Test)
	case *Return:
		if s.X != nil {
			r.expr(s.X)
		}
	case *Throw:
		r.expr(s.X)
	case *Try:
		r.block(s.Block)
		if s.Handler != nil {
			s.CatchScope = r.scopes.new()
			e := r.push(false)
			if s.Param != nil {
				boundNames(s.Param, func(id *Ident) {
					if _, dup := e.names.get(id.Name); dup {
						r.failAt(id.Start, "Identifier '%s' has already been declared", id.Name)
					}
					s.CatchScope.Bindings = append(s.CatchScope.Bindings, r.declare(e, id, BindCatch))
				})
				r.pattern(s.Param)
			}
			for _, b := range e.names.list {
				if declaresLexically(s.Handler.Body, b.Name) {
					r.failAt(s.Handler.Start, "Identifier '%s' has already been declared", b.Name)
				}
			}
			r.block(s.Handler)
			r.pop()
		}
		if s.Finalizer != nil {
			r.block(s.Finalizer)
		}
	case *Switch:
		r.expr(s.Disc)
		s.Scope = r.scopes.new()
		e := r.push(false)
		var all []Stmt
		for _, c := range s.Cases {
			all = append(all, c.Body...)
		}
		r.declareLexical(e, all, s.Scope, true)
		for _, c := range s.Cases {
			if c.Test != nil {
				r.expr(c.Test)
			}
			r.stmts(c.Body)
		}
		r.pop()
	case *Labeled:
		r.stmt(s.Body)
	case *With:
		r.expr(s.Obj)
		r.stmt(s.Body)
	case *Import:
		vars := r.env
		bind := func(id *Ident) {
			if _, dup := vars.names.get(id.Name); dup && id.Binding == nil {
				r.failAt(id.Start, "Identifier '%s' has already been declared", id.Name)
			}
			if id.Binding == nil {
				// In the function's scope, so that engines make its cell
				// when a closure captures it.
				b := r.declare(vars, id, BindImport)
				r.fn.scope.Vars.Bindings = append(r.room(r.fn.scope.Vars.Bindings), b)
			}
		}
		if s.Default != nil {
			bind(s.Default)
		}
		if s.Namespace != nil {
			bind(s.Namespace)
		}
		for _, spec := range s.Specs {
			bind(spec.Local)
		}
	default:
		r.failAt(s.Pos(), "internal error: unknown statement %T", s)
	}
}

// forInOf resolves a for-in or for-of loop. A let or const head gets its
// own layer (a fresh binding per iteration); the right-hand side is
// resolved inside it, so `for (const x of x)` sees the uninitialized x.
func (r *resolver) forInOf(left Node, right Expr, body Stmt) *Scope {
	sc := r.scopes.new()
	e := r.push(false)
	if d, ok := left.(*VarDecl); ok {
		if d.Kind != DeclVar {
			r.declareLexical(e, []Stmt{d}, sc, false)
		}
		r.pattern(d.Decls[0].Target)
	} else {
		r.pattern(left.(Pattern))
	}
	r.expr(right)
	r.stmt(body)
	r.pop()
	return sc
}

// pattern resolves the identifiers and default values of a pattern.
func (r *resolver) pattern(p Pattern) {
	switch t := p.(type) {
	case *Ident:
		r.ident(t)
	case *Member, *Index:
		r.expr(t.(Expr))
	case *ArrayPattern:
		for _, el := range t.Elems {
			if el != nil {
				r.pattern(el)
			}
		}
		if t.Rest != nil {
			r.pattern(t.Rest)
		}
	case *ObjectPattern:
		for _, prop := range t.Props {
			if prop.Computed {
				r.expr(prop.Key)
			}
			r.pattern(prop.Value)
		}
		if t.Rest != nil {
			r.pattern(t.Rest)
		}
	case *AssignPattern:
		r.pattern(t.Target)
		r.expr(t.Default)
	}
}

// ---------------------------------------------------------------------------
// Expressions

func (r *resolver) exprs(list []Expr) {
	for _, x := range list {
		if x != nil {
			r.expr(x)
		}
	}
}

func (r *resolver) expr(x Expr) {
	switch x := x.(type) {
	case *Ident:
		r.ident(x)
	case *This:
		r.this(x)
	case *Super:
		t := &This{At: x.At}
		r.this(t)
		x.This = t.Binding
	case *Name, *PrivateName, *NumberLit, *BigIntLit, *StringLit, *RegExpLit, *BoolLit, *NullLit,
		*NewTarget, *ImportMeta:
	case *ImportCall:
		r.expr(x.Arg)
	case *TemplateLit:
		r.exprs(x.Exprs)
	case *TaggedTemplate:
		r.expr(x.Tag)
		r.exprs(x.Quasi.Exprs)
	case *ArrayLit:
		r.exprs(x.Elems)
	case *Spread:
		r.expr(x.X)
	case *ObjectLit:
		for _, prop := range x.Props {
			if prop.Computed {
				r.expr(prop.Key)
			}
			r.expr(prop.Value)
		}
	case *FuncLit:
		r.function(x.Func, x.Func.Name)
	case *ClassLit:
		r.class(x.Class, true)
	case *Unary:
		r.expr(x.X)
	case *Update:
		r.expr(x.X)
	case *Binary:
		r.expr(x.X)
		r.expr(x.Y)
	case *Assign:
		r.pattern(x.Target)
		r.expr(x.Value)
	case *Cond:
		r.expr(x.Test)
		r.expr(x.Then)
		r.expr(x.Else)
	case *Call:
		r.expr(x.Callee)
		r.exprs(x.Args)
	case *New:
		r.expr(x.Callee)
		r.exprs(x.Args)
	case *Member:
		r.expr(x.X)
	case *Index:
		r.expr(x.X)
		r.expr(x.Index)
	case *Chain:
		r.expr(x.X)
	case *Sequence:
		r.exprs(x.List)
	case *Await:
		r.expr(x.X)
	case *Yield:
		if x.X != nil {
			r.expr(x.X)
		}
	case *PrivateIn:
		r.expr(x.X)
	default:
		r.failAt(x.Pos(), "internal error: unknown expression %T", x)
	}
}

// class resolves a class. Its own name is a read-only binding in a layer
// around the body (heritage, keys and members); a declaration's outer
// name was declared with the enclosing block.
func (r *resolver) class(c *Class, isExpr bool) {
	e := r.push(false)
	if c.Name != nil {
		inner := &Ident{At: At{c.Name.Start}, Name: c.Name.Name}
		c.Inner = r.declare(e, inner, BindClassName)
		if isExpr {
			c.Name.Binding = c.Inner
		} // a declaration's outer name was bound by declareLexical
	}
	if c.Extends != nil {
		r.expr(c.Extends)
	}
	for _, m := range c.Members {
		if m.Computed {
			r.expr(m.Key)
		}
		if m.Value != nil {
			r.function(m.Value, nil)
		}
	}
	r.pop()
}
