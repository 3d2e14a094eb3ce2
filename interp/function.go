package interp

import (
	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/value"
)

// closure is the Internal of a program function object.
type closure struct {
	code *funcCode
	free []*cell
	// home is the object whose prototype super looks in (methods).
	home *value.Object
	// priv is the private-name scope of the class the function belongs to.
	priv *privScope
	// outer is, for arrows, the frame of the nearest non-arrow function
	// (for super() and the class being constructed).
	outer *frame
	// class is set on class constructors.
	class *classRuntime
}

// IsConstructor implements value.Constructible.
func (cl *closure) IsConstructor() bool {
	if cl.class != nil {
		return true
	}
	return cl.code.kind == ast.FuncNormal && !cl.code.async && !cl.code.gen
}

// function compiles a function body and its entry.
func (c *compiler) function(fn *ast.Function, class *classCode) *funcCode {
	code := &funcCode{fn: fn, kind: fn.Kind, async: fn.Async, gen: fn.Generator, nlocals: len(fn.Scope.Locals), class: class}
	if fn.Name != nil {
		code.name = fn.Name.Name
	}
	code.length = expectedArgs(fn)
	for _, b := range fn.Scope.Locals {
		if b.Storage == ast.Cell {
			code.hasCells = true
		}
	}
	saved, savedDepth := c.fn, c.depth
	c.fn, c.depth = code, 0
	defer func() { c.fn, c.depth = saved, savedDepth }()

	code.thisB = fn.Scope.This
	if !simpleParams(fn) {
		if c.paramTDZ == nil {
			c.paramTDZ = map[*ast.Binding]bool{}
		}
		for _, b := range fn.Scope.Params {
			c.paramTDZ[b] = true
		}
	}
	// The body's own lexical declarations are created on entry with the
	// parameters, before hoisted functions, which may capture them.
	var bodyEnter func(f *frame)
	if fn.Body != nil {
		bodyEnter = c.enterScope(fn.Body.Scope)
	}
	code.setup = c.setup(fn, bodyEnter)
	if fn.Body != nil {
		if fn.Kind == ast.FuncProgram {
			code.body = c.programBody(fn.Body)
		} else {
			code.body = c.stmts(fn.Body.Body)
		}
	} else {
		code.exprBody = c.expr(fn.ExprBody)
	}
	return code
}

// programBody compiles the program: its value is an explicit return, or
// the last statement's when that is an expression statement.
func (c *compiler) programBody(b *ast.Block) stmtFn {
	list := b.Body
	if n := len(list); n > 0 {
		if es, ok := list[n-1].(*ast.ExprStmt); ok {
			head := c.stmts(list[:n-1])
			last := c.expr(es.X)
			return func(f *frame) ctl {
				if r := head(f); r != ctlNormal {
					if r == ctlReturn {
						return r
					}
					return ctlNormal
				}
				f.ret = last(f)
				return ctlReturn
			}
		}
	}
	return c.stmts(b.Body)
}

// expectedArgs is a function's length: the parameters before the first
// default or rest.
func expectedArgs(fn *ast.Function) int {
	for i, p := range fn.Params {
		if _, ok := p.(*ast.AssignPattern); ok {
			return i
		}
	}
	return len(fn.Params)
}

