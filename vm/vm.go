// Package vm is codemode's bytecode engine "vm" (groundwork): it compiles
// the resolved tree of ast/ to the instruction set of opcode.go and runs
// it on frames that are plain data, on the VM's own stack.
//
// A call from program code to program code pushes a frame on the VM's
// frame stack and goes on in the same loop: no Go recursion. A built-in
// that calls back into the program (map, sort, a getter) re-enters the
// loop through value.Agent on the Go stack, as docs/architecture.md
// decides: such a built-in always finishes before the run could suspend.
// A JavaScript throw is a Go panic carrying *value.Exception (the
// library throws that way); the loop recovers it once per entry and
// looks for a handler in the frames it owns.
//
// A generator's or an async function's frame suspends the same way, as
// data: at a yield or an await it leaves the frame stack with its pc,
// its own segment of the value stack, its handlers and its cells, and is
// kept in its coroutine (coro.go) until next() or the awaited promise's
// job resumes it from where it stopped. Called from program code, such
// a function starts in the loop like any other; resumed, it runs in a
// loop entered for it (from next(), or from the job loop). An await
// parks the frame and returns to the job loop; the program body that
// awaits runs as an async function, whose promise Start returns for
// Settle to drive.
//
// Everything the front end accepts compiles but a BigInt literal as a
// property key, which engine "ast" does not compile either (Compile
// reports a *NotCompiledError, never a panic). Syntax codemode parses
// but does not run (with, debugger, BigInt literals, import.meta)
// compiles to UNSUPPORTED, which throws engine "ast"'s SyntaxError when
// it runs. The package is not wired into the
// root package yet.
package vm

import (
	"context"
	"fmt"
	"slices"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/value"
)

// Host, Options and Failure are the engines' common types
// (internal/engine).
type (
	Host    = engine.Host
	Options = engine.Options
	Failure = engine.Failure
	Warning = engine.Warning
)

// cell is a variable that a closure captured.
type cell struct{ v value.Value }

// closure is the Internal of a program function object: its code and
// captured cells, nothing else, so that it can be saved as data.
type closure struct {
	fc   *Funcode // nil for a class without an explicit constructor
	free []*cell
	// home is the object whose prototype super looks in (methods).
	home *value.Object
	// priv is the private-name scope of the class the function belongs to.
	priv *privScope
	// class is set on class constructors.
	class *classRuntime
	// An arrow's view of the nearest non-arrow function: its new.target
	// and function (the constructor super() calls the parent of).
	newTarget *value.Object
	outerFobj *value.Object
	outerCl   *closure
	// plain says a call pushes an ordinary frame: not a class
	// constructor, a generator or an async function.
	plain bool
}

// IsConstructor implements value.Constructible.
func (cl *closure) IsConstructor() bool {
	if cl.class != nil {
		return true
	}
	return ast.FuncKind(cl.fc.Kind) == ast.FuncNormal && cl.fc.Flags&(FlagAsync|FlagGenerator) == 0
}

// frame is one activation of a program function. Its values live in a
// segment of the VM's value stack: the callee and this value the caller
// pushed at bp-2 and bp-1, the locals at bp, and the operand stack
// above them, at most MaxStack deep. A segment never moves, so the loop
// keeps the segment and the stack pointer in locals; a frame that does
// not fit in its caller's segment starts a new one.
type frame struct {
	fc   *Funcode
	cl   *closure
	fobj *value.Object
	pc   int // the instruction being run, or where to go on when resumed
	seg  []value.Value
	bp   int
	sp   int // the operand stack top, saved while the frame is not running
	// ret is where the result goes in the caller's segment; -1 for the
	// frame the loop was entered for, whose result exec returns.
	ret       int
	this      value.Value
	construct bool // new: a non-object result gives this
	ownSeg    bool // the frame started its segment, free again when it returns
	cells     []*cell
	handlers  []handler
	args      []value.Value // the arguments, when fc.NeedArgs
	newTarget *value.Object // new.target
	priv      *privScope    // the private names in scope (a class body's computed keys push one)
	// co is the generator or async function whose frame this is: it is
	// suspended as data and resumed from where it stopped.
	co *coroutine
	// cost is the Go stack the frame holds: nothing for a frame pushed
	// by the loop, the loop's own frames for one that entered it.
	cost int
}

