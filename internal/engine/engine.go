// Package engine is what the two engines ("ast" in interp/, "vm" in vm/)
// share with the host side of the root package: the Run interface the
// host drives, the host calls a run waits for (as data), the inbox their
// outcomes arrive in, and the job loop that waits for them. interp/ and
// vm/ never import each other; both import this.
package engine

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/value"
)

// Run is one execution of a program on either engine, as the host sees
// it. It is not safe for concurrent use; host goroutines talk to it only
// through Post.
type Run interface {
	// Realm is the run's realm.
	Realm() *value.Realm
	// Start runs the program body and returns its value, or, when the
	// value is a thenable, the promise adopting it, for Settle.
	Start() (v value.Value, p *value.Object, fail *Failure)
	// Settle drives the job loop until p is settled.
	Settle(p *value.Object) *Failure
	// Drain applies the outcomes already posted and runs the ready jobs,
	// without waiting.
	Drain() *Failure
	// Close ends the run: nothing it started outlives it, and late
	// outcomes are dropped.
	Close()
	// Warnings are the likely mistakes the run noticed, in order.
	Warnings() []Warning
	// Location converts a source offset to a line and column.
	Location(pos int) ast.Location
	// CheckInterrupts panics with the run's interrupt once its deadline
	// has passed or its context has ended.
	CheckInterrupts()
	// Begin records a host call started; Post delivers its outcome.
	Begin(c *HostCall)
	Post(c *HostCall)
	// Hold, Unhold and Restore manage calls held for a decision; Calls
	// lists the calls not applied yet (Loop's).
	Hold(c *HostCall)
	Unhold(c *HostCall)
	Interrupt(c *HostCall)
	Restore(c *HostCall)
	Calls() []*HostCall
	// EnableSuspend and RequestSuspend let another goroutine stop the run
	// at its next wait (Loop's); ApplyPosted applies the outcomes waiting.
	EnableSuspend()
	RequestSuspend()
	ApplyPosted() *Failure
	WaitHost() *Failure
	// Deadline is when the run times out now; Paused is how long its
	// clock was stopped while it waited on the host (Loop's).
	Deadline() time.Time
	Paused() time.Duration
	// Rearm readies a run that ended for another phase (Loop's), and
	// Invoke calls fn in it as that phase's body: its value, or the
	// promise to Settle when the value is a thenable.
	Rearm(ctx context.Context, opts Options)
	Invoke(fn *value.Object, this value.Value, args []value.Value) (v value.Value, p *value.Object, fail *Failure)
}

// Host is what the embedding runtime provides to a run: the values of
// global names the library does not define (tools, bindings, search).
type Host interface {
	// Global returns the value of a host global, or ok=false.
	Global(r *value.Realm, name string) (v value.Value, ok bool)
}

// ModuleHost is implemented by hosts that provide modules to import,
// require() and import(): Module returns the module object or throws.
type ModuleHost interface {
	Module(r *value.Realm, name string) value.Value
}

// Options configure one run, on either engine.
type Options struct {
	Library *value.Library
	Host    Host
	// Deadline, when not zero, ends the run with a TimeoutExceeded
	// interrupt; TimeoutMessage is its message.
	Deadline       time.Time
	TimeoutMessage string
	// PauseHostWaits stops the run's clock while it waits only on the
	// host (tool calls, extensions, fetch): each wait moves Deadline
	// later by its length, as the seed's countHostWaits: false does.
	PauseHostWaits bool
}

// A Warning is a note about the program the run found while it ran: a
// likely mistake that JavaScript lets pass silently.
type Warning struct {
	Pos     int // source offset
	Message string
}

// Failure is how a run ended abnormally: an uncaught exception, an
// interrupt, or a bug (a Go panic), with the stack for the last.
type Failure struct {
	Exception *value.Exception
	Interrupt *value.Interrupt
	Panic     any
	Stack     string
	// Suspend says the run stopped to be saved, not that it failed.
	Suspend SuspendWhy
}

// SuspendWhy says why a run stopped to be saved.
type SuspendWhy uint8

const (
	// SuspendRequested: RequestSuspend asked for it.
	SuspendRequested SuspendWhy = iota + 1
	// SuspendHeld: nothing is left to do but wait for held calls.
	SuspendHeld
)

func (f *Failure) Error() string {
	switch {
	case f.Exception != nil:
		return "uncaught exception"
	case f.Interrupt != nil:
		return f.Interrupt.Message
	case f.Suspend != 0:
		return "suspended"
	}
	return fmt.Sprintf("internal error: %v", f.Panic)
}