// setup compiles what happens on entry to a function, before its body.
func (c *compiler) setup(fn *ast.Function, bodyEnter func(f *frame)) func(f *frame) {
	sc := fn.Scope
	var cellSlots []int
	for _, b := range sc.Params {
		if b.Storage == ast.Cell {
			cellSlots = append(cellSlots, b.Index)
		}
	}
	for _, b := range sc.Vars.Bindings {
		if b.Storage == ast.Cell {
			cellSlots = append(cellSlots, b.Index)
		}
	}
	for _, b := range []*ast.Binding{sc.This, sc.Arguments, sc.Callee} {
		if b != nil && b.Storage == ast.Cell {
			cellSlots = append(cellSlots, b.Index)
		}
	}
	hasCells := false
	for _, b := range sc.Locals {
		if b.Storage == ast.Cell {
			hasCells = true
		}
	}
	nlocals := len(sc.Locals)

	var thisSt, argsSt, calleeSt func(f *frame, v value.Value)
	derived := fn.Kind == ast.FuncConstructor && fn.Derived
	if sc.This != nil {
		thisSt = c.store(sc.This, fn.Start, true)
	}
	if sc.Arguments != nil {
		argsSt = c.store(sc.Arguments, fn.Start, true)
	}
	if sc.Callee != nil {
		calleeSt = c.store(sc.Callee, fn.Start, true)
	}

	// Parameters: plain names bind straight from the argument list.
	simple := simpleParams(fn)
	// Otherwise each parameter is uninitialized until its turn (c.checked).
	var tdzLocals, tdzCells []int
	if !simple {
		for _, b := range sc.Params {
			if b.Storage == ast.Cell {
				tdzCells = append(tdzCells, b.Index)
			} else {
				tdzLocals = append(tdzLocals, b.Index)
			}
		}
	}
	var params func(f *frame)
	if simple {
		stores := make([]func(f *frame, v value.Value), len(fn.Params))
		for i, p := range fn.Params {
			stores[i] = c.store(p.(*ast.Ident).Binding, p.Pos(), true)
		}
		params = func(f *frame) {
			for i, st := range stores {
				if i < len(f.args) {
					st(f, f.args[i])
				} else {
					st(f, value.Undefined)
				}
			}
		}
	} else {
		binds := make([]func(f *frame, v value.Value), len(fn.Params))
		for i, p := range fn.Params {
			binds[i] = c.bindTarget(p, true)
		}
		var rest func(f *frame, v value.Value)
		if fn.Rest != nil {
			rest = c.bindTarget(fn.Rest, true)
		}
		n := len(fn.Params)
		params = func(f *frame) {
			for _, i := range tdzLocals {
				f.locals[i] = value.Hole
			}
			for _, i := range tdzCells {
				f.cells[i].v = value.Hole
			}
			for i, b := range binds {
				if i < len(f.args) {
					b(f, f.args[i])
				} else {
					b(f, value.Undefined)
				}
			}
			if rest != nil {
				var tail []value.Value
				if len(f.args) > n {
					tail = append(tail, f.args[n:]...)
				}
				rest(f, value.Obj(f.run.realm.NewArrayValue(tail)))
			}
		}
	}
	funcs := c.hoistFuncs(sc.Vars.Funcs)
	if len(fn.Params) == 0 && fn.Rest == nil {
		params = nil
	}
	return func(f *frame) {
		if nlocals <= len(f.inline) {
			f.locals = f.inline[:nlocals]
		} else {
			f.locals = make([]value.Value, nlocals)
		}
		if hasCells {
			f.cells = make([]*cell, nlocals)
			for _, i := range cellSlots {
				f.cells[i] = &cell{}
			}
		}
		if thisSt != nil {
			if derived {
				thisSt(f, value.Hole)
			} else {
				thisSt(f, f.thisArg)
			}
		}
		if argsSt != nil {
			argsSt(f, value.Obj(newArguments(f.run.realm, f.args)))
		}
		if calleeSt != nil {
			calleeSt(f, value.Obj(f.fobj))
		}
		if params != nil {
			params(f)
		}
		if bodyEnter != nil {
			bodyEnter(f)
		}
		if funcs != nil {
			funcs(f)
		}
	}
}

// simpleParams reports whether a function's parameters are plain names:
// no default, pattern or rest.
func simpleParams(fn *ast.Function) bool {
	if fn.Rest != nil {
		return false
	}
	for _, p := range fn.Params {
		if _, ok := p.(*ast.Ident); !ok {
			return false
		}
	}
	return true
}

// newArguments makes the arguments object: unmapped, array-like,
// iterable, and not an array (its length is an own data property).
func newArguments(r *value.Realm, args []value.Value) *value.Object {
	return r.NewArguments(args, r.GetObj(r.Intrinsic(value.ArrayPrototype), "values", value.Undefined))
}

// funcLit compiles the creation of a function object.
func (c *compiler) funcLit(fn *ast.Function, name string) exprFn {
	code := c.function(fn, nil)
	if code.name == "" {
		code.name = name
	}
	return func(f *frame) value.Value {
		return value.Obj(f.run.newClosure(code, f, nil))
	}
}

// methodMaker compiles a method (or accessor) whose home object and name
// are known only when the object literal or class is evaluated.
func (c *compiler) methodMaker(fn *ast.Function) func(f *frame, home *value.Object, name string) value.Value {
	code := c.function(fn, nil)
	return func(f *frame, home *value.Object, name string) value.Value {
		o := f.run.newClosureNamed(code, f, home, name)
		return value.Obj(o)
	}
}