// limit is the end of the frame's region: where the frame of a call a
// built-in makes from it may start.
func (fr *frame) limit() int { return fr.bp + fr.fc.NumLocals + fr.fc.MaxStack + stackSlack }

// stackSlack is room above a frame's MaxStack, for safety.
const stackSlack = 4

// regionSize is the room a call of fc with nargs arguments needs from
// its callee slot up.
func regionSize(fc *Funcode, nargs int) int {
	return 2 + max(nargs, fc.NumLocals) + fc.MaxStack + stackSlack
}

// handler is an open try region of a frame.
type handler struct {
	pc      int  // the catch or finally block
	finally bool // pc is a finally block (entered with a completion record)
	sp      int  // the stack height at the region's start
	// the realm's counters at the region's start, restored on a throw
	depth, goDepth, argHeight int
	priv                      *privScope
}

// Run is one execution of a program. It is not safe for concurrent use.
type Run struct {
	engine.Loop
	prog    *Program
	realm   *value.Realm
	host    Host
	globals []value.Value
	// warnings are the likely mistakes noticed so far; warned the
	// positions already warned about.
	warnings []Warning
	warned   map[ast.Pos]bool
	// endPos is the position of the instruction the outermost frame
	// ended at (-1 before that): the boundary copy of the program's value
	// runs after it and locates its errors there.
	endPos int

	frames []*frame
	free   []*frame      // popped frames, for reuse
	spare  []value.Value // a segment no frame uses any more
	// templates are the tagged template objects made so far, by site.
	templates []*value.Object
	result    value.Value
	// privIDs numbers class evaluations, for their private names' keys.
	privIDs int
	// derivedThis is the this binding a derived constructor's frame
	// ended with, for construct to check.
	derivedThis value.Value
	// mainCo is the program body when it awaits; mainExc what it threw.
	// stopJobs ends the job loop once the body has ended (engine "ast"
	// returns from Start then).
	mainCo   *coroutine
	mainExc  *value.Exception
	stopJobs bool
	// jobCo is the coroutine a job is resuming: its frame is the bottom
	// of what runs, so when its await's resumption is the only job left,
	// it goes on in place instead of parking (see AWAIT).
	jobCo *coroutine
	// saveEvery, when positive, stops Settle every saveEvery jobs to be
	// saved (round-trip mode); jobsRun counts the jobs.
	saveEvery, jobsRun int

	// The first frame, the program body's closure and the first room of
	// the frame stack and free list, kept here to save allocations.
	frame0     frame
	mainCl     closure
	frameArray [2 * initialFrames]*frame
}

// initialFrames is the room the frame stack and the free list start
// with.
const initialFrames = 4

// reentryCost is the Go stack one entry of the loop holds (CallFunction
// from a built-in), counted against value.MaxNativeDepth.
const reentryCost = 2048

// NewRun prepares a run of prog.
func NewRun(ctx context.Context, prog *Program, opts Options) *Run {
	run := &Run{prog: prog, host: opts.Host, endPos: -1}
	run.realm = value.NewRealm(opts.Library, run)
	run.Loop.Init(ctx, run.realm, opts)
	if len(prog.Globals) > 0 {
		run.globals = make([]value.Value, len(prog.Globals))
		for i := range run.globals {
			run.globals[i] = value.Hole
		}
	}
	// The frame stack and the free list share one small array at first.
	fs := run.frameArray[:]
	run.frames, run.free = fs[:0:initialFrames], fs[initialFrames:initialFrames]
	run.free = append(run.free, &run.frame0)
	return run
}

