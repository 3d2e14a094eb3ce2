package vm

// This file compiles the resolved tree of ast/ to bytecode.
//
// The compiler follows the resolver's frame layout exactly as engine
// "ast" does (interp/compile.go): a Local binding is a frame slot, a
// Cell binding is a slot of the frame's cell table (a fresh cell on every
// entry of its scope), a Free binding is one of the closure's captured
// cells, and a Global is a slot of the run's global table. Temporaries
// the compiler needs (a switch's discriminant, the old value of x.y++)
// are extra slots after the resolver's.
//
// Every expression leaves exactly one value on the operand stack and
// every statement leaves it as it found it, except that inside a finally
// block the pending completion record (three values) sits below.
//
// Compilation is deterministic: functions are numbered in tree order,
// constants and globals in order of first use, and no map is iterated.

import (
	"errors"
	"fmt"
	"math"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/value"
)

// NotCompiledError reports a construct the compiler does not handle yet.
type NotCompiledError struct {
	What string // the construct, e.g. "class"
	Pos  int    // its source offset
	Line int
	Col  int
}

func (e *NotCompiledError) Error() string {
	return fmt.Sprintf("vm: %s is not compiled yet (line %d, col %d)", e.What, e.Line, e.Col)
}

// bailout aborts compilation with an error.
type bailout struct{ err error }

// Compile compiles a parsed, resolved program. A construct the compiler
// does not handle yet gives a *NotCompiledError; anything else that goes
// wrong is reported as an internal error, never a panic.
func Compile(p *ast.Program) (prog *Program, err error) {
	defer func() {
		if rec := recover(); rec != nil {
			if b, ok := rec.(bailout); ok {
				prog, err = nil, b.err
				return
			}
			if k, ok := rec.(bigIntKey); ok {
				loc := p.Source.Location(k.pos)
				prog, err = nil, &NotCompiledError{What: "a BigInt property key", Pos: int(k.pos), Line: loc.Line, Col: loc.Column}
				return
			}
			prog, err = nil, fmt.Errorf("vm: internal error compiling the program: %v", rec)
		}
	}()
	// The maps are made on first write: a small program needs few.
	// The compiler, the program and the program body's state are one
	// allocation.
	cp := &struct {
		compiler
		prog Program
	}{}
	c := &cp.compiler
	cp.prog = Program{Version: Version, src: p.Source}
	c.prog, c.src = &cp.prog, p.Source
	c.function(p.Func, "")
	for _, fc := range c.prog.Funcs {
		if err := fc.decode(); err != nil {
			return nil, err
		}
	}
	c.prog.vals = make([]value.Value, len(c.prog.Consts))
	for i, k := range c.prog.Consts {
		if k.Kind == ConstNumber {
			c.prog.vals[i] = value.Number(k.Num)
		} else {
			c.prog.vals[i] = value.StrOf(k.Str)
		}
	}
	return c.prog, nil
}

// IsNotCompiled reports whether err says a construct is not compiled yet.
func IsNotCompiled(err error) bool {
	var nc *NotCompiledError
	return errors.As(err, &nc)
}

// smallConsts is how many constants a program has before the compiler
// indexes them in a map.
const smallConsts = 8

type constKey struct {
	kind ConstKind
	bits uint64 // of a number: -0 and 0 are two constants
	str  string
}

type compiler struct {
	prog        *Program
	src         *ast.Source
	constIndex  map[constKey]int
	globalIndex map[string]int
	fn          *fcomp
	// chain collects the short-circuit jumps of the optional chain
	// being compiled, to its end.
	chain *[]int
	// paramTDZ holds the parameters of non-simple lists, which are
	// checked like lexical bindings (only looked up, never iterated).
	paramTDZ map[*ast.Binding]bool
	// voidAssign tells the next assign or update that its value is not
	// used; void tells refSet the same.
	voidAssign, void bool
	// classes are the private names of the classes being compiled,
	// innermost last, each with its index in ClassInfo.Private.
	classes []map[string]int
	// derivedThis holds the this bindings of derived constructors,
	// uninitialized until super() (only looked up).
	derivedThis map[*ast.Binding]bool
	// mainFn is the program body's state, kept here to save an
	// allocation.
	mainFn fcomp
}

