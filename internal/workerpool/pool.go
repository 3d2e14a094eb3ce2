package workerpool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/go-codemode/codemode/protocol"
)

// The defaults of Config, the executor seed's PoolOptions.
const (
	// DefaultRetireAfterExecutions is how many runs a worker starts
	// before it is retired.
	DefaultRetireAfterExecutions = 50
	// DefaultWorkerMemoryLimit is the worker memory, in bytes, past
	// which a worker is retired: 512 MiB.
	DefaultWorkerMemoryLimit = 512 << 20
	// DefaultTerminationDelay is how long a worker that does not answer
	// survives past a run's timeout and grace (or past being asked to
	// exit) before it is killed.
	DefaultTerminationDelay = 5 * time.Second
)

// Config configures a [Pool]. A zero field takes the default its
// comment names.
type Config struct {
	// Command is the argv of a worker process, which must call [Serve]
	// on its stdin and stdout: [os.Args[0], "worker"] for `codemode
	// worker`. Required.
	Command []string
	// Env is the workers' environment; nil inherits the pool's.
	Env []string
	// Stderr, when set, receives a copy of the workers' standard error.
	// The pool keeps the end of it either way, and logs it when a
	// worker crashes.
	Stderr io.Writer
	// MaxWorkers bounds the worker processes running programs at once
	// (runtime.GOMAXPROCS(0)). A retired worker that only keeps retained
	// executions does not count.
	MaxWorkers int
	// ExecutionsPerWorker is how many runs one worker runs at a time
	// (1). Handle invocations do not take a slot.
	ExecutionsPerWorker int
	// RetireAfterExecutions is how many runs a worker starts before it is
	// retired ([DefaultRetireAfterExecutions]); negative never retires on
	// a count.
	RetireAfterExecutions int
	// WorkerMemoryLimit is the memory, in bytes, past which a worker is
	// retired ([DefaultWorkerMemoryLimit]): its resident set where the
	// system reports one, else its Go heap in use, as the worker
	// measures it after each run. Negative never retires on memory.
	WorkerMemoryLimit int64
	// TerminationDelay is how long past a run's timeout and Grace a
	// worker that has not answered survives before it is killed (its
	// runs then fail with WORKER_CRASHED); also how long a worker asked
	// to exit, or to cancel a run, has before it is killed
	// ([DefaultTerminationDelay]).
	TerminationDelay time.Duration
	// Grace is the time after a run's timeout during which the worker
	// may still answer (protocol.DefaultGrace).
	Grace time.Duration
	// DefaultTimeout and MaxTimeout resolve a request's timeout for the
	// pool's watchdog as the worker's executor resolves it, and should
	// equal its ExecutorOptions (zero: protocol.DefaultTimeout and
	// protocol.MaxSupportedTimeout). Handle invocations are watched with
	// DefaultTimeout.
	DefaultTimeout time.Duration
	MaxTimeout     time.Duration
	// HandlesIdleTimeout is how long a retained execution is kept
	// without an invocation before the pool closes it
	// (protocol.HandlesIdleTimeout). The worker's runtime has an idle
	// timeout of its own; the pool's lets a retired worker exit.
	HandlesIdleTimeout time.Duration
	// Logger receives the pool's events: spawns, retirements, crashes
	// with the end of the worker's stderr, kills. Nil discards them.
	Logger *slog.Logger
	// OnCrash is called once for every worker that dies without being
	// asked to (for metrics).
	OnCrash func()
}

// Pool runs executions in worker processes: a worker that dies, even of
// a Go fatal error, fails only the runs it was running (with
// WORKER_CRASHED results) and is replaced. It implements
// protocol.Executor and protocol.Resumer, and the server's Backend. Its
// methods are safe for concurrent use.
type Pool struct {
	cfg Config
	log *slog.Logger

	mu         sync.Mutex
	closed     bool
	workers    []*worker                // live, starting and stopping workers
	retained   map[string]*retainedExec // by public execution id
	changed    chan struct{}            // closed and replaced when a slot may have freed
	nextID     int                      // of requests on the pipes
	nextWorker int                      // of workers
	crashHook  func()

	// wg counts the goroutines the pool starts: one per worker (its
	// reader, which reaps the process) and one per tool call or fetch
	// being answered. Close waits for them.
	wg sync.WaitGroup
}