// newClosure makes a function object for code created in frame f.
func (run *Run) newClosure(code *funcCode, f *frame, home *value.Object) *value.Object {
	return run.newClosureNamed(code, f, home, code.name)
}

func (run *Run) newClosureNamed(code *funcCode, f *frame, home *value.Object, name string) *value.Object {
	r := run.realm
	cl := &closure{code: code, home: home, free: captureFree(code, f)}
	if f != nil && f.fn != nil {
		cl.priv = f.fn.priv
		if code.kind == ast.FuncArrow {
			cl.home = f.fn.home
			cl.outer = f.outerFrame()
			cl.outer.captured = true
		}
	}
	o := value.NewFunctionObject(r.Intrinsic(functionProto(code)), cl)
	r.Charge(160)
	o.Define("length", value.Number(float64(code.length)), value.Configurable)
	o.Define("name", value.StrOf(name), value.Configurable)
	if code.gen {
		pid := value.GeneratorPrototype
		if code.async {
			pid = value.AsyncGeneratorPrototype
		}
		p := value.NewObject(r.Intrinsic(pid))
		o.Define("prototype", value.Obj(p), value.Writable)
	} else if cl.IsConstructor() && code.kind == ast.FuncNormal {
		p := value.NewObject(r.Intrinsic(value.ObjectPrototype))
		p.Define("constructor", value.Obj(o), value.Writable|value.Configurable)
		o.Define("prototype", value.Obj(p), value.Writable)
	}
	return o
}

// functionProto is the prototype of the functions code makes:
// Function.prototype, or the generator, async or async generator
// functions' own.
func functionProto(code *funcCode) value.Intrinsic {
	switch {
	case code.gen && code.async:
		return value.AsyncGeneratorFunctionPrototype
	case code.gen:
		return value.GeneratorFunctionPrototype
	case code.async:
		return value.AsyncFunctionPrototype
	}
	return value.FunctionPrototype
}

// captureFree collects the cells a function made in frame f captures:
// the frame's own cells, or cells it captured itself.
func captureFree(code *funcCode, f *frame) []*cell {
	free := code.fn.Scope.Free
	if len(free) == 0 {
		return nil
	}
	cells := make([]*cell, len(free))
	for i, b := range free {
		o := b.Outer
		if o.Storage == ast.Free {
			cells[i] = f.fn.free[o.Index]
		} else {
			cells[i] = f.cells[o.Index]
		}
	}
	return cells
}

// outerFrame is the frame of the nearest non-arrow function.
func (f *frame) outerFrame() *frame {
	if f.code != nil && f.code.kind == ast.FuncArrow && f.fn != nil && f.fn.outer != nil {
		return f.fn.outer
	}
	return f
}

// call runs a program function.
func (run *Run) call(cl *closure, fobj *value.Object, this value.Value, args []value.Value, newTarget *value.Object) value.Value {
	code := cl.code
	r := run.realm
	if cl.class != nil && newTarget == nil {
		r.ThrowType("Class constructor %s cannot be invoked without 'new'", r.FunctionName(fobj))
	}
	cost := code.frameCost()
	r.EnterFrame(cost)
	var f *frame
	if n := len(run.frames); n > 0 && !code.gen && !code.async {
		f = run.frames[n-1]
		run.frames = run.frames[:n-1]
		f.run, f.code, f.fn, f.fobj, f.args, f.newTarget, f.thisArg = run, code, cl, fobj, args, newTarget, this
	} else {
		f = &frame{run: run, code: code, fn: cl, fobj: fobj, args: args, newTarget: newTarget, thisArg: this}
	}
	switch {
	case code.gen && code.async:
		code.setup(f)
		r.LeaveFrame(cost)
		return value.Obj(run.newAsyncGenerator(f))
	case code.gen:
		code.setup(f)
		r.LeaveFrame(cost)
		return value.Obj(run.newGenerator(f))
	case code.async:
		p := run.startAsync(f)
		r.LeaveFrame(cost)
		return value.Obj(p)
	}
	code.setup(f)
	f.args = nil // it may point into the argument stack
	v := run.runBody(f)
	r.LeaveFrame(cost)
	if !f.captured {
		// Nothing kept a pointer to the frame: reuse it.
		*f = frame{}
		run.frames = append(run.frames, f)
	}
	return v
}

