// Package interp is codemode's engine "ast": it compiles a resolved
// program into a tree of Go closures, one per node, and runs it.
//
// Calls use Go recursion. Generators and async functions that can
// suspend run as coroutines on goroutines of their own, handing control
// back and forth over channels so that exactly one goroutine runs program
// code at any time. A JavaScript throw is a Go panic carrying
// *value.Exception, recovered by try/catch and at the run boundary.
package interp

import (
	"context"
	"fmt"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/value"
)

// Program is a compiled program. It is immutable and may be run any
// number of times, concurrently.
type Program struct {
	src     *ast.Source
	main    *funcCode
	globals []string
	// hasTopAwait says whether the program body can suspend; if not, it
	// runs on the caller's goroutine.
	hasTopAwait bool
}

// Compile compiles a parsed, resolved program.
func Compile(p *ast.Program) (prog *Program, err error) {
	defer func() {
		if rec := recover(); rec != nil {
			err = fmt.Errorf("interp: compiling the program failed: %v", rec)
		}
	}()
	c := &compiler{src: p.Source, globalIndex: map[string]int{}}
	main := c.function(p.Func, nil)
	return &Program{src: p.Source, main: main, globals: c.globals, hasTopAwait: main.suspends}, nil
}

// Host, ModuleHost, Options, Warning and Failure are the engines'
// common types (internal/engine).
type (
	Host       = engine.Host
	ModuleHost = engine.ModuleHost
	Options    = engine.Options
	Warning    = engine.Warning
	Failure    = engine.Failure
)

// Run is one execution of a program: its realm, globals and job loop.
// It is not safe for concurrent use; host goroutines talk to it only
// through Post.
type Run struct {
	engine.Loop
	prog    *Program
	realm   *value.Realm
	host    Host
	globals []value.Value

	pos int

	warnings []Warning
	warned   map[ast.Pos]bool // positions already warned about

	coroutines map[*coroutine]struct{}
	// spareAwait is the program body's await continuation, kept for its
	// next await.
	spareAwait *inlineAwait
	templates  map[*ast.TaggedTemplate]*value.Object
	frames     []*frame // finished frames, for reuse
	privIDs    int
	// current is the coroutine whose goroutine runs program code now, or
	// nil for the driver.
	current *coroutine
}

// Warnings are the run's warnings, in the order they were found.
func (run *Run) Warnings() []Warning { return run.warnings }

// promiseMiss notes, once per position, a read of a property a promise
// does not have (`const c = tools.crm.getCustomer({id}); c.name`): the
// program almost certainly forgot an await. Only the miss path of a
// property read gets here, so correct programs pay nothing.
func (run *Run) promiseMiss(m *ast.Member, p *value.Object, key string) {
	if run.realm.HasProperty(p, key) {
		return
	}
	if run.warned == nil {
		run.warned = map[ast.Pos]bool{}
	}
	if run.warned[m.Start] {
		return
	}
	run.warned[m.Start] = true
	loc := run.Location(int(m.Start))
	run.warnings = append(run.warnings, Warning{Pos: int(m.Start),
		Message: fmt.Sprintf("%s read a property of a Promise (line %d, col %d): did you forget await?", ast.Print(m), loc.Line, loc.Column)})
}

// NewRun prepares a run of prog.
func NewRun(ctx context.Context, prog *Program, opts Options) *Run {
	run := &Run{prog: prog, host: opts.Host}
	run.realm = value.NewRealm(opts.Library, run)
	run.Loop.Init(ctx, run.realm, opts)
	run.globals = make([]value.Value, len(prog.globals))
	for i := range run.globals {
		run.globals[i] = value.Hole
	}
	return run
}

// Realm returns the run's realm.
func (run *Run) Realm() *value.Realm { return run.realm }

// Source returns the program's source, for locating diagnostics.
func (run *Run) Source() *ast.Source { return run.prog.src }

// guard runs f, turning a panic into a Failure.
func (run *Run) guard(f func()) (fail *Failure) {
	r := run.realm
	mark := engine.MarkRealm(r)
	defer func() {
		if p := recover(); p != nil {
			fail = engine.ToFailure(p)
			mark.Restore(r)
		}
	}()
	f()
	return nil
}

// Start runs the program body to its end (its awaits drive the job loop
// as they wait) and returns its value, or, when the value is a thenable,
// the promise adopting it, for Settle.
func (run *Run) Start() (v value.Value, p *value.Object, fail *Failure) {
	fail = run.guard(func() {
		code := run.prog.main
		f := &frame{run: run, code: code, fn: &closure{code: code}}
		// The body runs here even when it awaits: its awaits run the job
		// loop in place (awaitInline).
		run.realm.GoDepth = code.frameCost()
		code.setup(f)
		v = run.runBody(f)
		// A returned thenable is adopted, as an async function's return
		// value is.
		p = engine.Thenable(run.realm, v)
	})
	return v, p, fail
}

// Settle drives the job loop until p is settled: microtasks first, then
// host outcomes from the inbox.
func (run *Run) Settle(p *value.Object) *Failure { return run.Loop.Settle(run.guard, p) }

// Drain applies the host outcomes already posted and runs the microtasks
// that are ready, without waiting for anything.
func (run *Run) Drain() *Failure { return run.Loop.Drain(run.guard) }

// Close ends the run: every suspended coroutine is unwound so no
// goroutine outlives it, and late host outcomes are dropped.
func (run *Run) Close() {
	for co := range run.coroutines {
		co.kill()
	}
	run.coroutines = nil
	run.Loop.Close()
}

// ---------------------------------------------------------------------------
// value.Agent

// Pos is the source offset of the operation being evaluated.
func (run *Run) Pos() int { return run.pos }

// Poll counts one unit of work (a loop back-edge, a job); the realm
// checks the budget, the deadline and the context every
// value.TickInterval units.
func (run *Run) Poll() { run.realm.Poll() }

// CallFunction runs a program function.
func (run *Run) CallFunction(f *value.Object, this value.Value, args []value.Value) value.Value {
	cl := f.Internal.(*closure)
	// A built-in calling back (a toString, a comparator) is where the run
	// is again once the callback returns, as on engine "vm".
	pos := run.pos
	v := run.call(cl, f, this, args, nil)
	run.pos = pos
	return v
}

// ConstructFunction runs a program constructor under new.
func (run *Run) ConstructFunction(f *value.Object, args []value.Value, newTarget *value.Object) value.Value {
	cl := f.Internal.(*closure)
	pos := run.pos
	v := run.construct(cl, f, args, newTarget)
	run.pos = pos
	return v
}

// Location converts a source offset to a line and column.
func (run *Run) Location(pos int) ast.Location { return run.prog.src.Location(ast.Pos(pos)) }

// The run is what the host side drives.
var _ engine.Run = (*Run)(nil)

// ApplyPosted applies the host outcomes waiting, without running a job.
func (run *Run) ApplyPosted() *engine.Failure { return run.Loop.ApplyPosted(run.guard) }

// WaitHost waits for one host outcome, ignoring a suspend request.
func (run *Run) WaitHost() *engine.Failure { return run.Loop.WaitHost(run.guard) }

// Invoke calls fn as the body of a new phase of a run that ended (a
// retained run's handle): its value, or the promise adopting it.
func (run *Run) Invoke(fn *value.Object, this value.Value, args []value.Value) (v value.Value, p *value.Object, fail *Failure) {
	fail = run.guard(func() {
		v = run.realm.Call(value.Obj(fn), this, args)
		p = engine.Thenable(run.realm, v)
	})
	return v, p, fail
}
