package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/go-codemode/codemode/protocol"
)

// Executor runs programs through the executor contract of the second seed
// (protocol.Executor): a request states the program, its providers and
// their dispatch function, its modules and options, and gets back
// {result, error, logs}. It is the in-process side of `codemode serve`
// and of package remote: the same request runs here or in a daemon.
// It is safe for concurrent use.
type Executor struct {
	rt   *Runtime
	opts ExecutorOptions

	mu     sync.Mutex
	closed bool
	// gates are the dispatch gates of the executions retained here.
	gates map[string]*dispatchGate
}

// ExecutorOptions configure an Executor.
type ExecutorOptions struct {
	// DefaultTimeout bounds a request that names no timeout; zero is the
	// seed's protocol.DefaultTimeout (60 s).
	DefaultTimeout time.Duration
	// MaxTimeout caps every request's timeout; zero is
	// protocol.MaxSupportedTimeout. The Runtime's Limits.Timeout, when
	// set, caps it too.
	MaxTimeout time.Duration
	// Native performs the requests of the outbound mode "native":
	// outbound.New(cfg).Fetch(), guarded. Nil vetoes the native mode:
	// a request asking for it gets a fetch that throws.
	Native protocol.FetchFunc
	// DefaultOutbound is the mode of a request that names none; empty
	// is "native" when Native is set, else "disabled".
	DefaultOutbound protocol.OutboundMode
}

// Executor returns an Executor on rt.
func (rt *Runtime) Executor(opts ExecutorOptions) *Executor {
	return &Executor{rt: rt, opts: opts, gates: map[string]*dispatchGate{}}
}

var _ protocol.Executor = (*Executor)(nil)
var _ protocol.Resumer = (*Executor)(nil)

// errExecutorClosed is the error of an Executor's calls after Close.
var errExecutorClosed = protocol.NewError(protocol.CodeShuttingDown, "codemode: the executor is closed")

// Execute runs one request. Failures of the program (a throw, a syntax
// error, a timeout, invalid providers or modules) are in the result, with
// the codes of the protocol (TIMEOUT, CANCELLED, INVALID_REQUEST, or none
// for the program's own); the error is the executor's own failure: it is
// closed (SHUTTING_DOWN), or the request asked for outbound "stub"
// without a Fetch (PROTOCOL_MISMATCH, as the seed's assertOutboundFetch).
//
// A request with Suspend runs on engine "vm" as a Program: closing
// Suspend saves the run at once (SuspendInterrupting), and the result
// is SUSPENDED with its state, which Resume continues.
func (e *Executor) Execute(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
	if e.isClosed() {
		return protocol.ExecuteResult{}, errExecutorClosed
	}
	if req.Outbound == protocol.OutboundStub && req.Fetch == nil {
		return protocol.ExecuteResult{}, protocol.NewError(protocol.CodeProtocolMismatch,
			`the request asks for outbound "stub" but gives no function to perform its requests`)
	}
	if msg := protocol.ValidateProviders(req.Providers); msg != "" {
		return invalidRequest(msg), nil
	}
	if err := req.Modules.Validate(); err != nil {
		return invalidRequest(err.Error()), nil
	}
	gate := newDispatchGate(req.Dispatch)
	opts := e.requestOptions(gate, req.Providers, req.Timeout, req.CountHostWaits, e.performer(req.Outbound, req.Fetch))
	if len(req.Modules) > 0 {
		opts = append(opts, WithModules(req.Modules))
	}
	var res Result
	switch {
	case req.Suspend != nil && !req.RetainHandles:
		out, err := e.runProgram(ctx, e.rt.Program(req.Code, opts...), req.Suspend)
		gate.close()
		if err != nil {
			return invalidRequest(err.Error()), nil
		}
		if out.IsSuspended() {
			return suspendedResult(out), nil
		}
		res = out.Result
	case req.RetainHandles:
		res = e.rt.Execute(ctx, req.Code, append(opts, WithRetain())...)
		gate.close()
		if res.ExecutionID != "" {
			e.mu.Lock()
			e.gates[res.ExecutionID] = gate
			e.mu.Unlock()
		}
	default:
		res = e.rt.Execute(ctx, req.Code, opts...)
		gate.close()
	}
	return executeResult(res), nil
}