// Realm returns the run's realm.
func (run *Run) Realm() *value.Realm { return run.realm }

// Source returns the program's source, for locating diagnostics.
func (run *Run) Source() *ast.Source { return run.prog.src }

// Start runs the program body and returns its value, or, when the value
// is a thenable, the promise adopting it.
func (run *Run) Start() (v value.Value, p *value.Object, fail *Failure) {
	fail = run.guard(func() {
		main := &run.mainCl
		*main = closure{fc: run.prog.Funcs[0]}
		if main.fc.Flags&FlagAsync != 0 {
			v, p = value.Undefined, run.startMain(main)
			return
		}
		v = run.callClosure(main, nil, value.Undefined, nil, 0)
		p = engine.Thenable(run.realm, v)
	})
	return v, p, fail
}

// Settle drives the job loop until p is settled: microtasks first, then
// host outcomes from the inbox. The jobs stop once the program body has
// ended, as engine "ast" returns from Start then; a body that threw
// fails with its exception.
func (run *Run) Settle(p *value.Object) *Failure {
	pd := p.Internal.(*value.PromiseData)
	r := run.realm
	for {
		due := false
		fail := run.guard(func() {
			for !run.stopJobs && r.RunOneJob() {
				r.Poll()
				if run.saveEvery > 0 {
					if run.jobsRun++; run.jobsRun%run.saveEvery == 0 {
						due = true
						return
					}
				}
				if run.Loop.SuspendAsked() {
					due = true
					return
				}
			}
		})
		if fail != nil {
			return fail
		}
		if run.mainExc != nil && run.mainCo != nil && p == run.mainCo.promise {
			return &Failure{Exception: run.mainExc}
		}
		if pd.State != value.Pending {
			return nil
		}
		if due {
			return &Failure{Suspend: engine.SuspendRequested}
		}
		if fail := run.Loop.Wait(run.guard); fail != nil {
			return fail
		}
	}
}

// Drain applies the host outcomes already posted and runs the microtasks
// that are ready, without waiting for anything.
func (run *Run) Drain() *Failure { return run.Loop.Drain(run.guard) }

// Close ends the run: late host outcomes are dropped. Suspended frames
// are data, so nothing else needs unwinding.
func (run *Run) Close() { run.Loop.Close() }

// promiseMiss notes, once per position, a read of a property a promise
// does not have (`const c = tools.crm.getCustomer({id}); c.name`): the
// program almost certainly forgot an await. Only the miss path of a
// property read gets here.
func (run *Run) promiseMiss(fr *frame, p *value.Object, key string) {
	m := fr.fc.members[fr.fc.insns[fr.pc].off]
	if m == nil || run.realm.HasProperty(p, key) || run.warned[m.Start] {
		return
	}
	if run.warned == nil {
		run.warned = map[ast.Pos]bool{}
	}
	run.warned[m.Start] = true
	loc := run.Location(int(m.Start))
	run.warnings = append(run.warnings, Warning{Pos: int(m.Start),
		Message: fmt.Sprintf("%s read a property of a Promise (line %d, col %d): did you forget await?", ast.Print(m), loc.Line, loc.Column)})
}

// Warnings are the run's warnings, in the order they were found.
func (run *Run) Warnings() []Warning { return run.warnings }

// guard runs f, turning a panic into a Failure.
func (run *Run) guard(f func()) (fail *Failure) {
	r := run.realm
	mark := engine.MarkRealm(r)
	frames := len(run.frames)
	defer func() {
		if p := recover(); p != nil {
			fail = engine.ToFailure(p)
			mark.Restore(r)
			run.frames = run.frames[:frames]
		}
	}()
	f()
	return nil
}

// ---------------------------------------------------------------------------
// value.Agent

// Pos is the source offset of the instruction being run.
func (run *Run) Pos() int {
	if n := len(run.frames); n > 0 {
		fr := run.frames[n-1]
		return fr.fc.pos(int(fr.fc.insns[fr.pc].off))
	}
	return run.endPos
}