// runBody runs a function's body in a frame already set up.
func (run *Run) runBody(f *frame) value.Value {
	code := f.code
	if code.exprBody != nil {
		return code.exprBody(f)
	}
	if code.body(f) == ctlReturn {
		return f.ret
	}
	return value.Undefined
}

// construct is new F(...args) for a program function or class.
func (run *Run) construct(cl *closure, fobj *value.Object, args []value.Value, newTarget *value.Object) value.Value {
	r := run.realm
	if !cl.IsConstructor() {
		r.ThrowType("%s is not a constructor", r.FunctionName(fobj))
	}
	if cl.class != nil && cl.class.derived {
		return run.constructDerived(cl, fobj, args, newTarget)
	}
	proto := r.ProtoFromCtor(newTarget, value.ObjectPrototype)
	obj := value.NewObject(proto)
	r.Charge(96)
	if cl.class != nil {
		run.initFields(cl, obj)
		if cl.code == nil {
			return value.Obj(obj)
		}
	}
	res := run.call(cl, fobj, value.Obj(obj), args, newTarget)
	if res.IsObject() {
		return res
	}
	return value.Obj(obj)
}

// constructDerived runs the constructor of a class with extends: this is
// bound by super().
func (run *Run) constructDerived(cl *closure, fobj *value.Object, args []value.Value, newTarget *value.Object) value.Value {
	r := run.realm
	if cl.code == nil {
		// The implicit constructor(...args) { super(...args); }
		parent := fobj.Proto
		if !value.IsConstructor(value.Obj(parent)) {
			r.ThrowType("Super constructor %s of anonymous class is not a constructor", r.Describe(value.Obj(parent)))
		}
		res := r.Construct(value.Obj(parent), args, newTarget)
		run.initFields(cl, res.AsObject())
		return res
	}
	code := cl.code
	cost := code.frameCost()
	r.EnterFrame(cost)
	f := &frame{run: run, code: code, fn: cl, fobj: fobj, args: args, newTarget: newTarget}
	code.setup(f)
	res := run.runBody(f)
	r.LeaveFrame(cost)
	if res.IsObject() {
		return res
	}
	if !res.IsUndefined() {
		r.ThrowType("Derived constructors may only return object or undefined")
	}
	// Without a this binding the body neither used this nor called
	// super(): this was never initialized.
	this := value.Hole
	if f.code.thisB != nil {
		this = f.thisValue()
	}
	if this.IsHole() {
		r.ThrowError(value.ReferenceError, "Must call super constructor in derived class before accessing 'this' or returning from derived constructor")
	}
	return this
}

// thisValue reads the frame's own this binding.
func (f *frame) thisValue() value.Value {
	b := f.code.thisB
	if b == nil {
		return f.thisArg
	}
	if b.Storage == ast.Cell {
		return f.cells[b.Index].v
	}
	return f.locals[b.Index]
}

// superCall compiles super(...args) in a derived constructor (or an arrow
// inside one).
func (c *compiler) superCall(s *ast.Super, x *ast.Call) exprFn {
	args := c.args(x.Args, x.Start)
	st := c.store(s.This, s.Start, true)
	isBound := c.loadRaw(s.This)
	pos := x.Start
	return func(f *frame) value.Value {
		ctorFrame := f.outerFrame()
		a := args(f)
		r := f.run.realm
		f.run.pos = int(pos)
		parent := ctorFrame.fobj.Proto
		if parent == nil || !value.IsConstructor(value.Obj(parent)) {
			r.ThrowType("Super constructor %s of anonymous class is not a constructor", r.Describe(value.Obj(parent)))
		}
		res := r.Construct(value.Obj(parent), a, ctorFrame.newTarget)
		if !isBound(f).IsHole() {
			r.ThrowError(value.ReferenceError, "Super constructor may only be called once")
		}
		st(f, res)
		f.run.initFields(ctorFrame.fn, res.AsObject())
		return res
	}
}

// loadRaw reads a binding without the TDZ check.
func (c *compiler) loadRaw(b *ast.Binding) exprFn {
	i := b.Index
	switch b.Storage {
	case ast.Local:
		return func(f *frame) value.Value { return f.locals[i] }
	case ast.Cell:
		return func(f *frame) value.Value { return f.cells[i].v }
	case ast.Free:
		return func(f *frame) value.Value { return f.fn.free[i].v }
	}
	return func(*frame) value.Value { return value.Undefined }
}