// fcomp is the state of one function being compiled.
type fcomp struct {
	fc      *Funcode
	code    []byte
	pos     int // the source offset of what is being emitted
	lastPos int // the offset of the last Pcs entry
	// nlocals is the resolver's slot count; temps are allocated above.
	nlocals, temps int
	targets        []*target
	// inited are the Local lexical bindings whose declaration has been
	// compiled (checked). It is only looked up, never iterated.
	inited map[*ast.Binding]bool
	// noInit counts the switch scopes being compiled: declarations in
	// them do not end the TDZ for the code after them.
	noInit int
	// depth is the operand stack depth at this point (MaxStack).
	depth int
	// hdepth is the number of try regions entered at this point (the
	// frame's handler stack height); finallies the completion records
	// of enclosing finally blocks on the operand stack.
	hdepth, finallies int
}

// initBinding notes that b's declaration has been compiled.
func (f *fcomp) initBinding(b *ast.Binding) {
	if f.inited == nil {
		f.inited = map[*ast.Binding]bool{}
	}
	f.inited[b] = true
}

// target is where break and continue go: a loop, a switch or a labeled
// statement.
type target struct {
	labels            []string
	loop              bool // continue is allowed
	breakable         bool // an unlabeled break stops here
	breaks, continues []int
	hdepth, finallies int
	// chdepth is the handler depth where continue goes, inside the try
	// region of a for-of (break leaves it, closing the iterator).
	chdepth int
}

func (c *compiler) fail(what string, pos ast.Pos) {
	loc := c.src.Location(pos)
	panic(bailout{&NotCompiledError{What: what, Pos: int(pos), Line: loc.Line, Col: loc.Column}})
}

// ---------------------------------------------------------------------------
// Emitting

func (c *compiler) at(pos ast.Pos) { c.fn.pos = int(pos) }

func (c *compiler) mark() {
	f := c.fn
	if f.pos != f.lastPos {
		if f.fc.Pcs == nil {
			f.fc.Pcs = make([]uint32, 0, 8)
		}
		f.fc.Pcs = append(f.fc.Pcs, uint32(len(f.code)), uint32(f.pos))
		f.lastPos = f.pos
	}
}

func (c *compiler) emit(op Opcode) {
	c.mark()
	c.effect(op, 0)
	c.fn.code = append(c.fn.code, byte(op))
}

func (c *compiler) emit1(op Opcode, a int) {
	c.mark()
	c.effect(op, a)
	c.fn.code = append(c.fn.code, byte(op))
	c.fn.code = appendArg(c.fn.code, a)
}

func (c *compiler) emit2(op Opcode, a, b int) {
	c.mark()
	c.effect(op, a)
	c.fn.code = append(c.fn.code, byte(op))
	c.fn.code = appendArg(c.fn.code, a)
	c.fn.code = appendArg(c.fn.code, b)
}

func appendArg(b []byte, a int) []byte {
	return append(b, byte(a), byte(a>>8), byte(a>>16), byte(a>>24))
}

// effect tracks the operand stack depth through op, for MaxStack. The
// code is followed in order; where a label is reached with another
// depth than the code before it (a catch, a short-circuit), the
// compiler sets the depth there itself.
func (c *compiler) effect(op Opcode, a int) {
	f := c.fn
	f.depth += stackEffect(op, a)
	if f.depth < 0 {
		panic("operand stack underflow at " + op.String())
	}
	if f.depth > f.fc.MaxStack {
		f.fc.MaxStack = f.depth
	}
}

