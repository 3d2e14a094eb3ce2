package codemode

import (
	"context"
	"encoding/json"
	"fmt"
)

// Hooks wrap every host call a program makes. For tool calls and
// asynchronous extension functions they run on the call's own goroutine,
// so a slow hook delays only its call; for synchronous extension
// functions and search, which the program waits for anyway, on the run's.
type Hooks struct {
	// ToolBefore runs for each admitted tool call (search included, as
	// "search") before the tool; an error denies the call: the tool never
	// runs, the program's promise rejects with the error (a ToolFailure
	// when uncaught), and ToolAfter is not called. The call still counts
	// and is listed in toolCalls.
	ToolBefore func(ctx context.Context, call ToolCallInfo) error
	// ToolAfter gets exactly one outcome for every call ToolBefore did
	// not deny: success, failure, or interrupted (the run ended or timed
	// out while the call was in flight, or before it started; a call cut
	// off this way gets its interrupted outcome before Execute returns,
	// and nothing more when its tool returns later). Execute waits for
	// hooks already running when the run ends, so keep them short.
	ToolAfter func(ctx context.Context, call ToolCallInfo, outcome CallOutcome)
	// ExtensionBefore and ExtensionAfter do the same for calls of
	// extension globals.
	ExtensionBefore func(ctx context.Context, call ExtensionCallInfo) error
	ExtensionAfter  func(ctx context.Context, call ExtensionCallInfo, outcome CallOutcome)
}

// ToolCallInfo is a tool call as hooks see it.
type ToolCallInfo struct {
	// Name is the tool's path ("github.listIssues"), or "search".
	Name string
	// Input is the validated input, as JSON.
	Input json.RawMessage
	// ID is unique within the run ("call-3"); Seq is the call's place in
	// the order the program made its host calls, from 1 (see
	// ToolCallEvent).
	ID  string
	Seq int
}

// ExtensionCallInfo is an extension call as hooks see it.
type ExtensionCallInfo struct {
	// Extension is the extension's name.
	Extension string
	// Name is the path of the function called ("fs.readFile").
	Name string
	// Args are the arguments, copied out of the program.
	Args []any
	// ID and Seq identify the call within the run, as for tools.
	ID  string
	Seq int
}

// CallStatus is how a host call ended.
type CallStatus string

// The outcomes of a host call.
const (
	CallSuccess     CallStatus = "success"
	CallFailure     CallStatus = "failure"
	CallInterrupted CallStatus = "interrupted"
)

// CallOutcome is what an after-hook learns.
type CallOutcome struct {
	Status CallStatus
	// Value is the result on success.
	Value any
	// Err is the error on failure.
	Err error
}

// runBefore calls a before-hook, turning a panic into a denial.
func runBefore(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the before hook panicked: %v", p)
		}
	}()
	return f()
}

// runAfter calls an after-hook; a panic in it is dropped, since the
// call's outcome is already decided.
func runAfter(f func()) {
	defer func() { _ = recover() }()
	f()
}

// combineHooks runs the Runtime's hooks, then a run's (WithHooks): a call
// either before-hook denies is denied (the second is not asked), and
// both after-hooks get the outcome.
func combineHooks(a, b Hooks) Hooks {
	return Hooks{
		ToolBefore:      bothBefore(a.ToolBefore, b.ToolBefore),
		ToolAfter:       bothAfter(a.ToolAfter, b.ToolAfter),
		ExtensionBefore: bothBefore(a.ExtensionBefore, b.ExtensionBefore),
		ExtensionAfter:  bothAfter(a.ExtensionAfter, b.ExtensionAfter),
	}
}

func bothBefore[I any](a, b func(context.Context, I) error) func(context.Context, I) error {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return func(ctx context.Context, info I) error {
		if err := a(ctx, info); err != nil {
			return err
		}
		return b(ctx, info)
	}
}

func bothAfter[I any](a, b func(context.Context, I, CallOutcome)) func(context.Context, I, CallOutcome) {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return func(ctx context.Context, info I, out CallOutcome) {
		runAfter(func() { a(ctx, info, out) })
		b(ctx, info, out)
	}
}