var (
	_ protocol.Executor = (*Pool)(nil)
	_ protocol.Resumer  = (*Pool)(nil)
)

// New returns a Pool. It starts no process: workers start when runs
// need them.
func New(cfg Config) (*Pool, error) {
	if len(cfg.Command) == 0 || cfg.Command[0] == "" {
		return nil, errors.New("workerpool: Config.Command is empty")
	}
	if cfg.MaxWorkers <= 0 {
		cfg.MaxWorkers = runtime.GOMAXPROCS(0)
	}
	if cfg.ExecutionsPerWorker <= 0 {
		cfg.ExecutionsPerWorker = 1
	}
	if cfg.RetireAfterExecutions == 0 {
		cfg.RetireAfterExecutions = DefaultRetireAfterExecutions
	}
	if cfg.WorkerMemoryLimit == 0 {
		cfg.WorkerMemoryLimit = DefaultWorkerMemoryLimit
	}
	if cfg.TerminationDelay <= 0 {
		cfg.TerminationDelay = DefaultTerminationDelay
	}
	if cfg.Grace <= 0 {
		cfg.Grace = protocol.DefaultGrace
	}
	if cfg.HandlesIdleTimeout <= 0 {
		cfg.HandlesIdleTimeout = protocol.HandlesIdleTimeout
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg.Command = append([]string(nil), cfg.Command...)
	return &Pool{cfg: cfg, log: log, retained: map[string]*retainedExec{}, changed: make(chan struct{})}, nil
}

// SetCrashHook sets a function called, besides Config.OnCrash, once
// for every worker that crashes: the server's CrashReporter.
func (p *Pool) SetCrashHook(hook func()) {
	p.mu.Lock()
	p.crashHook = hook
	p.mu.Unlock()
}

// errShuttingDown is the error of calls after Close.
var errShuttingDown = protocol.NewError(protocol.CodeShuttingDown, "workerpool: the pool is closed")

// errUnknownExecution is the error of InvokeHandle and CloseHandles for
// an execution the pool does not hold.
var errUnknownExecution = protocol.NewError(protocol.CodeUnknownExecution,
	"workerpool: no retained execution of that id: it was never retained, was closed, was released after its idle timeout, or its worker died")

// shutdownResult is the result of a run in flight when the pool closed.
var shutdownResult = protocol.ExecuteResult{Error: protocol.NewError(protocol.CodeShuttingDown,
	"The executor is shutting down; the run was stopped.")}

// Execute runs one program on a worker, waiting for a free slot first.
// A failure of the program, and the death of its worker
// (WORKER_CRASHED), are in the result; the error is the pool's own
// failure (closed: SHUTTING_DOWN; a worker that cannot start: INTERNAL)
// or the worker executor's (PROTOCOL_MISMATCH for a stub without
// Fetch). Cancelling ctx cancels the run, whose result is then
// CANCELLED; closing req.Suspend asks the run to save itself.
func (p *Pool) Execute(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
	id, err := p.requestID("r")
	if err != nil {
		return protocol.ExecuteResult{}, err
	}
	frame, res := startFrame(id, &protocol.ExecuteMessage{ID: id, Code: req.Code, Providers: req.Providers,
		Modules: req.Modules, Options: req.Options()}, req.Dispatch != nil, req.Fetch != nil, req.Suspend != nil,
		req.Providers, req.Modules)
	if frame == nil {
		return res, nil
	}
	return p.run(ctx, &call{id: id, kind: kindRun, dispatch: req.Dispatch, fetch: req.Fetch,
		limit: p.watchLimit(req.Timeout), countHostWaits: req.CountHostWaits}, frame, req.Suspend)
}

// Resume continues a saved run (a SUSPENDED result's State) on a
// worker, as Execute runs a program. Any worker of the same build can
// resume it.
func (p *Pool) Resume(ctx context.Context, req protocol.ResumeRequest) (protocol.ExecuteResult, error) {
	id, err := p.requestID("r")
	if err != nil {
		return protocol.ExecuteResult{}, err
	}
	frame, res := startFrame(id, &protocol.ResumeMessage{ID: id, State: req.State, Providers: req.Providers,
		Options: protocol.ExecuteOptions{Timeout: req.Timeout}}, req.Dispatch != nil, req.Fetch != nil,
		req.Suspend != nil, req.Providers, nil)
	if frame == nil {
		return res, nil
	}
	return p.run(ctx, &call{id: id, kind: kindRun, dispatch: req.Dispatch, fetch: req.Fetch,
		limit: p.watchLimit(req.Timeout)}, frame, req.Suspend)
}

// startFrame encodes the start message of a run, or returns the
// INVALID_REQUEST result of a request that does not encode (the checks
// the worker's executor would make, first).
func startFrame(id string, inner protocol.Message, dispatch, fetch, suspend bool,
	providers []protocol.ProviderDescriptor, modules protocol.ModuleMap) ([]byte, protocol.ExecuteResult) {
	b, err := protocol.Encode(inner)
	if err == nil {
		b, err = encodeMessage(&startMessage{Type: typeStart, ID: id, Request: b,
			Dispatch: dispatch, Fetch: fetch, Suspend: suspend})
	}
	if err == nil && len(b) <= maxFrame {
		return b, protocol.ExecuteResult{}
	}
	msg := ""
	switch {
	case protocol.ValidateProviders(providers) != "":
		msg = protocol.ValidateProviders(providers)
	case modules.Validate() != nil:
		msg = modules.Validate().Error()
	case err != nil:
		msg = err.Error()
	default:
		return nil, protocol.ExecuteResult{Error: protocol.Errorf(protocol.CodePayloadTooLarge,
			"The request is %d bytes, over the %d bytes a worker accepts.", len(b), maxFrame)}
	}
	return nil, protocol.ExecuteResult{Error: protocol.NewError(protocol.CodeInvalidRequest, msg)}
}

// watchLimit is how long a run of timeout t may compute before its
// worker is killed: the timeout as the worker resolves it, plus Grace
// and TerminationDelay.
func (p *Pool) watchLimit(t protocol.Timeout) time.Duration {
	return t.Resolve(p.cfg.DefaultTimeout, p.cfg.MaxTimeout) + p.cfg.Grace + p.cfg.TerminationDelay
}

// run takes a slot on a worker for c, sends its start frame and waits
// for its answer.
func (p *Pool) run(ctx context.Context, c *call, frame []byte, suspend <-chan struct{}) (protocol.ExecuteResult, error) {
	w, err := p.acquire(ctx, c)
	if err != nil {
		if ctx.Err() != nil && !errors.Is(err, errShuttingDown) {
			return protocol.ExecuteResult{Error: protocol.NewError(protocol.CodeCancelled,
				"The execution was cancelled before a worker took it.")}, nil
		}
		return protocol.ExecuteResult{}, err
	}
	w.sendOrBreak(frame)
	r := p.wait(ctx, c, suspend)
	return r.res, r.err
}

// InvokeHandle calls the function at path handle of a retained
// execution on the worker that holds it. Its tool calls go to the
// Dispatch of the request that retained it. An execution the pool does
// not hold (never retained, closed, idle too long, or its worker died)
// is an error of UNKNOWN_EXECUTION.
func (p *Pool) InvokeHandle(ctx context.Context, executionID, handle, argsJSON string) (protocol.ExecuteResult, error) {
	if handle == "" {
		return protocol.ExecuteResult{}, protocol.Errorf(protocol.CodeUnknownExecution,
			"workerpool: retained execution %s has no handle \"\"", executionID)
	}
	id := p.newID("i")
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return protocol.ExecuteResult{}, errShuttingDown
	}
	x := p.retained[executionID]
	if x == nil {
		p.mu.Unlock()
		return protocol.ExecuteResult{}, errUnknownExecution
	}
	frame, err := encodeMessage(&protocol.InvokeHandleMessage{ID: id, ExecutionID: x.inner, Handle: handle, Args: argsJSON})
	if err != nil || len(frame) > maxFrame {
		p.mu.Unlock()
		return protocol.ExecuteResult{}, protocol.Errorf(protocol.CodeInvalidRequest,
			"workerpool: the invocation cannot be sent to its worker (%d bytes): %v", len(frame), err)
	}
	x.busy++
	x.stopIdle()
	c := &call{id: id, kind: kindInvoke, dispatch: x.dispatch, fetch: x.fetch, exec: x,
		limit: p.watchLimit(protocol.Timeout{})}
	p.beginLocked(x.w, ctx, c)
	w := x.w
	p.mu.Unlock()
	w.sendOrBreak(frame)
	r := p.wait(ctx, c, nil)
	return r.res, r.err
}