// stackEffect is how many values op leaves on the operand stack minus
// how many it takes (on the path that falls through).
func stackEffect(op Opcode, a int) int {
	switch op {
	case SUPERMETHOD, SUPERDELETE, INITFIELDS, TOKEY, SETHOME, CLASSINIT, SUPERCALLARRAY, PRIVGET, PRIVIN,
		GENSTART, YIELD, AWAIT, YIELDSTARINIT, YIELDSTARDONE, ASYNCITER, ASYNCITERVALUE:
		return 0
	case YIELDSTAR, ASYNCITERSTEP, ASYNCITERCLOSE:
		return 1
	case YIELDSTARSTEP, ASYNCITERCLOSED:
		return -1
	case CLASS:
		return 2 // less the heritage, which the compiler takes off
	case CLASSMEMBER:
		return -1 // and the key, when computed
	case SUPERCALL:
		return 1 - a
	case SUPERGET, SUPERBIND, PRIVSET:
		return -1
	case SUPERSET, DEFACCESSOR:
		return -2
	case NEWTARGET, IMPORT:
		return 1
	case UNSUPPORTED, IMPORTCALL:
		return 0
	case NOP, SWAP, NOT, NEG, POS, BITNOT, TYPEOF, TONUMBER, METHODINDEX, TOPROPKEY, POPHANDLER,
		CONSTASSIGN, GETPROP, DELPROP, JMP, LOOP, TRY, TRYFINALLY, JUMPOUT, INCLOCAL, DECLOCAL, GETITER, ITERCLOSE,
		ARRAYITER, OBJCHECK, FORIN, OPTJMP, OPTCALLJMP:
		return 0
	case DUP, UNDEFINED, NULL, TRUE, FALSE, HOLE, NEWOBJECT, THISARG, CALLEE, CONSTANT, LOCAL, CELL,
		FREE, GLOBAL, TYPEOFGLOBAL, METHOD, MAKEFUNC, LOCALCHECK, CELLCHECK, FREECHECK, ARGUMENTS, REST, ITERNEXT, TEMPLATEOBJ,
		ITERVALUE, ITERREST, FORINNEXT:
		return 1
	case DUP2:
		return 2
	case NORMAL:
		return 3
	case ENDFINALLY:
		return -3
	case DEFINDEX, DEFMETHOD, SETINDEX, CALLARRAY, CMPJMP:
		return -2
	case MAKEARRAY:
		return 1 - a
	case TEMPLATE:
		return -2 * a
	case CALL:
		return -(a + 1)
	case NEW:
		return -a
	}
	return -1 // binary operators, pops, stores, conditional jumps, THROW, RETURN
}

// jump emits a jump whose address is patched later; it returns where.
func (c *compiler) jump(op Opcode) int {
	c.emit1(op, 0)
	return len(c.fn.code) - 4
}

// jumpOut emits JUMPOUT, patched later like jump.
func (c *compiler) jumpOut(depth int) int {
	c.emit2(JUMPOUT, 0, depth)
	return len(c.fn.code) - 8
}

// here is the address of the next instruction.
func (c *compiler) here() int { return len(c.fn.code) }

// patch points the jump operand at site to addr.
func (c *compiler) patch(site, addr int) {
	b := c.fn.code
	b[site], b[site+1], b[site+2], b[site+3] = byte(addr), byte(addr>>8), byte(addr>>16), byte(addr>>24)
}

func (c *compiler) patchHere(sites ...int) {
	for _, s := range sites {
		c.patch(s, c.here())
	}
}

func (c *compiler) constant(k Constant) int {
	key := constKey{kind: k.Kind, str: k.Str}
	if k.Kind == ConstNumber {
		key.bits = math.Float64bits(k.Num)
	}
	if c.constIndex == nil {
		// A few constants are found by a scan; the map is made once
		// there are more.
		for i, have := range c.prog.Consts {
			if have.Kind == k.Kind && have.Str == k.Str && (k.Kind != ConstNumber || math.Float64bits(have.Num) == key.bits) {
				return i
			}
		}
		if len(c.prog.Consts) >= smallConsts {
			c.constIndex = make(map[constKey]int, 2*smallConsts)
			for i, have := range c.prog.Consts {
				hk := constKey{kind: have.Kind, str: have.Str}
				if have.Kind == ConstNumber {
					hk.bits = math.Float64bits(have.Num)
				}
				c.constIndex[hk] = i
			}
		}
	} else if i, ok := c.constIndex[key]; ok {
		return i
	}
	i := len(c.prog.Consts)
	if c.prog.Consts == nil {
		c.prog.Consts = make([]Constant, 0, 2)
	}
	c.prog.Consts = append(c.prog.Consts, k)
	if c.constIndex != nil {
		c.constIndex[key] = i
	}
	return i
}

func (c *compiler) str(s string) int { return c.constant(Constant{Kind: ConstString, Str: s}) }

func (c *compiler) emitString(s string) { c.emit1(CONSTANT, c.str(s)) }

