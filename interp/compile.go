package interp

import (
	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/value"
)

type (
	// exprFn evaluates an expression in a frame.
	exprFn func(f *frame) value.Value
	// stmtFn runs a statement and says how it completed.
	stmtFn func(f *frame) ctl
)

// ctl is a statement's completion: normal, or an abrupt break, continue
// or return (the label and the value are in the frame).
type ctl uint8

const (
	ctlNormal ctl = iota
	ctlBreak
	ctlContinue
	ctlReturn
)

// cell is a variable that a closure captured.
type cell struct{ v value.Value }

// frame is one activation of a function.
type frame struct {
	run       *Run
	code      *funcCode
	fn        *closure
	fobj      *value.Object
	locals    []value.Value
	cells     []*cell
	args      []value.Value
	newTarget *value.Object
	thisArg   value.Value
	ret       value.Value
	label     string
	co        *coroutine
	// scratch carries a call's this-value from the callee's evaluation.
	scratch value.Value
	// inline holds the locals of small frames, saving an allocation.
	inline [4]value.Value
	// captured marks a frame something still points to (an arrow's
	// outer frame), which must not be reused.
	captured bool
}

// funcCode is a compiled function.
type funcCode struct {
	fn       *ast.Function
	name     string
	length   int
	nlocals  int
	hasCells bool
	kind     ast.FuncKind
	async    bool
	gen      bool
	// suspends says whether the body contains await, yield or for await
	// directly (not in nested functions): only then does it need a
	// coroutine.
	suspends bool
	// setup binds this, arguments, the callee, parameters and hoisted
	// declarations.
	setup    func(f *frame)
	body     stmtFn
	exprBody exprFn
	// thisB is the function's own this binding, if used.
	thisB *ast.Binding
	// class is set for class constructors.
	class *classCode
	// stack is the most Go stack, in bytes, that the function's own
	// closures hold while it calls out (stack.go).
	stack int
}

// compiler turns a resolved tree into closures.
type compiler struct {
	src         *ast.Source
	globals     []string
	globalIndex map[string]int
	fn          *funcCode
	// depth is the Go stack the closures between the current function's
	// entry and the node being compiled hold (stack.go).
	depth int
	// classes is the stack of classes being compiled, for private names.
	classes []*classCode
	// paramTDZ holds the parameters of functions whose parameter list is
	// not simple (defaults, patterns, rest): they are uninitialized until
	// their own initializer runs, so `(a = b, b) => a` reads b too early.
	paramTDZ map[*ast.Binding]bool
}

// checked reports whether reads and writes of b check the temporal dead
// zone: lexical bindings, this, and parameters of non-simple lists.
func (c *compiler) checked(b *ast.Binding) bool {
	if b.Lexical() || b.Kind == ast.BindThis {
		return true
	}
	if b.Kind != ast.BindParam || len(c.paramTDZ) == 0 {
		return false
	}
	root := b
	for root.Storage == ast.Free && root.Outer != nil {
		root = root.Outer
	}
	return c.paramTDZ[root]
}

func (c *compiler) globalSlot(name string) int {
	if i, ok := c.globalIndex[name]; ok {
		return i
	}
	i := len(c.globals)
	c.globals = append(c.globals, name)
	c.globalIndex[name] = i
	return i
}

// ---------------------------------------------------------------------------
// Bindings

// tdzError is V8's ReferenceError for a read before initialization.
func tdzError(f *frame, name string, pos ast.Pos) {
	f.run.pos = int(pos)
	if name == "this" {
		f.run.realm.ThrowError(value.ReferenceError, "Must call super constructor in derived class before accessing 'this' or returning from derived constructor")
	}
	f.run.realm.ThrowError(value.ReferenceError, "Cannot access '%s' before initialization", name)
}

// load compiles a read of b.
// sharedSlots is how many of the closures that load and store an
// unchecked local slot are made once and shared (they depend on the slot
// only), rather than allocated for each use.
const sharedSlots = 64

var localLoads, localStores = func() (loads []exprFn, stores []func(*frame, value.Value)) {
	for i := range sharedSlots {
		loads = append(loads, func(f *frame) value.Value { return f.locals[i] })
		stores = append(stores, func(f *frame, v value.Value) { f.locals[i] = v })
	}
	return loads, stores
}()

func (c *compiler) load(b *ast.Binding, pos ast.Pos) exprFn {
	i := b.Index
	name := b.Name
	check := c.checked(b)
	switch b.Storage {
	case ast.Local:
		if check {
			return func(f *frame) value.Value {
				v := f.locals[i]
				if v.IsHole() {
					tdzError(f, name, pos)
				}
				return v
			}
		}
		if i < sharedSlots {
			return localLoads[i]
		}
		return func(f *frame) value.Value { return f.locals[i] }
	case ast.Cell:
		return func(f *frame) value.Value {
			v := f.cells[i].v
			if check && v.IsHole() {
				tdzError(f, name, pos)
			}
			return v
		}
	case ast.Free:
		return func(f *frame) value.Value {
			v := f.fn.free[i].v
			if check && v.IsHole() {
				tdzError(f, name, pos)
			}
			return v
		}
	}
	slot := c.globalSlot(name)
	return func(f *frame) value.Value { return f.run.global(slot, name, pos) }
}

