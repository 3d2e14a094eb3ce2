package remote

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/go-codemode/codemode/protocol"
)

// Executor runs programs on a `codemode serve` server: the executor
// contract (protocol.Executor and protocol.Resumer) over the wire
// protocol. It holds one live session at a time, opening, rotating and
// reopening sessions as the Options say. It is safe for concurrent use.
type Executor struct {
	url string
	cfg config

	ctx    context.Context // ends at Close: aborts opens and backoffs
	cancel context.CancelFunc
	wg     sync.WaitGroup // every goroutine of the Executor

	// sleep waits out a backoff; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error

	mu       sync.Mutex
	closed   bool
	seq      uint64 // sessions opened, for logs
	current  *session
	opening  *opening
	sessions map[*session]struct{}
	retained map[string]*retained
	lost     error // the current session was lost (for Reconnect.Disabled)
}

var (
	_ protocol.Executor = (*Executor)(nil)
	_ protocol.Resumer  = (*Executor)(nil)
)

// opening is a session being opened; the calls that need one wait for
// it.
type opening struct {
	done chan struct{}
	s    *session
	err  error
}

// retained is an execution a session retained: invocations go to that
// session, and their tool calls to the handlers of the request that
// retained it.
type retained struct {
	s     *session
	h     handlers
	timer *time.Timer // forgets the execution once the server has
}

// Dial opens a session to the executor server at url (ws:// or wss://)
// and returns an executor implementing protocol.Executor and
// protocol.Resumer. ctx bounds the opening of this first session, which
// is tried once: Options.Reconnect governs the sessions opened later.
// A refusal is an *protocol.Error: PROTOCOL_MISMATCH (the versions
// differ), CONNECTION_REJECTED (the token was refused), SHUTTING_DOWN
// (the server drains); a connection that fails is CONNECTION_LOST
// ([CodeConnectionLost]).
func Dial(ctx context.Context, url string, opts Options) (*Executor, error) {
	cfg, err := newConfig(url, opts)
	if err != nil {
		return nil, err
	}
	e := &Executor{url: url, cfg: cfg, sleep: sleepCtx,
		sessions: map[*session]struct{}{}, retained: map[string]*retained{}}
	e.ctx, e.cancel = context.WithCancel(context.Background())
	s, err := e.dial(ctx)
	if err != nil {
		e.cancel()
		return nil, err
	}
	e.mu.Lock()
	e.current = s
	e.mu.Unlock()
	return e, nil
}

// URL returns the server's URL.
func (e *Executor) URL() string { return e.url }