func (c *compiler) emitNumber(n float64) {
	c.emit1(CONSTANT, c.constant(Constant{Kind: ConstNumber, Num: n}))
}

func (c *compiler) globalSlot(name string) int {
	if i, ok := c.globalIndex[name]; ok {
		return i
	}
	i := len(c.prog.Globals)
	c.prog.Globals = append(c.prog.Globals, name)
	if c.globalIndex == nil {
		c.globalIndex = map[string]int{}
	}
	c.globalIndex[name] = i
	return i
}

// temp allocates a temporary slot; free releases the most recent one.
func (c *compiler) temp() int {
	f := c.fn
	i := f.nlocals + f.temps
	f.temps++
	if n := f.nlocals + f.temps; n > f.fc.NumLocals {
		f.fc.NumLocals = n
	}
	return i
}

func (c *compiler) freeTemp() { c.fn.temps-- }

// ---------------------------------------------------------------------------
// Functions

// function compiles fn and returns its index in Program.Funcs.
func (c *compiler) function(fn *ast.Function, name string) int {
	sc := fn.Scope
	fc := &Funcode{Name: name, Pos: int(fn.Start), Kind: uint8(fn.Kind), NumLocals: len(sc.Locals)}
	if fn.Async && fn.Kind != ast.FuncProgram {
		fc.Flags |= FlagAsync
	}
	if fn.Generator {
		fc.Flags |= FlagGenerator
	}
	if fn.Kind == ast.FuncConstructor && fn.Derived {
		fc.Flags |= FlagDerived
		if sc.This != nil {
			if c.derivedThis == nil {
				c.derivedThis = map[*ast.Binding]bool{}
			}
			c.derivedThis[sc.This] = true
		}
	}
	if sc.This != nil {
		fc.This, fc.ThisCell = sc.This.Index+1, sc.This.Storage == ast.Cell
	}
	if fn.Name != nil && name == "" {
		fc.Name = fn.Name.Name
	}
	index := len(c.prog.Funcs)
	c.prog.Funcs = append(c.prog.Funcs, fc)
	for _, b := range sc.Free {
		o := b.Outer
		fc.Free = append(fc.Free, FreeVar{FromFree: o.Storage == ast.Free, Index: o.Index})
	}
	for _, b := range sc.Locals {
		if b.Storage == ast.Cell {
			fc.HasCells = true
		}
	}
	saved := c.fn
	f := &c.mainFn
	if saved != nil {
		f = &fcomp{}
	}
	*f = fcomp{fc: fc, code: make([]byte, 0, 64), nlocals: len(sc.Locals), pos: int(fn.Start), lastPos: -1}
	c.fn = f
	defer func() { c.fn = saved }()

	c.prologue(fn, c.params(fn))
	if fn.Generator {
		c.emit(GENSTART)
	}
	switch {
	case fn.Body == nil:
		c.expr(fn.ExprBody)
		c.emit(RETURN)
	case fn.Kind == ast.FuncProgram:
		c.programBody(fn.Body.Body)
	default:
		c.stmts(fn.Body.Body)
		c.at(fn.Body.End)
		c.emit(UNDEFINED)
		c.emit(RETURN)
	}
	if fn.Generator {
		// return(v) resumes here, with v pushed where the frame stopped.
		c.fn.depth = 1
		fc.ReturnStub = len(c.fn.code)
		if fn.Async {
			c.emit(AWAIT)
		}
		c.emit(RETURN)
	}
	fc.Code = c.fn.code
	return index
}

// params checks the parameter list: names, names with defaults, and a
// rest name, each parameter bound to the slot of its position, which is
// where the call leaves the arguments. It reports whether the list is
// simple (plain names only).
func (c *compiler) params(fn *ast.Function) bool {
	simple := fn.Rest == nil
	for _, p := range fn.Params {
		if _, ok := p.(*ast.Ident); !ok {
			simple = false
		}
	}
	if simple {
		for i, p := range fn.Params {
			if b := p.(*ast.Ident).Binding; b.Storage != ast.Local && b.Storage != ast.Cell || b.Index != i {
				// A name given twice (function f(a, a)) has one slot for
				// two positions: bind each in turn, the last one winning,
				// as a list with defaults is bound.
				simple = false
				break
			}
		}
	}
	fc := c.fn.fc
	fc.NumParams = len(fn.Params)
	fc.Length = expectedArgs(fn)
	if !simple {
		// Each parameter is uninitialized until its turn, so that
		// (a = b, b) => a reads b too early (checked).
		for _, b := range paramBindings(fn) {
			if c.paramTDZ == nil {
				c.paramTDZ = map[*ast.Binding]bool{}
			}
			c.paramTDZ[b] = true
		}
	}
	return simple
}