// Resume continues a run an Execute saved (a SUSPENDED result's State),
// with the providers it was started with. A state that cannot be resumed
// here is an INVALID_REQUEST result naming the reason.
func (e *Executor) Resume(ctx context.Context, req protocol.ResumeRequest) (protocol.ExecuteResult, error) {
	if e.isClosed() {
		return protocol.ExecuteResult{}, errExecutorClosed
	}
	if msg := protocol.ValidateProviders(req.Providers); msg != "" {
		return invalidRequest(msg), nil
	}
	gate := newDispatchGate(req.Dispatch)
	mode := protocol.OutboundMode("")
	if req.Fetch != nil {
		mode = protocol.OutboundStub
	}
	opts := e.requestOptions(gate, req.Providers, req.Timeout, false, e.performer(mode, req.Fetch))
	out, err := e.runProgram(ctx, e.rt.Resume(req.State, opts...), req.Suspend)
	gate.close()
	if err != nil {
		return invalidRequest(err.Error()), nil
	}
	if out.IsSuspended() {
		return suspendedResult(out), nil
	}
	return executeResult(out.Result), nil
}

// runProgram runs p, saving it at once when suspend is closed.
func (e *Executor) runProgram(ctx context.Context, p *Program, suspend <-chan struct{}) (Outcome, error) {
	stop := make(chan struct{})
	defer close(stop)
	if suspend != nil {
		go func() {
			select {
			case <-suspend:
			case <-stop:
				return
			}
			// An extension call running prevents the save: try again
			// until it finished, or the run did.
			for {
				if _, err := p.SuspendInterrupting(ctx); err == nil || ctx.Err() != nil {
					return
				}
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}()
	}
	return p.Run(ctx)
}

// InvokeHandle calls a handle of an execution retained by this Executor
// (RetainHandles): the arguments are read as the seed's
// parseDispatchArguments reads them, its tool calls go to the
// execution's dispatch, and its result is shaped as Execute's. The
// request's default timeout applies.
func (e *Executor) InvokeHandle(ctx context.Context, executionID, handle, argsJSON string) (protocol.ExecuteResult, error) {
	if e.isClosed() {
		return protocol.ExecuteResult{}, errExecutorClosed
	}
	e.mu.Lock()
	gate := e.gates[executionID]
	e.mu.Unlock()
	if gate == nil {
		return protocol.ExecuteResult{}, ErrUnknownExecution
	}
	args, err := protocol.ParseDispatchArguments(argsJSON)
	if err != nil {
		return protocol.ExecuteResult{}, protocol.Errorf(protocol.CodeMalformedMessage, "the arguments of handle %s: %v", handle, err)
	}
	gate.reopen()
	defer gate.close()
	res, err := e.rt.InvokeHandle(ctx, executionID, handle, args, e.limits(protocol.Timeout{}, false))
	if err != nil {
		return protocol.ExecuteResult{}, err
	}
	return executeResult(res), nil
}

// CloseHandles releases an execution retained by this Executor.
func (e *Executor) CloseHandles(ctx context.Context, executionID string) error {
	e.mu.Lock()
	gate := e.gates[executionID]
	delete(e.gates, executionID)
	e.mu.Unlock()
	if gate == nil {
		return ErrUnknownExecution
	}
	return e.rt.CloseHandles(executionID)
}

// Close releases the executions this Executor retains; its later calls
// fail with SHUTTING_DOWN.
func (e *Executor) Close() error {
	e.mu.Lock()
	e.closed = true
	gates := e.gates
	e.gates = map[string]*dispatchGate{}
	e.mu.Unlock()
	for id := range gates {
		_ = e.rt.CloseHandles(id)
	}
	return nil
}

func (e *Executor) isClosed() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.closed
}

// performer is what performs a request's fetches in its outbound mode:
// nil for none (fetch throws).
func (e *Executor) performer(mode protocol.OutboundMode, stub protocol.FetchFunc) protocol.FetchFunc {
	if mode == "" {
		mode = e.opts.DefaultOutbound
	}
	if mode == "" && e.opts.Native != nil {
		mode = protocol.OutboundNative
	}
	switch mode {
	case protocol.OutboundNative:
		return e.opts.Native
	case protocol.OutboundStub:
		return stub
	}
	return nil
}

// requestOptions are a run's options from its request: its limits, its
// providers behind gate, and fetch's performer.
func (e *Executor) requestOptions(gate *dispatchGate, providers []protocol.ProviderDescriptor, t protocol.Timeout, countHostWaits bool, fetch protocol.FetchFunc) []ExecOption {
	opts := []ExecOption{e.limits(t, countHostWaits), WithFetch(fetch)}
	if len(providers) > 0 {
		opts = append(opts, WithProviders(providers, gate.call))
	}
	return opts
}

