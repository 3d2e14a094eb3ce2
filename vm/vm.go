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
// Not compiled yet (Compile reports a *NotCompiledError, never a panic):
// classes, generators, async functions and await, destructuring,
// default and rest parameters, the arguments object, spread, optional
// chains, getters and setters in literals, computed-key methods,
// for-in, for-of, tagged templates, super, new.target, private names,
// import, with, debugger and BigInt literals. The package is not wired
// into the root package yet.
package vm

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/value"
)

// Host is what the embedding runtime provides to a run: the values of
// global names the library does not define.
type Host interface {
	Global(r *value.Realm, name string) (v value.Value, ok bool)
}

// Options configure one run.
type Options struct {
	Library *value.Library
	Host    Host
	// Deadline, when not zero, ends the run with a TimeoutExceeded
	// interrupt; TimeoutMessage is its message.
	Deadline       time.Time
	TimeoutMessage string
}

// cell is a variable that a closure captured.
type cell struct{ v value.Value }

// closure is the Internal of a program function object: its code and
// captured cells, nothing else, so that it can be saved as data.
type closure struct {
	fc   *Funcode
	free []*cell
}

// IsConstructor implements value.Constructible.
func (cl *closure) IsConstructor() bool { return ast.FuncKind(cl.fc.Kind) == ast.FuncNormal }

// frame is one activation of a program function. Its locals are
// stack[bp : bp+NumLocals]; the callee and this value the caller pushed
// sit at bp-2 and bp-1, where the result goes on return.
type frame struct {
	fc        *Funcode
	cl        *closure
	fobj      *value.Object
	pc        int // the instruction being run, or where to go on when resumed
	bp        int
	this      value.Value
	construct bool // new: a non-object result gives this
	cells     []*cell
	handlers  []handler
	// cost is the Go stack the frame holds: nothing for a frame pushed
	// by the loop, the loop's own frames for one that entered it.
	cost int
}

// handler is an open try region of a frame.
type handler struct {
	pc      int  // the catch or finally block
	finally bool // pc is a finally block (entered with a completion record)
	sp      int  // the stack height at the region's start
	// the realm's counters at the region's start, restored on a throw
	depth, goDepth, argHeight int
}

// Failure is how a run ended abnormally: an uncaught exception, an
// interrupt, or a bug (a Go panic), with the stack for the last.
type Failure struct {
	Exception *value.Exception
	Interrupt *value.Interrupt
	Panic     any
	Stack     string
}

func (f *Failure) Error() string {
	switch {
	case f.Exception != nil:
		return "uncaught exception"
	case f.Interrupt != nil:
		return f.Interrupt.Message
	}
	return fmt.Sprintf("internal error: %v", f.Panic)
}

// Run is one execution of a program. It is not safe for concurrent use.
type Run struct {
	prog    *Program
	realm   *value.Realm
	host    Host
	ctx     context.Context
	opts    Options
	globals []value.Value

	stack  []value.Value
	frames []*frame
	free   []*frame // popped frames, for reuse
}

// reentryCost is the Go stack one entry of the loop holds (CallFunction
// from a built-in), counted against value.MaxNativeDepth.
const reentryCost = 2048

// NewRun prepares a run of prog.
func NewRun(ctx context.Context, prog *Program, opts Options) *Run {
	run := &Run{prog: prog, host: opts.Host, ctx: ctx, opts: opts}
	run.realm = value.NewRealm(opts.Library, run)
	run.globals = make([]value.Value, len(prog.Globals))
	for i := range run.globals {
		run.globals[i] = value.Hole
	}
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
		main := &closure{fc: run.prog.Funcs[0]}
		v = run.callClosure(main, nil, value.Undefined, nil, 0)
		if o := v.AsObject(); o != nil {
			if then := run.realm.GetObj(o, "then", v).AsObject(); then != nil && then.Callable() {
				p = run.realm.NewPromise()
				run.realm.ResolvePromise(p, v)
			}
		}
	})
	return v, p, fail
}

// Settle runs the job queue until p is settled. Host calls do not exist
// on this engine yet, so a promise still pending afterwards never
// settles.
func (run *Run) Settle(p *value.Object) *Failure {
	pd := p.Internal.(*value.PromiseData)
	if fail := run.guard(run.realm.RunJobs); fail != nil {
		return fail
	}
	if pd.State == value.Pending {
		return &Failure{Interrupt: &value.Interrupt{Kind: "ExecutionFailure",
			Message: "The program is waiting for a promise that can never settle: nothing is left to run. Make sure every promise you await is resolved or rejected."}}
	}
	return nil
}

// guard runs f, turning a panic into a Failure.
func (run *Run) guard(f func()) (fail *Failure) {
	r := run.realm
	depth, goDepth, height := r.Depth, r.GoDepth, len(r.ArgStack)
	frames, sp := len(run.frames), len(run.stack)
	defer func() {
		if p := recover(); p != nil {
			fail = toFailure(p)
			r.Depth, r.GoDepth = depth, goDepth
			clear(r.ArgStack[height:])
			r.ArgStack = r.ArgStack[:height]
			run.frames = run.frames[:frames]
			run.stack = run.stack[:sp]
		}
	}()
	f()
	return nil
}

func toFailure(p any) *Failure {
	switch x := p.(type) {
	case *value.Exception:
		return &Failure{Exception: x}
	case *value.Interrupt:
		return &Failure{Interrupt: x}
	}
	return &Failure{Panic: p, Stack: string(debug.Stack())}
}

// ---------------------------------------------------------------------------
// value.Agent