// Execute runs one program on the server and returns its result. The
// request's Timeout, Modules and Outbound, when absent, are the
// Options'; its CountHostWaits is or-ed with theirs. Suspend is not
// used: the server decides when a run is saved.
//
// The program's tool calls reach req.Dispatch, concurrently, each in a
// goroutine of its own, with a context that carries ctx's values and
// ends when the run ends (its answer arrives, or ctx ends) or the
// session dies; a nil Dispatch answers every call
// {"error":"Tool \"provider.tool\" not found"}, and a Dispatch that
// panics or answers something that is not an envelope answers an error
// envelope. In the outbound mode stub, the program's fetches reach
// req.Fetch the same way.
//
// As with codemode.Executor, every result the server sends is the
// result, whatever its error code (none for a failure of the program,
// TIMEOUT, CANCELLED, INVALID_REQUEST, PAYLOAD_TOO_LARGE, WORKER_CRASHED,
// SHUTTING_DOWN, INTERNAL...). The error is the executor's failure that
// no result carries: the server's error messages (QUEUE_OVERFLOW,
// SHUTTING_DOWN, PAYLOAD_TOO_LARGE, MALFORMED_MESSAGE, WORKER_CRASHED...),
// PROTOCOL_MISMATCH for outbound stub without a Fetch,
// PAYLOAD_TOO_LARGE for a request over Options.MaxFrameBytes (not sent),
// CONNECTION_LOST when no session could be opened or the session died
// before the answer, SHUTTING_DOWN after Close, and CANCELLED when ctx
// ended before the request was sent or the server did not answer its
// cancel in time. A request the server refused with SHUTTING_DOWN (it
// did not start) is sent once more, to a new session, unless
// reconnection is disabled; no other request is ever sent twice.
//
// When ctx ends while the run goes on, Execute sends a cancel and waits
// (a few seconds at most) for the server's answer: a result of code
// CANCELLED, or the value of a run that finished meanwhile.
//
// A SUSPENDED result (the server drained while the run waited on a
// tool) is resumed on a new session, see Options.ResumeSuspended: the
// result is then the resumed run's, and the tool call the drain cut off
// reaches Dispatch again. When no session takes the resume, the
// SUSPENDED result is returned, State set, its message saying why.
func (e *Executor) Execute(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
	if err := e.checkOpen(); err != nil {
		return protocol.ExecuteResult{}, err
	}
	timeout := req.Timeout
	if timeout.IsZero() {
		timeout = e.cfg.Timeout
	}
	modules := req.Modules
	if modules == nil {
		modules = e.cfg.Modules
	}
	outbound := req.Outbound
	if outbound == "" {
		outbound = e.cfg.Outbound
	}
	if outbound == protocol.OutboundStub && req.Fetch == nil {
		return protocol.ExecuteResult{}, protocol.NewError(protocol.CodeProtocolMismatch,
			`remote: the request asks for outbound "stub" but gives no Fetch to perform its requests`)
	}
	if err := modules.Validate(); err != nil {
		return protocol.ExecuteResult{Error: protocol.NewError(protocol.CodeInvalidRequest, err.Error())}, nil
	}
	msg := protocol.ExecuteMessage{Code: req.Code, Providers: req.Providers, Modules: modules,
		Options: protocol.ExecuteOptions{Timeout: timeout, CountHostWaits: req.CountHostWaits || e.cfg.countHostWaits,
			RetainHandles: req.RetainHandles, Outbound: outbound}}
	h := handlers{dispatch: req.Dispatch, fetch: req.Fetch}
	res, _, err := e.run(ctx, kindExecute, h, func(id string) protocol.Message {
		m := msg
		m.ID = id
		return &m
	})
	if err != nil {
		return protocol.ExecuteResult{}, err
	}
	return e.resumeSuspended(ctx, res, req.Providers, timeout, h)
}

// Resume continues a run saved in a SUSPENDED result's State, on a live
// session (any server of the deployment that shares the snapshot key).
// The providers must be those of the original request; Dispatch and
// Fetch answer the resumed run's calls. Timeout, when absent, is
// Options.Timeout; it counts the run's earlier active time. The result
// and the error are as Execute's, and a resumed run suspended again is
// resumed as Execute's is.
func (e *Executor) Resume(ctx context.Context, req protocol.ResumeRequest) (protocol.ExecuteResult, error) {
	if err := e.checkOpen(); err != nil {
		return protocol.ExecuteResult{}, err
	}
	timeout := req.Timeout
	if timeout.IsZero() {
		timeout = e.cfg.Timeout
	}
	h := handlers{dispatch: req.Dispatch, fetch: req.Fetch}
	res, _, err := e.run(ctx, kindResume, h, resumeMessage(req.State, req.Providers, timeout))
	if err != nil {
		return protocol.ExecuteResult{}, err
	}
	return e.resumeSuspended(ctx, res, req.Providers, timeout, h)
}

func resumeMessage(state []byte, providers []protocol.ProviderDescriptor, timeout protocol.Timeout) func(string) protocol.Message {
	return func(id string) protocol.Message {
		return &protocol.ResumeMessage{ID: id, State: state, Providers: providers,
			Options: protocol.ExecuteOptions{Timeout: timeout}}
	}
}

