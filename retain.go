package codemode

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/value"
)

// Retained runs (the executor seed's retainHandles): a program may return
// functions (`return { increment: n => count += n }`), which JSON cannot
// carry. With WithRetain, such a run is kept after it returns: its Result
// names it (ExecutionID) and lists the functions' paths in the value
// (Handles), and InvokeHandle calls one later, in the same heap, as a new
// phase of the run with its own deadline and tool calls. CloseHandles
// releases it; so does HandlesIdleTimeout without an invocation.

// WithRetain keeps the run when its value holds functions, so that
// InvokeHandle can call them. A run whose value holds none, or that
// fails, is not kept. Retained runs hold their heap until CloseHandles or
// Options.HandlesIdleTimeout; Options.MaxRetained bounds how many a
// Runtime keeps.
func WithRetain() ExecOption {
	return func(c *execConfig) { c.retain = true }
}

// DefaultHandlesIdleTimeout is how long a retained run is kept without an
// invocation when Options.HandlesIdleTimeout is zero: five minutes, the
// executor seed's handlesIdleTimeout.
const DefaultHandlesIdleTimeout = protocol.HandlesIdleTimeout

// DefaultMaxRetained bounds the retained runs of a Runtime when
// Options.MaxRetained is zero.
const DefaultMaxRetained = 1000

// maxHandles bounds the functions one value may name.
const maxHandles = 1000

// ErrUnknownExecution is the error of InvokeHandle and CloseHandles for
// an execution that is not retained: never, or no longer (closed, or
// released after its idle timeout). It wraps a *protocol.Error of code
// UNKNOWN_EXECUTION.
var ErrUnknownExecution = protocol.NewError(protocol.CodeUnknownExecution, "codemode: no retained execution of that id: it was never retained, was closed, or was released after its idle timeout")

// retainedRun is a run kept for its handles.
type retainedRun struct {
	id string
	// mu makes invocations take turns; it guards s, closed and the timer.
	mu      sync.Mutex
	s       *session
	handles map[string]handleFunc
	closed  bool
	idle    *time.Timer
}

// handleFunc is one function of a retained value and the object that
// holds it (its `this`).
type handleFunc struct {
	fn   *value.Object
	this value.Value
}

// retainedSet is a Runtime's retained runs.
type retainedSet struct {
	mu   sync.Mutex
	runs map[string]*retainedRun
}