// Pos is the source offset of the instruction being run.
func (run *Run) Pos() int {
	if n := len(run.frames); n > 0 {
		fr := run.frames[n-1]
		return fr.fc.pos(fr.pc)
	}
	return -1
}

// CheckInterrupts checks the deadline and the context now.
func (run *Run) CheckInterrupts() {
	if !run.opts.Deadline.IsZero() && time.Now().After(run.opts.Deadline) {
		panic(run.timeout())
	}
	if run.ctx.Err() != nil {
		panic(run.ctxInterrupt())
	}
}

func (run *Run) timeout() *value.Interrupt {
	msg := run.opts.TimeoutMessage
	if msg == "" {
		msg = "Execution timed out."
	}
	return &value.Interrupt{Kind: "TimeoutExceeded", Message: msg}
}

func (run *Run) ctxInterrupt() *value.Interrupt {
	if run.ctx.Err() == context.DeadlineExceeded {
		return run.timeout()
	}
	return &value.Interrupt{Kind: "ExecutionFailure", Message: "Execution was cancelled: " + run.ctx.Err().Error()}
}

// CallFunction runs a program function for a built-in: the loop is
// entered again, on the Go stack, until that function returns.
func (run *Run) CallFunction(f *value.Object, this value.Value, args []value.Value) value.Value {
	return run.callClosure(f.Internal.(*closure), f, this, args, reentryCost)
}

// ConstructFunction runs a program constructor under new for a built-in
// (Reflect.construct, a subclass of a built-in).
func (run *Run) ConstructFunction(f *value.Object, args []value.Value, newTarget *value.Object) value.Value {
	r := run.realm
	cl := f.Internal.(*closure)
	if !cl.IsConstructor() {
		r.ThrowType("%s is not a constructor", r.FunctionName(f))
	}
	obj := run.newThis(newTarget)
	res := run.callClosure(cl, f, value.Obj(obj), args, reentryCost)
	if res.IsObject() {
		return res
	}
	return value.Obj(obj)
}

// newThis is the object new makes for a program constructor.
func (run *Run) newThis(newTarget *value.Object) *value.Object {
	r := run.realm
	obj := value.NewObject(r.ProtoFromCtor(newTarget, value.ObjectPrototype))
	r.Charge(96)
	return obj
}

// callClosure pushes a frame for cl and runs the loop until it returns.
func (run *Run) callClosure(cl *closure, fobj *value.Object, this value.Value, args []value.Value, cost int) value.Value {
	sb := len(run.stack)
	run.stack = append(run.stack, value.Obj(fobj), this)
	run.stack = append(run.stack, args...)
	base := len(run.frames)
	run.pushFrame(cl, fobj, this, sb+2, cost)
	return run.exec(base)
}

// pushFrame makes the frame of a call whose arguments are stack[bp:]:
// the arguments become the first locals and the other locals start
// undefined.
func (run *Run) pushFrame(cl *closure, fobj *value.Object, this value.Value, bp, cost int) *frame {
	r := run.realm
	r.EnterFrame(cost)
	r.Poll()
	fc := cl.fc
	need := bp + fc.NumLocals
	if len(run.stack)-bp > fc.NumParams {
		// Extra arguments are dropped; their slots belong to other locals.
		clear(run.stack[bp+fc.NumParams:])
	}
	for len(run.stack) < need {
		run.stack = append(run.stack, value.Undefined)
	}
	run.stack = run.stack[:need]
	var fr *frame
	if k := len(run.free); k > 0 {
		fr = run.free[k-1]
		run.free = run.free[:k-1]
	} else {
		fr = &frame{}
	}
	fr.fc, fr.cl, fr.fobj, fr.pc, fr.bp, fr.this, fr.cost = fc, cl, fobj, 0, bp, this, cost
	fr.construct = false
	if fc.HasCells {
		fr.cells = make([]*cell, fc.NumLocals)
	}
	run.frames = append(run.frames, fr)
	return fr
}

// popFrame removes the top frame, whose result is v, and leaves v where
// the caller pushed the callee.
func (run *Run) popFrame(v value.Value) {
	n := len(run.frames) - 1
	fr := run.frames[n]
	run.frames = run.frames[:n]
	run.realm.LeaveFrame(fr.cost)
	sb := fr.bp - 2
	clear(run.stack[sb+1:])
	run.stack[sb] = v
	run.stack = run.stack[:sb+1]
	fr.cl, fr.fobj, fr.cells, fr.handlers, fr.this = nil, nil, nil, fr.handlers[:0], value.Undefined
	run.free = append(run.free, fr)
}

// exec runs the loop until the frame at index base has returned, and
// returns its result. An exception no frame from base up handles goes
// on as a panic, with those frames gone.
func (run *Run) exec(base int) value.Value {
	for {
		exc := run.loopGuarded(base)
		if exc == nil {
			v := run.stack[len(run.stack)-1]
			run.stack = run.stack[:len(run.stack)-1]
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
			clear(run.stack[h.sp:])
			run.stack = run.stack[:h.sp]
			r.Depth, r.GoDepth = h.depth, h.goDepth
			clear(r.ArgStack[h.argHeight:])
			r.ArgStack = r.ArgStack[:h.argHeight]
			if h.finally {
				run.stack = append(run.stack, value.Number(complThrow), exc.Value, value.Undefined)
			} else {
				run.stack = append(run.stack, exc.Value)
			}
			fr.pc = h.pc
			return true
		}
		run.popFrame(value.Undefined)
	}
	// The base frame's slot (its callee) is left too.
	run.stack = run.stack[:len(run.stack)-1]
	return false
}