// resumeSuspended resumes res on a new session while it is SUSPENDED,
// at most MaxResumes times, when the Options say so.
func (e *Executor) resumeSuspended(ctx context.Context, res protocol.ExecuteResult, providers []protocol.ProviderDescriptor,
	timeout protocol.Timeout, h handlers) (protocol.ExecuteResult, error) {
	for n := 0; e.cfg.resumeSuspended && suspended(res); n++ {
		if n == MaxResumes {
			e.cfg.log.Warn("a run was suspended too often; returning its state", "resumes", n)
			break
		}
		e.cfg.log.Info("resuming a suspended run on a new session", "resume", n+1)
		next, sent, err := e.run(ctx, kindResume, h, resumeMessage(res.State, providers, timeout))
		if err != nil {
			if sent {
				return protocol.ExecuteResult{}, err // it may have run on: its state is stale
			}
			// No server took the saved run: its state is still good.
			res.Error = protocol.Errorf(protocol.CodeSuspended, "%s (resuming it failed: %v)", res.Error.Message, err)
			return res, nil
		}
		res = next
	}
	return res, nil
}

func suspended(res protocol.ExecuteResult) bool {
	return res.Error != nil && res.Error.Code == protocol.CodeSuspended && len(res.State) > 0
}

// run sends the execute or resume msg makes of an id on a live session
// and waits for its answer. sent tells whether the request may have
// reached a server. A refusal SHUTTING_DOWN (the request did not start)
// is sent once more, to a new session.
func (e *Executor) run(ctx context.Context, kind string, h handlers, msg func(id string) protocol.Message) (res protocol.ExecuteResult, sent bool, err error) {
	if ctx.Err() != nil {
		return protocol.ExecuteResult{}, false, cancelled(ctx, "the request was cancelled before it was sent")
	}
	for attempt := 0; ; attempt++ {
		c := newCall(ctx, kind, h)
		s, err := e.acquire(ctx, c)
		if err != nil {
			c.cancel(err)
			return protocol.ExecuteResult{}, false, err
		}
		a, sent := e.roundTrip(ctx, s, c, msg(c.id))
		if a.refused && protocol.CodeOf(a.err) == protocol.CodeShuttingDown && attempt == 0 && !e.cfg.reconnect.Disabled {
			e.cfg.log.Info("the server refused the request as it drains; sending it to a new session", "kind", kind)
			continue
		}
		if a.refused {
			sent = false
		}
		if a.err != nil {
			return protocol.ExecuteResult{}, sent, a.err
		}
		return a.res.Result(), true, nil
	}
}

// acquire registers c on a live session, opening one when there is
// none, and counts the execution for rotation.
func (e *Executor) acquire(ctx context.Context, c *call) (*session, error) {
	died := 0 // sessions opened for c that died before c could use them
	for {
		e.mu.Lock()
		if e.closed {
			e.mu.Unlock()
			return nil, errClosed
		}
		if s := e.current; s != nil && s.usable() {
			s.register(c)
			s.runs++
			if e.cfg.rotate > 0 && s.runs >= e.cfg.rotate {
				s.log.Debug("rotating: the session ran its executions", "executions", s.runs)
				e.retireLocked(s)
			}
			e.mu.Unlock()
			return s, nil
		}
		if e.lost != nil && e.cfg.reconnect.Disabled {
			err := e.lost
			e.mu.Unlock()
			return nil, fmt.Errorf("%w (reconnection is disabled)", err)
		}
		if died == maxOpenRounds {
			e.mu.Unlock()
			return nil, connLost(nil, "the sessions with %s closed as soon as they opened", e.url)
		}
		op := e.opening
		if op == nil {
			op = &opening{done: make(chan struct{})}
			e.opening = op
			e.wg.Go(func() { e.open(op) })
		}
		e.mu.Unlock()
		select {
		case <-op.done:
			if op.err != nil {
				return nil, op.err
			}
			e.mu.Lock()
			if op.s.dead {
				died++ // and not merely taken by the other calls, and rotated
			}
			e.mu.Unlock()
		case <-ctx.Done():
			return nil, cancelled(ctx, "the request was cancelled while a session was opening")
		}
	}
}

// open opens a session for the calls waiting on op, retrying as
// Options.Reconnect says.
func (e *Executor) open(op *opening) {
	s, err := e.openWithRetries()
	e.mu.Lock()
	if err == nil {
		e.current = s
		e.lost = nil
	}
	op.s, op.err = s, err
	e.opening = nil
	e.mu.Unlock()
	close(op.done)
}