// retain keeps the session s, whose value v holds functions, and names
// it in res; it reports false (and keeps nothing) when v holds none.
func (rt *Runtime) retain(s *session, v value.Value, res *Result) bool {
	paths, fns := findHandles(s.run.Realm(), v)
	if len(paths) == 0 {
		return false
	}
	rt.retained.mu.Lock()
	defer rt.retained.mu.Unlock()
	max := rt.opts.MaxRetained
	if max == 0 {
		max = DefaultMaxRetained
	}
	if len(rt.retained.runs) >= max {
		res.Warnings = append(res.Warnings, Diagnostic{Kind: ExecutionFailure, Message: fmt.Sprintf(
			"The run's functions were not kept: this host already keeps %d retained runs (Options.MaxRetained); close some with CloseHandles.", max)})
		return false
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	rr := &retainedRun{id: "x-" + hex.EncodeToString(b[:]), s: s, handles: fns}
	if rt.retained.runs == nil {
		rt.retained.runs = map[string]*retainedRun{}
	}
	rt.retained.runs[rr.id] = rr
	rr.idle = time.AfterFunc(rt.handlesIdleTimeout(), func() { _ = rt.CloseHandles(rr.id) })
	res.ExecutionID, res.Handles = rr.id, paths
	return true
}

func (rt *Runtime) handlesIdleTimeout() time.Duration {
	if d := rt.opts.HandlesIdleTimeout; d > 0 {
		return d
	}
	return DefaultHandlesIdleTimeout
}

// findHandles lists the functions in v by path: v itself ("$"), the own
// enumerable data properties of objects ("a.b", `["odd key"]`) and the
// elements of arrays ("list[2]"), as deep as a value may cross the
// boundary. Getters are not run.
func findHandles(r *value.Realm, v value.Value) ([]string, map[string]handleFunc) {
	var paths []string
	fns := map[string]handleFunc{}
	seen := map[*value.Object]bool{}
	var walk func(v, this value.Value, path string, depth int)
	walk = func(v, this value.Value, path string, depth int) {
		o := v.AsObject()
		if o == nil || len(paths) >= maxHandles || depth > MaxValueDepth || seen[o] {
			return
		}
		if o.Callable() {
			if o.Class == value.ClassHost {
				return // a tool reference is the host's, not the program's
			}
			name := path
			if name == "" {
				name = "$"
			}
			paths = append(paths, name)
			fns[name] = handleFunc{fn: o, this: this}
			return
		}
		seen[o] = true
		switch o.Class {
		case value.ClassArray:
			arr := o.Array()
			for i := range arr.Len() {
				e, _ := arr.Get(i)
				walk(e, v, path+"["+strconv.Itoa(i)+"]", depth+1)
			}
		case value.ClassObject:
			o.EachOwn(func(p *value.Property) {
				if p.IsAccessor() || p.Flags&value.Enumerable == 0 || value.IsSymbolKey(p.Key) || value.IsPrivateKey(p.Key) {
					return
				}
				walk(p.Value, v, joinHandlePath(path, value.KeyString(p.Key)), depth+1)
			})
		}
	}
	walk(v, value.Undefined, "", 0)
	return paths, fns
}

// joinHandlePath appends a key to a handle path: .key for an identifier,
// ["key"] otherwise.
func joinHandlePath(path, key string) string {
	if isIdentifierName(key) {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	q, _ := json.Marshal(key)
	return path + "[" + string(q) + "]"
}

func isIdentifierName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// lookupRetained finds a retained run by id.
func (rt *Runtime) lookupRetained(id string) *retainedRun {
	rt.retained.mu.Lock()
	defer rt.retained.mu.Unlock()
	return rt.retained.runs[id]
}

// Memory: a run counts what it allocates, not what it holds (the
// engines cannot see what Go's collector frees), and a retained run's
// count goes on across its invocations. So what a run keeps can never
// outgrow its budget, however often it is invoked; the price is that a
// handle invoked many times ends with MemoryLimitExceeded, and the run is
// then released.

// InvokeHandle calls the function at path handle of the retained run id
// (WithRetain) with args, copied in as JSON values ([]byte as a
// Uint8Array), and returns its Result once the value it returns has
// settled. The call runs in the run's own heap, as a new phase of the
// run: the Runtime's limits apply afresh (opts may tighten them with
// WithLimits, and stream with OnLog), its tool calls go to the run's
// tools and providers, and the Result has the logs and tool calls of this
// invocation only. Invocations of one run take turns.
//
// Its error is ErrUnknownExecution for an id that is not retained, or an
// error naming the handle when the run has no function at that path.
func (rt *Runtime) InvokeHandle(ctx context.Context, id, handle string, args []any, opts ...ExecOption) (res Result, err error) {
	rr := rt.lookupRetained(id)
	if rr == nil {
		return Result{}, ErrUnknownExecution
	}
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if rr.closed {
		return Result{}, ErrUnknownExecution
	}
	h, ok := rr.handles[handle]
	if !ok {
		names := make([]string, 0, len(rr.handles))
		for n := range rr.handles {
			names = append(names, n)
		}
		return Result{}, protocol.Errorf(protocol.CodeUnknownExecution, "codemode: retained execution %s has no handle %q; its handles are: %s", id, handle, strings.Join(sortedStrings(names), ", "))
	}
	rr.idle.Stop()
	defer rr.idle.Reset(rt.handlesIdleTimeout())
	var cfg execConfig
	for _, o := range opts {
		o(&cfg)
	}
	s := rr.s
	limits := rt.opts.Limits
	if cfg.limits != nil {
		if limits, err = tighten(limits, *cfg.limits); err != nil {
			return Result{Error: &Diagnostic{Kind: ExecutionFailure, Message: err.Error()}}, nil
		}
	}
	start := time.Now()
	deadline, timeoutMsg := runDeadline(ctx, start, limits.Timeout)
	if limits.pausesHostWaits() {
		deadline, timeoutMsg = runDeadline(context.Background(), start, limits.Timeout)
	}
	var runCtx context.Context
	var cancel context.CancelFunc
	if !deadline.IsZero() && !limits.pausesHostWaits() {
		runCtx, cancel = context.WithDeadline(ctx, deadline)
	} else {
		runCtx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	r := s.run.Realm()
	r.OnLog = nil
	if f := cfg.onLog; f != nil {
		r.OnLog = func(line string) {
			defer func() { _ = recover() }()
			f(line)
		}
	}
	defer func() { r.OnLog = nil }()
	s.run.Rearm(runCtx, engine.Options{Deadline: deadline, TimeoutMessage: timeoutMsg, PauseHostWaits: limits.pausesHostWaits()})
	s.th.reopen(runCtx, cancel)
	s.start, s.used, s.limits = start, 0, limits
	s.keep = -1
	if limits.MaxToolCalls != nil {
		s.th.limit = *limits.MaxToolCalls
	} else {
		s.th.limit = -1
	}
	if limits.MaxOutputBytes != nil {
		s.keep = *limits.MaxOutputBytes
	}
	logsBefore, warningsBefore := len(r.Logs), len(s.run.Warnings())
	defer func() {
		if p := recover(); p != nil {
			res, err = internalErrorResult(p, s), nil
		}
	}()
	if ctx.Err() != nil {
		s.th.end()
		return Result{Error: contextDiagnostic(ctx, timeoutMsg)}, nil
	}
	var argv []value.Value
	var fail *engine.Failure
	v, p := value.Undefined, (*value.Object)(nil)
	if exc := r.Try(func() {
		for _, a := range args {
			av, cerr := goToValue(r, markBinary(a), 0)
			if cerr == errNeedsJSON {
				av, cerr = jsonRoundTrip(r, a)
			}
			if cerr != nil {
				r.ThrowType("argument %d of handle %s cannot be passed to the program: %v", len(argv)+1, handle, cerr)
			}
			argv = append(argv, av)
		}
	}); exc != nil {
		fail = &engine.Failure{Exception: exc}
	} else {
		v, p, fail = s.run.Invoke(h.fn, h.this, argv)
	}
	res, _ = finishValue(s.run, v, p, fail, s.keep)
	s.warnFrom = warningsBefore
	res = s.result(res)
	res.Logs = res.Logs[min(logsBefore, len(res.Logs)):]
	if len(res.Logs) == 0 {
		res.Logs = nil
	}
	if res.Error != nil && res.Error.Kind == MemoryLimitExceeded {
		// The count only grows: every later invocation would fail too.
		// The run is released now rather than at its idle timeout.
		res.Error.Message += " A retained run counts what all its invocations allocate, so this one is released: run the program again for new handles."
		rt.retained.mu.Lock()
		delete(rt.retained.runs, id)
		rt.retained.mu.Unlock()
		rr.closed = true
		rr.idle.Stop()
		s.close()
	}
	return res, nil
}

// CloseHandles releases the retained run id, waiting for an invocation
// in progress to end. Its error is ErrUnknownExecution for an id that is
// not retained.
func (rt *Runtime) CloseHandles(id string) error {
	rt.retained.mu.Lock()
	rr := rt.retained.runs[id]
	delete(rt.retained.runs, id)
	rt.retained.mu.Unlock()
	if rr == nil {
		return ErrUnknownExecution
	}
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if rr.closed {
		return ErrUnknownExecution
	}
	rr.closed = true
	rr.idle.Stop()
	rr.s.close()
	return nil
}

// Retained lists the ids of the runs the Runtime keeps, sorted.
func (rt *Runtime) Retained() []string {
	rt.retained.mu.Lock()
	defer rt.retained.mu.Unlock()
	ids := make([]string, 0, len(rt.retained.runs))
	for id := range rt.retained.runs {
		ids = append(ids, id)
	}
	return sortedStrings(ids)
}

// sortedStrings sorts ss in place and returns it.
func sortedStrings(ss []string) []string {
	slices.Sort(ss)
	return ss
}