// loadTypeof is load for typeof: an undeclared global is undefined, not a
// ReferenceError.
func (c *compiler) loadTypeof(b *ast.Binding, pos ast.Pos) exprFn {
	if b.Storage != ast.Global {
		return c.load(b, pos)
	}
	slot := c.globalSlot(b.Name)
	name := b.Name
	return func(f *frame) value.Value {
		v, _ := f.run.lookupGlobal(slot, name)
		return v
	}
}

// store compiles a write to b. init marks the declaration itself (which
// ends the TDZ and may write a const); otherwise TDZ and const are
// checked.
func (c *compiler) store(b *ast.Binding, pos ast.Pos, init bool) func(f *frame, v value.Value) {
	i := b.Index
	name := b.Name
	check := !init && c.checked(b)
	readOnly := !init && b.ReadOnly()
	if readOnly {
		cur := c.load(b, pos)
		return func(f *frame, v value.Value) {
			cur(f) // a TDZ read fails first, as in V8
			f.run.pos = int(pos)
			f.run.realm.ThrowType("Assignment to constant variable.")
		}
	}
	switch b.Storage {
	case ast.Local:
		if check {
			return func(f *frame, v value.Value) {
				if f.locals[i].IsHole() {
					tdzError(f, name, pos)
				}
				f.locals[i] = v
			}
		}
		if i < sharedSlots {
			return localStores[i]
		}
		return func(f *frame, v value.Value) { f.locals[i] = v }
	case ast.Cell:
		return func(f *frame, v value.Value) {
			cl := f.cells[i]
			if check && cl.v.IsHole() {
				tdzError(f, name, pos)
			}
			cl.v = v
		}
	case ast.Free:
		return func(f *frame, v value.Value) {
			cl := f.fn.free[i]
			if check && cl.v.IsHole() {
				tdzError(f, name, pos)
			}
			cl.v = v
		}
	}
	slot := c.globalSlot(name)
	return func(f *frame, v value.Value) { f.run.setGlobal(slot, name, v, pos) }
}

// global reads a global, resolving it on first use.
func (run *Run) global(slot int, name string, pos ast.Pos) value.Value {
	if v := run.globals[slot]; !v.IsHole() {
		return v
	}
	v, ok := run.lookupGlobal(slot, name)
	if !ok {
		run.pos = int(pos)
		run.realm.ThrowError(value.ReferenceError, "%s is not defined", name)
	}
	return v
}

func (run *Run) lookupGlobal(slot int, name string) (value.Value, bool) {
	if v := run.globals[slot]; !v.IsHole() {
		return v, true
	}
	v, ok := engine.ResolveGlobal(run.realm, run.host, name)
	if ok {
		run.globals[slot] = v
	}
	return v, ok
}

func (run *Run) setGlobal(slot int, name string, v value.Value, pos ast.Pos) {
	if _, ok := run.lookupGlobal(slot, name); !ok {
		run.pos = int(pos)
		run.realm.ThrowError(value.ReferenceError, "%s is not defined", name)
	}
	switch name {
	case "undefined", "NaN", "Infinity":
		run.pos = int(pos)
		run.realm.ThrowType("Cannot assign to read only property '%s' of object '#<Object>'", name)
	}
	run.globals[slot] = v
	run.realm.SetGlobal(name, v)
}

// enterScope compiles the entry of a block-like scope: fresh cells and
// TDZ marks for its lexical bindings, then its hoisted functions.
func (c *compiler) enterScope(s *ast.Scope) func(f *frame) {
	if s == nil || len(s.Bindings) == 0 && len(s.Funcs) == 0 {
		return nil
	}
	type slot struct {
		i    int
		cell bool
		init value.Value
	}
	slots := make([]slot, 0, len(s.Bindings))
	for _, b := range s.Bindings {
		init := value.Undefined
		if b.Lexical() {
			init = value.Hole
		}
		switch b.Storage {
		case ast.Local:
			slots = append(slots, slot{b.Index, false, init})
		case ast.Cell:
			slots = append(slots, slot{b.Index, true, init})
		}
	}
	funcs := c.hoistFuncs(s.Funcs)
	return func(f *frame) {
		for _, s := range slots {
			if s.cell {
				f.cells[s.i] = &cell{v: s.init}
			} else {
				f.locals[s.i] = s.init
			}
		}
		if funcs != nil {
			funcs(f)
		}
	}
}

// hoistFuncs compiles the instantiation of hoisted function declarations.
func (c *compiler) hoistFuncs(decls []*ast.FuncDecl) func(f *frame) {
	if len(decls) == 0 {
		return nil
	}
	type hoisted struct {
		make  exprFn
		store func(f *frame, v value.Value)
	}
	hs := make([]hoisted, len(decls))
	for i, d := range decls {
		hs[i] = hoisted{c.funcLit(d.Func, d.Func.Name.Name), c.store(d.Func.Name.Binding, d.Start, true)}
	}
	return func(f *frame) {
		for _, h := range hs {
			h.store(f, h.make(f))
		}
	}
}

// renewCells gives the scope's captured bindings fresh cells holding
// their current values: per-iteration bindings of for (let ...).
func renewCells(s *ast.Scope) func(f *frame) {
	if s == nil {
		return nil
	}
	var idx []int
	for _, b := range s.Bindings {
		if b.Storage == ast.Cell {
			idx = append(idx, b.Index)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	return func(f *frame) {
		for _, i := range idx {
			f.cells[i] = &cell{v: f.cells[i].v}
		}
	}
}