func (e *Executor) openWithRetries() (*session, error) {
	retries := e.cfg.reconnect.Retries
	if e.cfg.reconnect.Disabled {
		retries = 0
	}
	for attempt := 0; ; attempt++ {
		s, err := e.dial(e.ctx)
		if err == nil {
			return s, nil
		}
		if e.ctx.Err() != nil {
			return nil, errClosed
		}
		if !retryable(err) || attempt >= retries {
			if attempt > 0 {
				err = fmt.Errorf("%w (after %d attempts)", err, attempt+1)
			}
			e.cfg.log.Warn("cannot open a session", "url", e.url, "err", err)
			return nil, err
		}
		wait := e.cfg.reconnect.Backoff * time.Duration(attempt+1)
		e.cfg.log.Info("opening a session failed; retrying", "url", e.url, "err", err, "wait", wait)
		if e.sleep(e.ctx, wait) != nil {
			return nil, errClosed
		}
	}
}

// roundTrip sends msg, c's request, on s and waits for the answer. When
// ctx ends first, it sends a cancel and waits cancelWait more. sent
// tells whether the frame was queued.
func (e *Executor) roundTrip(ctx context.Context, s *session, c *call, msg protocol.Message) (answer, bool) {
	data, err := protocol.Encode(msg)
	if err == nil && len(data) > e.cfg.maxFrame {
		err = protocol.Errorf(protocol.CodePayloadTooLarge,
			"remote: the %s request is %d bytes, over the frame limit of %d bytes", c.kind, len(data), e.cfg.maxFrame)
	}
	if err != nil {
		s.unregister(c, err)
		return answer{err: err}, false
	}
	if err := s.send(ctx, data); err != nil {
		if s.ctx.Err() != nil { // the session died: its answer is on its way
			return <-c.answer, false
		}
		s.unregister(c, err)
		return answer{err: cancelled(ctx, "the request was cancelled before it was sent")}, false
	}
	select {
	case a := <-c.answer:
		return a, true
	case <-ctx.Done():
	}
	if c.kind != kindClose {
		if data, err := protocol.Encode(&protocol.CancelMessage{ID: c.id}); err == nil {
			sctx, cancel := context.WithTimeout(context.Background(), cancelWait)
			_ = s.send(sctx, data)
			cancel()
		}
	}
	c.cancel(context.Cause(ctx)) // after the cancel frame: the server reads it first
	t := time.NewTimer(cancelWait)
	defer t.Stop()
	select {
	case a := <-c.answer:
		return a, true
	case <-t.C:
		s.unregister(c, context.Cause(ctx))
		return answer{err: cancelled(ctx, fmt.Sprintf("the %s request was cancelled, and the server did not answer the cancel", c.kind))}, true
	}
}

// retireLocked retires s: it takes no new work, and closes once idle.
// Under e.mu.
func (e *Executor) retireLocked(s *session) {
	s.retired = true
	if e.current == s {
		e.current = nil
	}
	s.closeIfIdle()
}

// retain records the execution id that s retained for a request of
// handlers h. Under e.mu.
func (e *Executor) retain(s *session, id string, h handlers) {
	if old := e.retained[id]; old != nil {
		e.forgetLocked(id)
	}
	r := &retained{s: s, h: h}
	r.timer = time.AfterFunc(protocol.HandlesIdleTimeout, func() { e.forget(id, r) })
	e.retained[id] = r
	s.retained[id] = true
}

// forget forgets the retained execution id, when it is still r.
func (e *Executor) forget(id string, r *retained) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.retained[id] == r {
		e.forgetLocked(id)
	}
}

// forgetLocked forgets the retained execution id; its session may then
// close. Under e.mu.
func (e *Executor) forgetLocked(id string) {
	r := e.retained[id]
	if r == nil {
		return
	}
	r.timer.Stop()
	delete(e.retained, id)
	delete(r.s.retained, id)
	r.s.closeIfIdle()
}