// CallFunction runs a program function for a built-in: the loop is
// entered again, on the Go stack, until that function returns.
func (run *Run) CallFunction(f *value.Object, this value.Value, args []value.Value) value.Value {
	cl := f.Internal.(*closure)
	if !cl.plain {
		return run.callSpecial(cl, f, this, args)
	}
	return run.callClosure(cl, f, this, args, reentryCost)
}

// ConstructFunction runs a program constructor under new for a built-in
// (Reflect.construct, a subclass of a built-in).
func (run *Run) ConstructFunction(f *value.Object, args []value.Value, newTarget *value.Object) value.Value {
	return run.construct(f.Internal.(*closure), f, args, newTarget)
}

// newThis is the object new makes for a program constructor.
func (run *Run) newThis(newTarget *value.Object) *value.Object {
	r := run.realm
	obj := value.NewObject(r.ProtoFromCtor(newTarget, value.ObjectPrototype))
	r.Charge(96)
	return obj
}

// callClosure pushes a frame for cl above the top frame's region (or in
// a new segment) and runs the loop until it returns.
func (run *Run) callClosure(cl *closure, fobj *value.Object, this value.Value, args []value.Value, cost int) value.Value {
	var seg []value.Value
	start := 0
	need := regionSize(cl.fc, len(args))
	if n := len(run.frames); n > 0 {
		top := run.frames[n-1]
		seg, start = top.seg, top.limit()
	}
	own := false
	if start+need > len(seg) {
		seg, start, own = run.newSegment(need, len(seg)), 0, true
	}
	seg[start], seg[start+1] = value.Obj(fobj), this
	copy(seg[start+2:], args)
	base := len(run.frames)
	run.pushFrame(cl, fobj, this, seg, start+2, len(args), -1, cost).ownSeg = own
	return run.exec(base)
}

// constructClosure runs a program constructor frame under new: a base
// constructor's this is obj, a derived one's is bound by super().
func (run *Run) constructClosure(cl *closure, fobj *value.Object, obj value.Value, args []value.Value, newTarget *value.Object) value.Value {
	var seg []value.Value
	start := 0
	need := regionSize(cl.fc, len(args))
	if n := len(run.frames); n > 0 {
		top := run.frames[n-1]
		seg, start = top.seg, top.limit()
	}
	own := false
	if start+need > len(seg) {
		seg, start, own = run.newSegment(need, len(seg)), 0, true
	}
	seg[start], seg[start+1] = value.Obj(fobj), obj
	copy(seg[start+2:], args)
	base := len(run.frames)
	fr := run.pushFrame(cl, fobj, obj, seg, start+2, len(args), -1, reentryCost)
	fr.ownSeg, fr.newTarget, fr.construct = own, newTarget, !obj.IsHole()
	return run.exec(base)
}

// minSegment is the size of the first segment of a run, in values.
const minSegment = 32

// newSegment makes a segment of at least need values, for a frame that
// does not fit in the segment of prev values it is called from: twice
// that, so that deep recursion makes few segments. It is charged to the
// run's memory budget, or is the spare one: a loop calling a function
// that does not fit in its segment allocates once. (A coroutine's
// segment is just its frame's size: its callees start small again.)
func (run *Run) newSegment(need, prev int) []value.Value {
	if sp := run.spare; len(sp) >= need {
		run.spare = nil
		return sp
	}
	size := max(need, 2*prev, minSegment)
	if prev == 0 && len(run.prog.Funcs) == 1 {
		// The program body is the only frame there can be.
		size = need
	}
	run.realm.Charge(24 * size)
	return make([]value.Value, size)
}