// NeverSettles is the failure of a run that waits for a promise nothing
// left could settle.
func NeverSettles() *Failure {
	return &Failure{Interrupt: &value.Interrupt{Kind: "ExecutionFailure",
		Message: "The program is waiting for a promise that can never settle: nothing is left to run. Make sure every promise you await is resolved or rejected."}}
}

// CallKind says what a host call runs.
type CallKind uint8

const (
	CallTool      CallKind = iota + 1 // a tool, by path
	CallExtension                     // an async extension function, by label
)

func (k CallKind) String() string {
	switch k {
	case CallTool:
		return "tool"
	case CallExtension:
		return "extension"
	}
	return fmt.Sprintf("CallKind(%d)", uint8(k))
}

// CallStatus is where a host call is in its life.
type CallStatus uint8

const (
	CallRunning CallStatus = iota // started, no outcome yet
	CallPosted                    // the outcome is in the inbox
	CallApplied                   // the run settled the promise with it
	CallHeld                      // admitted, waiting for a decision before it starts
)

// A HostCall is one host operation the run waits for, as plain data: its
// key, what it calls, its input, its status and, once posted, its
// outcome. The inbox holds these, not Go closures, so that a suspended
// run's calls can be written down and brought back.
type HostCall struct {
	Seq  int      // the run's sequence number of the call, its key
	Kind CallKind //
	Path string   // the tool path or the extension function's label
	// Input is a tool call's argument as JSON; Args an extension call's
	// arguments as JSON-like Go values.
	Input []byte
	Args  []any
	// Promise is the program's promise the outcome settles; Pos is the
	// source offset of the call.
	Promise *value.Object
	Pos     int
	Status  CallStatus
	// The outcome, set by the worker before Post: a result (a JSON-like
	// Go value, json.RawMessage, or a value that marshals to JSON) or an
	// error. An interrupted call posts nothing.
	Result any
	Err    error
	// Settler applies the outcome on the run's side. It is the host's own
	// record of the call (re-made from Kind and Path when a run is
	// restored), never a closure.
	Settler Settler
	// Held says the call is held for a decision (Loop.Hold). Unlike
	// Status, which a worker writes when it posts, only the run's
	// goroutine writes it, so the run may read it at any time.
	Held bool
	// slot is the call's place in its loop's table; phase the loop's
	// phase when it began (Rearm), whose outcomes a later phase drops.
	slot, phase int
}

// Settler applies a host call's posted outcome to the run, between jobs.
type Settler interface {
	Settle(r *value.Realm, c *HostCall)
}

// UnsupportedSuggestion is the sentence that lists what codemode runs.
const UnsupportedSuggestion = "Supported: functions of every kind, classes, data literals, destructuring, standard control flow, await and Promise, and built-ins such as Array, Object, Math, JSON, Date, RegExp, Map, Set, and URL. Unsupported: with, debugger, BigInt, and import.meta."

// UnsupportedMessage is the message of the SyntaxError for a construct
// codemode parses but does not run.
func UnsupportedMessage(nodeType string) string {
	return "Syntax '" + nodeType + "' is not supported. This is a restricted JavaScript-like language. " + UnsupportedSuggestion
}

// ToFailure is what a recovered panic means for the run: a JavaScript
// throw, an interrupt, a Failure already made, or a bug with its stack.
func ToFailure(p any) *Failure {
	switch x := p.(type) {
	case *value.Exception:
		return &Failure{Exception: x}
	case *value.Interrupt:
		return &Failure{Interrupt: x}
	case *Failure:
		return x
	}
	return &Failure{Panic: p, Stack: string(debug.Stack())}
}

// Mark is the realm's call depth and argument stack at a guard's entry.
// A panic leaves them as they were deep inside; the frames that held
// them are gone, so a guard puts them back (formatting the thrown value
// then runs at the boundary's depth).
type Mark struct{ depth, goDepth, height int }

// MarkRealm notes r's depth and argument stack.
func MarkRealm(r *value.Realm) Mark { return Mark{r.Depth, r.GoDepth, len(r.ArgStack)} }

// Restore puts r's depth and argument stack back to m.
func (m Mark) Restore(r *value.Realm) {
	r.Depth, r.GoDepth = m.depth, m.goDepth
	clear(r.ArgStack[m.height:])
	r.ArgStack = r.ArgStack[:m.height]
}