// paramBindings are the bindings of a parameter list: the resolver's.
func paramBindings(fn *ast.Function) []*ast.Binding { return fn.Scope.Params }

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

// prologue binds what a function has on entry, in the order engine "ast"
// does: cells for captured parameters and vars, this, the arguments
// object, the callee, the parameters (in order, with their defaults),
// the body's lexical declarations, then hoisted function declarations.
func (c *compiler) prologue(fn *ast.Function, simple bool) {
	sc := fn.Scope
	var temps []int
	if simple {
		for _, b := range sc.Params {
			if b.Storage == ast.Cell {
				c.emit1(LOCAL, b.Index)
				c.emit1(INITCELL, b.Index)
			}
		}
	} else {
		// The arguments move to temporaries (from the last: a temporary
		// may be the slot of a later argument); every parameter starts
		// uninitialized and is bound in its turn below.
		for range fn.Params {
			temps = append(temps, c.temp())
		}
		for i := len(fn.Params) - 1; i >= 0; i-- {
			c.emit1(LOCAL, i)
			c.emit1(SETLOCAL, temps[i])
		}
		for _, b := range paramBindings(fn) {
			c.emit(HOLE)
			if b.Storage == ast.Cell {
				c.emit1(INITCELL, b.Index)
			} else {
				c.emit1(SETLOCAL, b.Index)
			}
		}
	}
	for _, b := range sc.Vars.Bindings {
		if b.Storage == ast.Cell {
			c.emit(UNDEFINED)
			c.emit1(INITCELL, b.Index)
		}
	}
	if sc.This != nil {
		c.newCell(sc.This)
		if fn.Kind == ast.FuncConstructor && fn.Derived {
			c.emit(HOLE) // bound by super()
		} else {
			c.emit(THISARG)
		}
		c.store(sc.This, true)
	}
	if sc.Arguments != nil {
		c.fn.fc.NeedArgs = true
		c.newCell(sc.Arguments)
		c.emit(ARGUMENTS)
		c.store(sc.Arguments, true)
	}
	if sc.Callee != nil {
		c.newCell(sc.Callee)
		c.emit(CALLEE)
		c.store(sc.Callee, true)
	}
	if !simple {
		c.bindParams(fn, temps)
	}
	if fn.Body != nil {
		c.enterScope(fn.Body.Scope)
	}
	c.hoist(sc.Vars.Funcs)
}

// bindParams binds a non-simple parameter list in order: each argument,
// or its default when it is undefined, then the rest.
func (c *compiler) bindParams(fn *ast.Function, temps []int) {
	for i, p := range fn.Params {
		c.emit1(LOCAL, temps[i])
		c.pattern(p, bindDecl)
	}
	if fn.Rest != nil {
		c.fn.fc.NeedArgs = true
		c.at(fn.Rest.Pos())
		c.emit1(REST, len(fn.Params))
		c.pattern(fn.Rest, bindDecl)
	}
	for range temps {
		c.freeTemp()
	}
}

// newCell gives an implicit binding its cell when a closure captures it.
func (c *compiler) newCell(b *ast.Binding) {
	if b.Storage == ast.Cell {
		c.emit(UNDEFINED)
		c.emit1(INITCELL, b.Index)
	}
}

// programBody compiles the program: its value is an explicit return, or
// the last statement's when that is an expression statement.
func (c *compiler) programBody(list []ast.Stmt) {
	if n := len(list); n > 0 {
		if es, ok := list[n-1].(*ast.ExprStmt); ok {
			c.stmts(list[:n-1])
			c.expr(es.X)
			c.emit(RETURN)
			return
		}
	}
	c.stmts(list)
	c.emit(UNDEFINED)
	c.emit(RETURN)
}