// CloseHandles releases a retained execution on the worker that holds
// it. An execution the pool does not hold is an error of
// UNKNOWN_EXECUTION.
func (p *Pool) CloseHandles(ctx context.Context, executionID string) error {
	id := p.newID("c")
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return errShuttingDown
	}
	x := p.retained[executionID]
	if x == nil {
		p.mu.Unlock()
		return errUnknownExecution
	}
	c := &call{id: id, kind: kindClose, limit: p.watchLimit(protocol.Timeout{})}
	p.beginLocked(x.w, ctx, c)
	p.dropRetainedLocked(x)
	w := x.w
	p.mu.Unlock()
	w.sendOrBreak(mustEncode(&protocol.CloseHandlesMessage{ID: id, ExecutionID: x.inner}))
	select {
	case r := <-c.done:
		return r.err
	case <-ctx.Done():
		// The execution is no longer the caller's; the worker's answer
		// settles the call.
		return protocol.NewError(protocol.CodeCancelled, "workerpool: closing the retained execution was cancelled")
	}
}

// Close shuts the pool down: runs and invocations in flight end at once
// with SHUTTING_DOWN results, retained executions are gone, every
// worker is asked to exit (its stdin is closed) and killed after
// TerminationDelay, and later calls fail with SHUTTING_DOWN. Close
// returns once every worker process has been reaped and every
// goroutine of the pool has ended, including the Dispatch and Fetch
// calls in flight, whose contexts are cancelled.
func (p *Pool) Close() error {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		for _, w := range p.workers {
			for _, c := range w.callList() {
				p.settleLocked(c, c.failure(shutdownResult.Error))
			}
		}
		for _, x := range p.retained {
			p.dropRetainedLocked(x)
		}
		for _, w := range p.workers {
			w.stopLocked()
		}
		p.signalLocked()
	}
	p.mu.Unlock()
	p.wg.Wait()
	return nil
}