// limits are a request's limits: its timeout resolved against the
// Executor's default and cap, and never looser than the Runtime's.
func (e *Executor) limits(t protocol.Timeout, countHostWaits bool) ExecOption {
	timeout := t.Resolve(e.opts.DefaultTimeout, e.opts.MaxTimeout)
	base := e.rt.opts.Limits
	if base.Timeout > 0 && timeout > base.Timeout {
		timeout = base.Timeout
	}
	if base.CountHostWaits != nil && *base.CountHostWaits {
		countHostWaits = true
	}
	return WithLimits(Limits{Timeout: timeout, CountHostWaits: Bool(countHostWaits)})
}

// dispatchGate is a request's dispatch while its execution runs: once it
// is closed, calls get the seed's "Execution has already completed."
// without reaching the host.
type dispatchGate struct {
	mu       sync.RWMutex
	open     bool
	dispatch protocol.DispatchFunc
}

// newDispatchGate opens a gate on dispatch (nil: the seed's not-found
// answer).
func newDispatchGate(dispatch protocol.DispatchFunc) *dispatchGate {
	if dispatch == nil {
		dispatch = notFoundDispatch
	}
	return &dispatchGate{dispatch: dispatch, open: true}
}

func (g *dispatchGate) call(ctx context.Context, provider, tool, args string) string {
	g.mu.RLock()
	open := g.open
	g.mu.RUnlock()
	if !open {
		return protocol.ExecutionCompletedEnvelope
	}
	return g.dispatch(ctx, provider, tool, args)
}

func (g *dispatchGate) close() {
	g.mu.Lock()
	g.open = false
	g.mu.Unlock()
}

func (g *dispatchGate) reopen() {
	g.mu.Lock()
	g.open = true
	g.mu.Unlock()
}

// invalidRequest is the result of a request the executor refuses.
func invalidRequest(msg string) protocol.ExecuteResult {
	return protocol.ExecuteResult{Error: protocol.NewError(protocol.CodeInvalidRequest, msg)}
}

// suspendedResult is the result of a run saved instead of finished.
func suspendedResult(out Outcome) protocol.ExecuteResult {
	return protocol.ExecuteResult{State: out.Suspended.State, Error: protocol.NewError(protocol.CodeSuspended,
		"The run was saved instead of finished (the executor is shutting down); resume its state on another executor.")}
}

// executeResult shapes a Result as the contract's: the value's JSON, or
// the failure with its code, and the console lines with their levels.
// Warnings become warn lines.
func executeResult(res Result) protocol.ExecuteResult {
	out := protocol.ExecuteResult{ExecutionID: res.ExecutionID, Handles: res.Handles, Logs: LogLines(res.Logs)}
	if res.OK {
		out.Result = json.RawMessage(res.Value)
		if len(out.Result) == 0 {
			out.Result = json.RawMessage("null")
		}
	} else if res.Error != nil {
		out.Error = &protocol.Error{Code: diagnosticCode(res.Error.Kind), Message: res.Error.Message}
	}
	for _, w := range res.Warnings {
		out.Logs = append(out.Logs, protocol.LogLine{Level: protocol.LogLevelWarn, Text: "Warning: " + w.Message})
	}
	return out
}

// diagnosticCode is the protocol's code of a failure: none for the
// program's own.
func diagnosticCode(k Kind) protocol.Code {
	switch k {
	case TimeoutExceeded:
		return protocol.CodeTimeout
	case Cancelled:
		return protocol.CodeCancelled
	}
	return ""
}

// LogLines turns a Result's logs into the contract's lines, reading the
// level from the prefix console.warn, error and debug write ("[warn] ").
func LogLines(logs []string) []protocol.LogLine {
	if len(logs) == 0 {
		return nil
	}
	out := make([]protocol.LogLine, len(logs))
	for i, l := range logs {
		out[i] = protocol.LogLine{Level: protocol.LogLevelLog, Text: l}
		for _, level := range []string{protocol.LogLevelWarn, protocol.LogLevelError, protocol.LogLevelDebug} {
			if rest, ok := strings.CutPrefix(l, "["+level+"] "); ok {
				out[i] = protocol.LogLine{Level: level, Text: rest}
				break
			}
		}
	}
	return out
}