// enterScope creates a scope's bindings (uninitialized when lexical,
// fresh cells when captured) and then its hoisted functions.
func (c *compiler) enterScope(s *ast.Scope) {
	if s == nil {
		return
	}
	for _, b := range s.Bindings {
		if b.Lexical() {
			c.emit(HOLE)
		} else {
			c.emit(UNDEFINED)
		}
		switch b.Storage {
		case ast.Local:
			c.emit1(SETLOCAL, b.Index)
		case ast.Cell:
			c.emit1(INITCELL, b.Index)
		default:
			c.emit(POP)
		}
	}
	c.hoist(s.Funcs)
}

func (c *compiler) hoist(decls []*ast.FuncDecl) {
	for _, d := range decls {
		c.at(d.Start)
		c.emit1(MAKEFUNC, c.function(d.Func, d.Func.Name.Name))
		c.store(d.Func.Name.Binding, true)
	}
}

// renewCells gives a scope's captured bindings fresh cells holding their
// current values: the per-iteration bindings of for (let ...).
func (c *compiler) renewCells(s *ast.Scope) {
	if s == nil {
		return
	}
	for _, b := range s.Bindings {
		if b.Storage == ast.Cell {
			c.emit1(CELL, b.Index)
			c.emit1(INITCELL, b.Index)
		}
	}
}

// ---------------------------------------------------------------------------
// Bindings

// checked reports whether reads and writes of b check the temporal dead
// zone. (this is always bound: derived constructors are not compiled.)
//
// A Local lexical binding needs no check once its declaration has been
// compiled: code after it in its scope is only reached through it, and
// no other function sees a Local. A switch's scope is the exception
// (a case label jumps past the declarations before it), and so is a
// scope that runs again (a loop body) only for code before the
// declaration, which is compiled before it.
func (c *compiler) checked(b *ast.Binding) bool {
	if b.Kind == ast.BindThis {
		root := b
		for root.Storage == ast.Free && root.Outer != nil {
			root = root.Outer
		}
		return c.derivedThis[root]
	}
	if b.Kind == ast.BindParam {
		root := b
		for root.Storage == ast.Free && root.Outer != nil {
			root = root.Outer
		}
		return c.paramTDZ[root]
	}
	return b.Lexical() && !(b.Storage == ast.Local && c.fn.inited[b])
}

// load pushes the value of b.
func (c *compiler) load(b *ast.Binding) {
	check := c.checked(b)
	switch b.Storage {
	case ast.Local:
		if check {
			c.emit2(LOCALCHECK, b.Index, c.str(b.Name))
		} else {
			c.emit1(LOCAL, b.Index)
		}
	case ast.Cell:
		if check {
			c.emit2(CELLCHECK, b.Index, c.str(b.Name))
		} else {
			c.emit1(CELL, b.Index)
		}
	case ast.Free:
		if check {
			c.emit2(FREECHECK, b.Index, c.str(b.Name))
		} else {
			c.emit1(FREE, b.Index)
		}
	default:
		c.emit1(GLOBAL, c.globalSlot(b.Name))
	}
}

// store pops a value into b. init marks the declaration itself, which
// ends the TDZ and may write a const; otherwise TDZ and const are
// checked.
func (c *compiler) store(b *ast.Binding, init bool) {
	if !init && b.ReadOnly() {
		c.load(b) // a TDZ read fails first, as in V8
		c.emit(POP)
		c.emit(POP)
		c.emit1(CONSTASSIGN, c.str(b.Name))
		return
	}
	check := !init && c.checked(b)
	switch b.Storage {
	case ast.Local:
		if check {
			c.emit2(SETLOCALCHECK, b.Index, c.str(b.Name))
		} else {
			c.emit1(SETLOCAL, b.Index)
		}
	case ast.Cell:
		if check {
			c.emit2(SETCELLCHECK, b.Index, c.str(b.Name))
		} else {
			c.emit1(SETCELL, b.Index)
		}
	case ast.Free:
		if check {
			c.emit2(SETFREECHECK, b.Index, c.str(b.Name))
		} else {
			c.emit1(SETFREE, b.Index)
		}
	default:
		c.emit1(SETGLOBAL, c.globalSlot(b.Name))
	}
}