// lookupRetained returns the retained execution id, registering c on
// its session, or UNKNOWN_EXECUTION.
func (e *Executor) lookupRetained(id string, c *call) (*retained, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, errClosed
	}
	r := e.retained[id]
	if r == nil || r.s.dead || r.s.closing {
		return nil, protocol.Errorf(protocol.CodeUnknownExecution,
			"remote: execution %q is not retained by this executor (never retained, closed, idle too long, or lost with its connection)", id)
	}
	r.s.register(c)
	r.timer.Reset(protocol.HandlesIdleTimeout)
	return r, nil
}

// InvokeHandle calls the function at path handle of the retained
// execution executionID, on the session that retained it, with the
// arguments argsJSON (as protocol.ParseDispatchArguments reads them).
// Its tool calls and fetches go to the Dispatch and Fetch of the request
// that retained the execution. An execution this executor does not hold
// (never retained, closed, idle for protocol.HandlesIdleTimeout, or
// lost with its session) is an *protocol.Error of UNKNOWN_EXECUTION. A
// cancelled ctx is as for Execute.
func (e *Executor) InvokeHandle(ctx context.Context, executionID, handle, argsJSON string) (protocol.ExecuteResult, error) {
	r, a, err := e.onRetained(ctx, kindInvoke, executionID, func(id string) protocol.Message {
		return &protocol.InvokeHandleMessage{ID: id, ExecutionID: executionID, Handle: handle, Args: argsJSON}
	})
	if err != nil {
		return protocol.ExecuteResult{}, err
	}
	e.mu.Lock()
	if e.retained[executionID] == r {
		r.timer.Reset(protocol.HandlesIdleTimeout)
	}
	e.mu.Unlock()
	return a.res.Result(), nil
}

// CloseHandles releases the retained execution executionID, on the
// session that retained it; that session may then close, when rotation
// retired it. An execution this executor does not hold is an
// *protocol.Error of UNKNOWN_EXECUTION.
func (e *Executor) CloseHandles(ctx context.Context, executionID string) error {
	r, _, err := e.onRetained(ctx, kindClose, executionID, func(id string) protocol.Message {
		return &protocol.CloseHandlesMessage{ID: id, ExecutionID: executionID}
	})
	if r != nil {
		e.forget(executionID, r)
	}
	return err
}

// onRetained sends the request msg makes to the session that retained
// executionID and waits for its answer.
func (e *Executor) onRetained(ctx context.Context, kind, executionID string, msg func(id string) protocol.Message) (*retained, answer, error) {
	if err := e.checkOpen(); err != nil {
		return nil, answer{}, err
	}
	if ctx.Err() != nil {
		return nil, answer{}, cancelled(ctx, "the request was cancelled before it was sent")
	}
	c := newCall(ctx, kind, handlers{})
	r, err := e.lookupRetained(executionID, c)
	if err != nil {
		c.cancel(err)
		return nil, answer{}, err
	}
	c.h = r.h
	// An UNKNOWN_EXECUTION answer may name an unknown handle of a live
	// execution: the execution is forgotten only by CloseHandles, its
	// session's end, or the idle timer.
	a, _ := e.roundTrip(ctx, r.s, c, msg(c.id))
	return r, a, a.err
}

// Close closes every session (the server then releases the executions
// they retained) and waits for every goroutine of the executor,
// including the Dispatch and Fetch calls in flight, whose contexts end.
// The calls in flight and every later call fail with SHUTTING_DOWN.
func (e *Executor) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		e.wg.Wait()
		return nil
	}
	e.closed = true
	e.current = nil
	for id := range e.retained {
		e.forgetLocked(id)
	}
	var closing []*session
	var pending []*call
	for s := range e.sessions {
		for _, c := range s.pending {
			pending = append(pending, c)
		}
		s.pending = map[string]*call{}
		if !s.closing && !s.dead {
			s.closing = true
			closing = append(closing, s)
		}
	}
	e.mu.Unlock()
	e.cancel()
	for _, c := range pending {
		c.finish(answer{err: errClosed}, errClosed)
	}
	for _, s := range closing {
		e.wg.Go(func() { s.closeSocket("executor closed") })
	}
	e.wg.Wait()
	return nil
}

func (e *Executor) checkOpen() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return errClosed
	}
	return nil
}

// sleepCtx waits d, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