// WorkerInfo describes one worker process.
type WorkerInfo struct {
	// ID names the worker in logs and prefixes the ids of its retained
	// executions.
	ID string
	// PID is the process id; zero while the process starts.
	PID int
	// Running is how many runs it runs now; Executions how many it has
	// started.
	Running, Executions int
	// Retained is how many retained executions it holds.
	Retained int
	// Retiring is true once it takes no new runs; Stopping once it has
	// been asked to exit.
	Retiring, Stopping bool
	// Memory is the memory it last reported, in bytes.
	Memory uint64
}

// Workers describes the pool's worker processes, in the order they
// started.
func (p *Pool) Workers() []WorkerInfo {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]WorkerInfo, 0, len(p.workers))
	for _, w := range p.workers {
		out = append(out, WorkerInfo{ID: w.id, PID: w.pid, Running: w.running, Executions: w.executions,
			Retained: w.retained, Retiring: w.retiring, Stopping: w.stopping, Memory: w.memory})
	}
	return out
}

// newID returns a fresh request id with the given prefix, unique in
// the pool.
func (p *Pool) newID(prefix string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.newIDLocked(prefix)
}

func (p *Pool) newIDLocked(prefix string) string {
	p.nextID++
	return prefix + strconv.Itoa(p.nextID)
}