// pushFrame makes the frame of a call whose nargs arguments are at
// seg[bp:], with room for its region: the arguments become the first
// locals and the other locals start undefined.
func (run *Run) pushFrame(cl *closure, fobj *value.Object, this value.Value, seg []value.Value, bp, nargs, ret, cost int) *frame {
	r := run.realm
	run.enterFrame(cl.fc, cost)
	r.Poll()
	fc := cl.fc
	var args []value.Value
	if fc.NeedArgs {
		args = slices.Clone(seg[bp : bp+nargs])
	}
	// Extra arguments are dropped; their slots belong to other locals.
	clearSmall(seg[bp+min(nargs, fc.NumParams) : bp+max(nargs, fc.NumLocals)])
	var fr *frame
	if k := len(run.free); k > 0 {
		fr = run.free[k-1]
		run.free = run.free[:k-1]
	} else {
		fr = &frame{}
	}
	fr.fc, fr.cl, fr.fobj, fr.pc, fr.seg, fr.bp, fr.sp, fr.ret = fc, cl, fobj, 0, seg, bp, bp+fc.NumLocals, ret
	fr.this, fr.cost, fr.construct, fr.args, fr.ownSeg = this, cost, false, args, false
	fr.priv, fr.newTarget = cl.priv, cl.newTarget // only an arrow's closure has a new.target
	if fc.HasCells {
		fr.cells = make([]*cell, fc.NumLocals)
	}
	run.frames = append(run.frames, fr)
	return fr
}

// popFrame removes the top frame, whose result is v, and leaves v where
// the caller pushed the callee (or in run.result for an entry frame).
func (run *Run) popFrame(v value.Value) {
	n := len(run.frames) - 1
	fr := run.frames[n]
	run.frames = run.frames[:n]
	run.leaveFrame(fr)
	clearSmall(fr.seg[fr.bp-1 : fr.sp])
	if fr.ret >= 0 {
		caller := run.frames[n-1]
		caller.seg[fr.ret] = v
		caller.sp = fr.ret + 1
	} else {
		run.result = v
	}
	if n == 0 {
		run.endPos = fr.fc.pos(int(fr.fc.insns[fr.pc].off))
	}
	run.release(fr)
}

// enterFrame counts a frame of fc against the call depth, and its cost
// against the Go stack. The program body is not a call: engine "ast"
// runs it below the first level, so its frame counts no level here
// either, and both engines allow the same 10,000 nested calls.
func (run *Run) enterFrame(fc *Funcode, cost int) {
	run.realm.EnterFrame(cost)
	if fc == run.prog.Funcs[0] {
		run.realm.Depth--
	}
}

// leaveFrame undoes enterFrame for fr.
func (run *Run) leaveFrame(fr *frame) {
	if fr.fc == run.prog.Funcs[0] {
		run.realm.Depth++
	}
	run.realm.LeaveFrame(fr.cost)
}

// clearSmall sets vs to undefined; a loop beats clear's call into the
// runtime for the few slots of a typical frame.
func clearSmall(vs []value.Value) {
	if len(vs) > 16 {
		clear(vs)
		return
	}
	for i := range vs {
		vs[i] = value.Value{}
	}
}

// release keeps a popped frame for reuse, and the segment it started.
func (run *Run) release(fr *frame) {
	if fr.ownSeg && len(fr.seg) > len(run.spare) {
		run.spare = fr.seg
	}
	fr.cl, fr.fobj, fr.cells, fr.seg, fr.handlers, fr.this, fr.args = nil, nil, nil, nil, fr.handlers[:0], value.Undefined, nil
	fr.newTarget, fr.priv, fr.co = nil, nil, nil
	run.free = append(run.free, fr)
}

// exec runs the loop until the frame at index base has returned, and
// returns its result. An exception no frame from base up handles goes
// on as a panic, with those frames gone.
func (run *Run) exec(base int) value.Value {
	for {
		exc := run.loopGuarded(base)
		if exc == nil {
			v := run.result
			run.result = value.Undefined
			return v
		}
		if !run.unwind(base, exc) {
			panic(exc)
		}
	}
}

