package protocol

import (
	"context"
	"encoding/json"
)

// DispatchFunc answers one tool call of a program with its envelope JSON,
// {"result": <value>} or {"error": "<text>"}: the seed's ToolDispatchFn.
// argsJSON is the call's arguments as [ParseDispatchArguments] reads
// them. [EnvelopeDispatch.Dispatch] is one.
type DispatchFunc func(ctx context.Context, provider, tool, argsJSON string) string

// ExecuteRequest is one execution stated in full: what an [Executor]
// runs. Only Code is required.
type ExecuteRequest struct {
	// Code is the program: the entry form async () => { ... },
	// optionally preceded by static imports of Modules, or a plain
	// program body.
	Code string
	// Providers are the namespaces of tools the program reaches as
	// globals (store.listUsers()); Dispatch answers their calls.
	Providers []ProviderDescriptor
	// Dispatch answers the providers' tool calls. Nil answers every call
	// with an error saying that the tool is not found.
	Dispatch DispatchFunc
	// Modules are what the program may import by name.
	Modules ModuleMap
	// Timeout bounds the run: absent for the executor's default, null
	// for its largest bound.
	Timeout Timeout
	// CountHostWaits counts the time the program waits on the host (tool
	// calls, fetch) against Timeout. False, the seed's default, pauses
	// the clock while only the host can make progress.
	CountHostWaits bool
	// Outbound is how the program's fetch reaches the network: native
	// (the executor performs it), stub (Fetch performs it) or disabled.
	// Empty is the executor's default.
	Outbound OutboundMode
	// Fetch performs the requests of the stub mode.
	Fetch FetchFunc
	// RetainHandles keeps the execution when its value holds functions,
	// so that they can be invoked later through InvokeHandle.
	RetainHandles bool
	// Suspend, when closed, asks the run to save itself at its next wait
	// on the host (a server draining for a deploy): the result is then an
	// Error of code [CodeSuspended] with State. A run that cannot be
	// saved goes on. Nil never asks.
	Suspend <-chan struct{}
}

// Options returns the wire form of r's options.
func (r ExecuteRequest) Options() ExecuteOptions {
	return ExecuteOptions{Timeout: r.Timeout, CountHostWaits: r.CountHostWaits,
		RetainHandles: r.RetainHandles, Outbound: r.Outbound}
}

// ExecuteResult is what an execution gives back: its value or its
// failure, and the console lines it captured. A failure of the program
// (a throw, a syntax error, a timeout) is Error, never the error of the
// Executor's method.
type ExecuteResult struct {
	// Result is the JSON of the program's value; nil when it returned
	// undefined or failed.
	Result json.RawMessage
	// Error is the failure. Its Code is empty for a failure of the
	// program itself; [CodeTimeout] for a timeout; [CodeSuspended] for a
	// run saved to State.
	Error *Error
	// Logs are the console lines the run captured.
	Logs []LogLine
	// ExecutionID and Handles name a retained execution and the paths of
	// its functions in Result, when the request asked to retain handles
	// and the value held functions.
	ExecutionID string
	Handles     []string
	// State is a run saved instead of finished (a server draining while
	// the run waited on a tool): resume it with a [Resumer].
	State []byte
}

// ResultMessage returns r as the wire's answer to the request id.
func (r ExecuteResult) ResultMessage(id string) *ResultMessage {
	return &ResultMessage{ID: id, ResultJSON: r.Result, Error: r.Error, Logs: r.Logs,
		ExecutionID: r.ExecutionID, Handles: r.Handles, State: r.State}
}

// Result returns the ExecuteResult m carries.
func (m *ResultMessage) Result() ExecuteResult {
	return ExecuteResult{Result: m.ResultJSON, Error: m.Error, Logs: m.Logs,
		ExecutionID: m.ExecutionID, Handles: m.Handles, State: m.State}
}

// Executor runs programs: the seed's in-language contract, which the
// in-process executor (codemode.Runtime.Executor) and the remote one
// (package remote) both implement. Methods are safe for concurrent use.
type Executor interface {
	// Execute runs one program. Its error is a failure of the executor
	// (an *Error: QUEUE_OVERFLOW, WORKER_CRASHED, CONNECTION_REJECTED,
	// CANCELLED, ...); the program's own failures are in the result.
	Execute(ctx context.Context, req ExecuteRequest) (ExecuteResult, error)
	// InvokeHandle calls the function at path handle of the retained
	// execution executionID with the arguments argsJSON (as
	// [ParseDispatchArguments] reads them) and returns its settled value.
	// Its tool calls go to the execution's Dispatch. An unknown or closed
	// execution is an *Error of [CodeUnknownExecution].
	InvokeHandle(ctx context.Context, executionID, handle, argsJSON string) (ExecuteResult, error)
	// CloseHandles releases a retained execution. Closing one that is
	// unknown or already closed is an *Error of [CodeUnknownExecution].
	CloseHandles(ctx context.Context, executionID string) error
	// Close releases the executor: retained executions are closed and
	// later calls fail.
	Close() error
}

// ResumeRequest continues a run saved as an [ExecuteResult]'s State.
// The providers must be the ones the run was started with; the source
// and modules are in the state.
type ResumeRequest struct {
	State     []byte
	Providers []ProviderDescriptor
	Dispatch  DispatchFunc
	Fetch     FetchFunc
	// Timeout bounds the resumed run, counting its earlier active time.
	Timeout Timeout
	// Suspend is as ExecuteRequest's.
	Suspend <-chan struct{}
}

// Resumer is an [Executor] that can continue a saved run.
type Resumer interface {
	Resume(ctx context.Context, req ResumeRequest) (ExecuteResult, error)
}