// requestID is newID for a new run, refused once the pool is closed.
func (p *Pool) requestID(prefix string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return "", errShuttingDown
	}
	return p.newIDLocked(prefix), nil
}

// signalLocked wakes the requests waiting for a slot.
func (p *Pool) signalLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// acquire takes a run slot for c on a worker that has one, starting a
// worker when none has and fewer than MaxWorkers run, or waits until
// one frees, ctx ends or the pool closes. c is registered on the worker
// it returns.
func (p *Pool) acquire(ctx context.Context, c *call) (*worker, error) {
	p.mu.Lock()
	for {
		if p.closed {
			p.mu.Unlock()
			return nil, errShuttingDown
		}
		if w := p.freeWorkerLocked(); w != nil {
			p.takeSlotLocked(w)
			p.beginLocked(w, ctx, c)
			p.mu.Unlock()
			return w, nil
		}
		if p.activeWorkersLocked() < p.cfg.MaxWorkers {
			w := p.newWorkerLocked()
			p.takeSlotLocked(w)
			p.mu.Unlock()
			err := w.start()
			p.mu.Lock()
			w.starting = false
			if err != nil {
				p.removeWorkerLocked(w)
				p.wg.Done() // the reader that will not run
				p.signalLocked()
				p.mu.Unlock()
				p.log.Error("workerpool: cannot start a worker", "worker", w.id, "err", err)
				return nil, protocol.Errorf(protocol.CodeInternal, "workerpool: cannot start a worker: %v", err)
			}
			p.log.Debug("workerpool: worker started", "worker", w.id, "pid", w.pid)
			if w.dead { // it died at once, and its reader has reaped it
				p.mu.Unlock()
				return nil, protocol.Errorf(protocol.CodeInternal,
					"workerpool: the worker process exited as it started (see the log for its stderr)")
			}
			if p.closed {
				w.running-- // the slot taken above; the run will not start
				w.stopLocked()
				p.mu.Unlock()
				return nil, errShuttingDown
			}
			p.beginLocked(w, ctx, c)
			p.signalLocked() // its other slots are free
			p.mu.Unlock()
			return w, nil
		}
		changed := p.changed
		p.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		p.mu.Lock()
	}
}

// freeWorkerLocked returns a started worker that takes runs and has a
// free slot, or nil.
func (p *Pool) freeWorkerLocked() *worker {
	for _, w := range p.workers {
		if !w.starting && !w.retiring && !w.stopping && !w.dead && w.running < p.cfg.ExecutionsPerWorker {
			return w
		}
	}
	return nil
}

// activeWorkersLocked counts the workers that count against MaxWorkers:
// those that take runs or still run some.
func (p *Pool) activeWorkersLocked() int {
	n := 0
	for _, w := range p.workers {
		if !w.dead && !w.stopping && (!w.retiring || w.running > 0) {
			n++
		}
	}
	return n
}

// takeSlotLocked counts a run started on w, and retires w when that was
// its last.
func (p *Pool) takeSlotLocked(w *worker) {
	w.running++
	w.executions++
	if n := p.cfg.RetireAfterExecutions; n > 0 && w.executions >= n && !w.retiring {
		w.retiring = true
		p.log.Info("workerpool: retiring a worker", "worker", w.id, "pid", w.pid, "reason", "executions", "executions", w.executions)
	}
}

// newWorkerLocked adds a worker that is about to start. Its reader
// goroutine is counted in wg from here, so that Close waits for a
// worker that starts while it closes.
func (p *Pool) newWorkerLocked() *worker {
	p.nextWorker++
	w := &worker{p: p, id: "w" + strconv.Itoa(p.nextWorker), starting: true, calls: map[string]*call{},
		stderr: &stderrTail{}}
	w.stderr.copy = p.cfg.Stderr
	p.workers = append(p.workers, w)
	p.wg.Add(1)
	return w
}