// loopGuarded runs the loop, returning an exception it threw instead of
// unwinding the Go stack; interrupts and bugs go on.
func (run *Run) loopGuarded(base int) (exc *value.Exception) {
	defer func() {
		if p := recover(); p != nil {
			if e, ok := p.(*value.Exception); ok {
				exc = e
				return
			}
			panic(p)
		}
	}()
	run.loop(base)
	return nil
}

// unwind finds the handler of exc in the frames from base up: the frames
// above it are dropped and the handler's block is made current. Without
// one, every frame from base up is dropped and unwind reports false.
func (run *Run) unwind(base int, exc *value.Exception) bool {
	r := run.realm
	for len(run.frames) > base {
		fr := run.frames[len(run.frames)-1]
		if k := len(fr.handlers); k > 0 {
			h := fr.handlers[k-1]
			fr.handlers = fr.handlers[:k-1]
			r.Depth, r.GoDepth = h.depth, h.goDepth
			clear(r.ArgStack[h.argHeight:])
			r.ArgStack = r.ArgStack[:h.argHeight]
			fr.sp = h.sp
			fr.priv = h.priv
			if h.finally {
				fr.push(value.Number(complThrow), exc.Value, value.Undefined)
			} else {
				fr.push(exc.Value)
			}
			fr.pc = h.pc
			return true
		}
		// An async frame whose promise could not be made (the cap on
		// pending promises) throws to its caller, as on engine "ast".
		if fr.co != nil && fr.ret >= 0 && fr.co.kind == coAsync && fr.co.promise != nil {
			run.asyncThrew(fr, exc)
			return true
		}
		n := len(run.frames) - 1
		run.frames = run.frames[:n]
		run.leaveFrame(fr)
		run.release(fr)
	}
	return false
}

// push pushes values on a frame that is not running.
func (fr *frame) push(vs ...value.Value) {
	copy(fr.seg[fr.sp:], vs)
	fr.sp += len(vs)
}

// Location converts a source offset to a line and column.
func (run *Run) Location(pos int) ast.Location { return run.prog.src.Location(ast.Pos(pos)) }

// templateObject returns the strings array of a tagged template site,
// made once per run.
func (run *Run) templateObject(site int) *value.Object {
	if run.templates == nil {
		run.templates = make([]*value.Object, len(run.prog.Templates))
	}
	if o := run.templates[site]; o != nil {
		return o
	}
	r := run.realm
	t := run.prog.Templates[site]
	cooked := make([]value.Value, len(t.Raw))
	raw := make([]value.Value, len(t.Raw))
	for i := range t.Raw {
		if t.HasCooked[i] {
			cooked[i] = value.StrOf(t.Cooked[i])
		}
		raw[i] = value.StrOf(t.Raw[i])
	}
	rawArr := r.NewArrayValue(raw)
	freezeArray(rawArr)
	o := r.NewArrayValue(cooked)
	o.Define("raw", value.Obj(rawArr), 0)
	freezeArray(o)
	run.templates[site] = o
	return o
}

// freezeArray is Object.freeze of an array (template objects are frozen).
func freezeArray(o *value.Object) {
	o.Freeze()
	a := o.Array()
	a.Frozen, a.Sealed, a.LengthReadOnly = true, true, true
}

// The run is what the host side drives.
var _ engine.Run = (*Run)(nil)

// Invoke calls fn as the body of a new phase of a run that ended (a
// retained run's handle): its value, or the promise adopting it. The
// job loop, stopped when the program body ended, runs again.
func (run *Run) Invoke(fn *value.Object, this value.Value, args []value.Value) (v value.Value, p *value.Object, fail *Failure) {
	run.stopJobs, run.mainExc = false, nil
	fail = run.guard(func() {
		v = run.realm.Call(value.Obj(fn), this, args)
		p = engine.Thenable(run.realm, v)
	})
	return v, p, fail
}