func (p *Pool) removeWorkerLocked(w *worker) {
	for i, x := range p.workers {
		if x == w {
			p.workers = append(p.workers[:i], p.workers[i+1:]...)
			return
		}
	}
}

// maybeStopLocked asks w to exit once it is retiring (or the pool
// closed) and has nothing left to do: no request in flight and no
// retained execution.
func (p *Pool) maybeStopLocked(w *worker) {
	if (w.retiring || p.closed) && !w.starting && len(w.calls) == 0 && w.retained == 0 {
		w.stopLocked()
	}
}

// noteMemoryLocked records a memory report of w and retires w when it
// is over the limit.
func (p *Pool) noteMemoryLocked(w *worker, m *memoryMessage) {
	w.memory = m.used()
	if lim := p.cfg.WorkerMemoryLimit; lim > 0 && w.memory > uint64(lim) && !w.retiring {
		w.retiring = true
		p.log.Info("workerpool: retiring a worker", "worker", w.id, "pid", w.pid, "reason", "memory",
			"memory", w.memory, "limit", lim)
		p.signalLocked()
	}
}

// retainedExec is an execution a worker retains for its handles.
type retainedExec struct {
	id    string // public: the worker's id, "-", the worker's own id
	inner string // the worker's
	w     *worker
	// dispatch and fetch answer the tool calls and fetches of its
	// invocations: the retaining request's.
	dispatch protocol.DispatchFunc
	fetch    protocol.FetchFunc
	// busy counts invocations in flight; the idle timer runs while it
	// is zero. gen invalidates a timer that fired late.
	busy int
	idle *time.Timer
	gen  int
}

func (x *retainedExec) stopIdle() {
	x.gen++
	if x.idle != nil {
		x.idle.Stop()
	}
}

// retainLocked records that the run c retained the worker's execution
// inner, and returns its public id.
func (p *Pool) retainLocked(c *call, inner string) string {
	w := c.w
	x := &retainedExec{id: w.id + "-" + inner, inner: inner, w: w, dispatch: c.dispatch, fetch: c.fetch}
	p.retained[x.id] = x
	w.retained++
	p.armIdleLocked(x)
	return x.id
}

// armIdleLocked starts x's idle timer: when it fires the pool forgets x
// and closes it on its worker.
func (p *Pool) armIdleLocked(x *retainedExec) {
	x.stopIdle()
	gen := x.gen
	x.idle = time.AfterFunc(p.cfg.HandlesIdleTimeout, func() { p.expireIdle(x, gen) })
}

func (p *Pool) expireIdle(x *retainedExec, gen int) {
	p.mu.Lock()
	if p.retained[x.id] != x || x.gen != gen || x.busy > 0 {
		p.mu.Unlock()
		return
	}
	p.log.Debug("workerpool: closing an idle retained execution", "execution", x.id)
	w := x.w
	p.dropRetainedLocked(x)
	if w.stopping || w.dead {
		p.mu.Unlock() // a worker that exits releases it anyway
		return
	}
	c := &call{id: p.newIDLocked("c"), kind: kindClose, limit: p.watchLimit(protocol.Timeout{})}
	p.beginLocked(w, context.Background(), c)
	p.mu.Unlock()
	w.sendOrBreak(mustEncode(&protocol.CloseHandlesMessage{ID: c.id, ExecutionID: x.inner}))
}

// dropRetainedLocked forgets x, and stops its worker if it was the
// worker's last reason to live.
func (p *Pool) dropRetainedLocked(x *retainedExec) {
	if p.retained[x.id] != x {
		return
	}
	delete(p.retained, x.id)
	x.stopIdle()
	x.w.retained--
	p.maybeStopLocked(x.w)
}

// mustEncode encodes a message the pool builds itself, which always
// encodes.
func mustEncode(m any) []byte {
	b, err := encodeMessage(m)
	if err != nil {
		panic(fmt.Sprintf("workerpool: encoding %T: %v", m, err))
	}
	return b
}
