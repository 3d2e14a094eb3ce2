package server

// A run is one request of a connection that the backend serves: an
// execute, a resume, an invokeHandle or a closeHandles. Its goroutine
// waits for a slot (scheduler), calls the backend in a goroutine of its
// own, and answers with one result or error frame: the backend's answer,
// or the server's when the backend does not give one in time.
//
// A run's context ends when the client cancels it, when its connection
// goes away, when its watchdog fires (its timeout, Grace and
// TerminationDelay passed, counting only the time it did not wait on the
// client when countHostWaits is false), when a retiring connection
// cancels it, and finally when the backend has answered. Its tool calls
// and fetches answer "Execution has already completed." from then on.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-codemode/codemode/protocol"
)

// errCancelled is the answer of a run its client cancelled.
var errCancelled = protocol.NewError(protocol.CodeCancelled, "The execution was cancelled.")

// errRunEnded ends a run's context once the backend answered.
var errRunEnded = errors.New("the run ended")

// errCompleted is the error of a fetch after its run ended.
var errCompleted = errors.New(protocol.ExecutionCompletedMessage)

type runKey struct{}

type run struct {
	c              *conn
	id             string // the client's
	kind           string
	ctx            context.Context // the backend call's
	cancel         context.CancelCauseFunc
	suspend        chan struct{} // closed to ask the run to save itself
	suspendOnce    sync.Once
	timeout        time.Duration // resolved
	countHostWaits bool
	exec           *retained // invokeHandle: the execution invoked
	execID         string    // the execution the run retained (under c.mu)
	taken          atomic.Bool
	clk            clock
}

func (r *run) askSuspend() { r.suspendOnce.Do(func() { close(r.suspend) }) }

// register starts a request of the client's id. It fails when the
// connection takes no new requests or id is in flight.
func (c *conn) register(id, kind string) (*run, *protocol.Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.closing:
		return nil, c.refusalErr
	case c.s.closing.Load():
		return nil, errRefused
	case c.runs[id] != nil:
		return nil, protocol.Errorf(protocol.CodeMalformedMessage,
			"id %q is already in flight on this connection; every request in flight needs its own id", id)
	}
	r := &run{c: c, id: id, kind: kind, suspend: make(chan struct{})}
	r.ctx, r.cancel = context.WithCancelCause(context.WithValue(c.base, runKey{}, r))
	c.runs[id] = r
	c.active.add()
	c.s.runs.add()
	return r, nil
}

// forget frees r's id, before its answer goes: once the client has the
// answer, it may use the id again.
func (c *conn) forget(r *run) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runs[r.id] == r {
		delete(c.runs, r.id)
	}
}

// deliver sends data, r's answer.
func (c *conn) deliver(r *run, data []byte) {
	c.forget(r)
	c.send(frame{data: data})
}

// unregister ends r.
func (c *conn) unregister(r *run) {
	c.mu.Lock()
	if c.runs[r.id] == r {
		delete(c.runs, r.id)
	}
	if x := r.exec; x != nil {
		for i, q := range x.invocations {
			if q == r {
				x.invocations = append(x.invocations[:i], x.invocations[i+1:]...)
				break
			}
		}
	}
	c.mu.Unlock()
	r.cancel(errRunEnded)
	c.active.done()
	c.s.runs.done()
}

// refused answers a request that was not registered.
func (c *conn) refused(id, kind string, e *protocol.Error) {
	c.s.metrics.executions.WithLabelValues(kind, outcomeOf(nil, e)).Inc()
	c.sendError(id, e)
}

// outbound resolves a request's outbound mode, or refuses it.
func (c *conn) outbound(mode protocol.OutboundMode) (protocol.OutboundMode, *protocol.Error) {
	cfg := c.s.cfg
	if mode == "" {
		mode = cfg.OutboundDefault
	}
	switch {
	case mode == protocol.OutboundStub && cfg.ForbidStub:
		return "", protocol.NewError(protocol.CodeProtocolMismatch,
			`outbound mode "stub" is forbidden on this server (the client would perform the program's fetches); ask for "native" or "disabled"`)
	case mode == protocol.OutboundNative && cfg.ForbidNative:
		mode = protocol.OutboundDisabled
	}
	return mode, nil
}

func (c *conn) startExecute(m *protocol.ExecuteMessage) {
	r, e := c.register(m.ID, kindExecute)
	if e != nil {
		c.refused(m.ID, kindExecute, e)
		return
	}
	mode, e := c.outbound(m.Options.Outbound)
	if e == nil {
		if err := protocol.CheckProviders(m.Providers); err != nil {
			e = asError(err)
		}
	}
	r.timeout = m.Options.Timeout.Resolve(c.s.cfg.DefaultTimeout, c.s.cfg.MaxTimeout)
	r.countHostWaits = m.Options.CountHostWaits
	req := protocol.ExecuteRequest{
		Code:           m.Code,
		Providers:      m.Providers,
		Dispatch:       c.dispatcher(r),
		Modules:        m.Modules,
		Timeout:        protocol.TimeoutOf(r.timeout),
		CountHostWaits: m.Options.CountHostWaits,
		Outbound:       mode,
		RetainHandles:  m.Options.RetainHandles,
		Suspend:        r.suspend,
	}
	if mode == protocol.OutboundStub {
		req.Fetch = c.fetcher(r)
	}
	go c.serveRun(r, e, func(ctx context.Context) (protocol.ExecuteResult, error) {
		return c.s.backend.Execute(ctx, req)
	})
}

func (c *conn) startResume(m *protocol.ResumeMessage) {
	r, e := c.register(m.ID, kindResume)
	if e != nil {
		c.refused(m.ID, kindResume, e)
		return
	}
	if err := protocol.CheckProviders(m.Providers); err != nil {
		e = asError(err)
	}
	r.timeout = m.Options.Timeout.Resolve(c.s.cfg.DefaultTimeout, c.s.cfg.MaxTimeout)
	req := protocol.ResumeRequest{
		State:     m.State,
		Providers: m.Providers,
		Dispatch:  c.dispatcher(r),
		Timeout:   protocol.TimeoutOf(r.timeout),
		Suspend:   r.suspend,
	}
	if !c.s.cfg.ForbidStub {
		req.Fetch = c.fetcher(r)
	}
	go c.serveRun(r, e, func(ctx context.Context) (protocol.ExecuteResult, error) {
		return c.s.backend.Resume(ctx, req)
	})
}

// errUnknownExecution answers an executionId the connection does not
// own.
func errUnknownExecution(id string) *protocol.Error {
	return protocol.Errorf(protocol.CodeUnknownExecution,
		"execution %q is not retained on this connection (unknown, closed, or idle too long)", id)
}

func (c *conn) startInvoke(m *protocol.InvokeHandleMessage) {
	r, e := c.register(m.ID, kindInvoke)
	if e != nil {
		c.refused(m.ID, kindInvoke, e)
		return
	}
	c.mu.Lock()
	x := c.retained[m.ExecutionID]
	if x != nil {
		r.exec = x
		r.timeout, r.countHostWaits = x.timeout, x.countHostWaits
		x.invocations = append(x.invocations, r)
	}
	c.mu.Unlock()
	if x == nil {
		e = errUnknownExecution(m.ExecutionID)
	}
	go c.serveRun(r, e, func(ctx context.Context) (protocol.ExecuteResult, error) {
		return c.s.backend.InvokeHandle(ctx, m.ExecutionID, m.Handle, m.Args)
	})
}

func (c *conn) startCloseHandles(m *protocol.CloseHandlesMessage) {
	r, e := c.register(m.ID, kindClose)
	if e != nil {
		c.refused(m.ID, kindClose, e)
		return
	}
	c.mu.Lock()
	x := c.retained[m.ExecutionID]
	delete(c.retained, m.ExecutionID)
	c.mu.Unlock()
	if x == nil {
		e = errUnknownExecution(m.ExecutionID)
	}
	r.timeout = c.s.cfg.DefaultTimeout
	go c.serveRun(r, e, func(ctx context.Context) (protocol.ExecuteResult, error) {
		return protocol.ExecuteResult{}, c.s.backend.CloseHandles(ctx, m.ExecutionID)
	})
}

// outcome is what a backend call gave.
type outcome struct {
	res protocol.ExecuteResult
	err error
}

// serveRun serves r: it answers early when early is set, and otherwise
// waits for a slot, calls the backend and answers.
func (c *conn) serveRun(r *run, early *protocol.Error, call func(context.Context) (protocol.ExecuteResult, error)) {
	defer c.unregister(r)
	if early != nil {
		c.answer(r, outcome{err: early}, false, 0, nil)
		return
	}
	s := c.s
	if r.kind != kindClose {
		if err := s.sched.acquire(r.ctx, r.suspend, c.refusal); err != nil { // QUEUE_OVERFLOW, cancelled, drained
			c.answer(r, outcome{err: err}, false, 0, nil)
			return
		}
		s.metrics.active.Inc()
	}

	results := make(chan outcome, 1)
	start := time.Now()
	bound := r.timeout + s.cfg.Grace + s.cfg.TerminationDelay
	r.clk.start(bound, !r.countHostWaits, func() {
		r.cancel(protocol.Errorf(protocol.CodeTimeout, "%s after %dms.", protocol.TimeoutMessage, r.timeout.Milliseconds()))
	})
	s.backendCalls.Add(1)
	go func() {
		defer s.backendCalls.Done()
		res, err := callBackend(call, r.ctx)
		if r.kind != kindClose {
			s.sched.release()
			s.metrics.active.Dec()
		}
		if !r.taken.CompareAndSwap(false, true) { // the server answered for it
			if res.ExecutionID != "" {
				s.closeHandles(context.WithoutCancel(r.ctx), res.ExecutionID)
			}
			return
		}
		results <- outcome{res, err}
	}()

	var o outcome
	select {
	case o = <-results:
	case <-r.ctx.Done():
		got := false
		var timeout *protocol.Error
		if !errors.As(context.Cause(r.ctx), &timeout) || timeout.Code != protocol.CodeTimeout {
			// Cancelled: the backend has TerminationDelay to answer.
			t := time.NewTimer(s.cfg.TerminationDelay)
			select {
			case o = <-results:
				got = true
			case <-t.C:
			}
			t.Stop()
		}
		if !got {
			if r.taken.CompareAndSwap(false, true) {
				o = outcome{err: context.Cause(r.ctx)}
				c.log.Warn("the backend did not answer in time; answering for it",
					"id", r.id, "kind", r.kind, "cause", o.err)
			} else {
				o = <-results // it just did
			}
		}
	}
	r.clk.stop()
	var reason *protocol.Error // why the run's context ended, when the server ended it
	if errors.As(context.Cause(r.ctx), &reason) && reason.Code == "" {
		reason = nil
	}
	r.cancel(errRunEnded) // its tool calls answer "Execution has already completed." from now on
	c.answer(r, o, true, time.Since(start), reason)
}

// callBackend calls the backend, turning a panic into an INTERNAL
// error.
func callBackend(call func(context.Context) (protocol.ExecuteResult, error), ctx context.Context) (res protocol.ExecuteResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = protocol.ExecuteResult{}, protocol.Errorf(protocol.CodeInternal, "the backend panicked: %v", p)
		}
	}()
	return call(ctx)
}

// refusal returns the answer to new work on the connection: its own
// refusal when it is retiring, and the server's otherwise.
func (c *conn) refusal() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.refusalErr != nil {
		return c.refusalErr
	}
	return errRefused
}

// errorFrameCodes are the codes answered with an error message rather
// than a result: those of requests that did not run.
var errorFrameCodes = map[protocol.Code]bool{
	protocol.CodeProtocolMismatch:   true,
	protocol.CodeConnectionRejected: true,
	protocol.CodeQueueOverflow:      true,
	protocol.CodeMalformedMessage:   true,
	protocol.CodeUnknownExecution:   true,
}

// answer sends r's answer: o's result, or o's error (replaced by
// reason, why the server ended r's context: the client cancelled it, it
// timed out or a drain ended it). started tells whether the backend was
// called; a SHUTTING_DOWN of a request that was not is an error message,
// of one that was, a result.
func (c *conn) answer(r *run, o outcome, started bool, took time.Duration, reason *protocol.Error) {
	s := c.s
	if c.ctx.Err() != nil { // nobody to answer
		if o.err == nil && o.res.ExecutionID != "" && r.kind != kindClose {
			s.closeHandles(context.WithoutCancel(r.ctx), o.res.ExecutionID)
		}
		s.metrics.executions.WithLabelValues(r.kind, outcomeDisconnected).Inc()
		return
	}
	if started {
		s.metrics.duration.WithLabelValues(r.kind).Observe(took.Seconds())
	}

	if o.err != nil {
		e := asError(o.err)
		if reason != nil && started {
			e = reason
		}
		if e.Code == protocol.CodeWorkerCrashed && s.countCrashResults {
			s.metrics.crashes.Inc()
		}
		if errorFrameCodes[e.Code] || (e.Code == protocol.CodeShuttingDown && !started) {
			s.metrics.executions.WithLabelValues(r.kind, outcomeOf(nil, e)).Inc()
			c.deliver(r, c.errorFrame(r.id, e))
			return
		}
		c.sendResult(r, protocol.ExecuteResult{Error: e})
		return
	}

	res := o.res
	if r.kind == kindClose {
		res = protocol.ExecuteResult{}
	}
	if reason != nil && res.Error != nil && (res.Error.Code == "" || res.Error.Code == protocol.CodeCancelled) {
		res.Error = reason // the failure follows from the cancellation
	}
	if res.Error != nil && res.Error.Code == protocol.CodeWorkerCrashed && s.countCrashResults {
		s.metrics.crashes.Inc()
	}
	if res.ExecutionID != "" && !c.own(r, res.ExecutionID) {
		s.closeHandles(context.WithoutCancel(r.ctx), res.ExecutionID)
		return // the connection is closing: nobody to answer
	}
	c.sendResult(r, res)
}

// own records that the connection retained the execution id, which r
// created; false when the connection has released its executions.
func (c *conn) own(r *run, id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.released {
		return false
	}
	c.retained[id] = &retained{id: id, timeout: r.timeout, countHostWaits: r.countHostWaits}
	r.execID = id
	return true
}

// disown forgets the retained execution id and releases it.
func (c *conn) disown(r *run, id string) {
	c.mu.Lock()
	delete(c.retained, id)
	c.mu.Unlock()
	c.s.closeHandles(context.WithoutCancel(r.ctx), id)
}

// sendResult sends res as r's result, or PAYLOAD_TOO_LARGE when its frame
// exceeds the response limit.
func (c *conn) sendResult(r *run, res protocol.ExecuteResult) {
	s := c.s
	data, err := protocol.Encode(res.ResultMessage(r.id))
	if err != nil {
		c.log.Error("the backend's result cannot be encoded", "id", r.id, "err", err)
		if res.ExecutionID != "" {
			c.disown(r, res.ExecutionID)
		}
		res = protocol.ExecuteResult{Error: protocol.Errorf(protocol.CodeInternal,
			"the backend's result cannot be encoded: %v", err), Logs: res.Logs}
		data, err = protocol.Encode(res.ResultMessage(r.id))
		if err != nil {
			res.Logs = nil
			data, _ = protocol.Encode(res.ResultMessage(r.id))
		}
	}
	limit, what := s.cfg.MaxFrameBytes, "the frame limit"
	if l := s.cfg.ResponseLimit; l > 0 && l < limit {
		limit, what = l, "the server's response limit"
	}
	if len(data) > limit {
		if res.ExecutionID != "" {
			c.disown(r, res.ExecutionID)
		}
		res = protocol.ExecuteResult{Error: protocol.Errorf(protocol.CodePayloadTooLarge,
			"the result is %d bytes, over %s of %d bytes", len(data), what, limit)}
		data, _ = protocol.Encode(res.ResultMessage(r.id))
	}
	s.metrics.executions.WithLabelValues(r.kind, outcomeOf(&res, nil)).Inc()
	c.deliver(r, data)
}

// dispatcher returns the Dispatch of the request r: it sends each tool
// call to the client with the id of the run it belongs to (r, or an
// invocation of the execution r retained).
func (c *conn) dispatcher(origin *run) protocol.DispatchFunc {
	return func(ctx context.Context, provider, tool, argsJSON string) string {
		if ctx == nil {
			ctx = context.Background()
		}
		r := c.route(ctx, origin)
		if r == nil || r.ctx.Err() != nil {
			return protocol.ExecutionCompletedEnvelope
		}
		msg := &protocol.DispatchMessage{ID: r.id, Provider: provider, Tool: tool, Args: argsJSON}
		a, err := c.call(ctx, r, protocol.TypeDispatch, func(callID string) protocol.Message {
			msg.CallID = callID
			return msg
		})
		switch {
		case errors.Is(err, errCompleted):
			return protocol.ExecutionCompletedEnvelope
		case err != nil:
			return protocol.ErrorEnvelope(fmt.Sprintf("tool call %s.%s: %v", provider, tool, err))
		}
		return a.envelope
	}
}

// fetcher returns the Fetch of the request r, as dispatcher its
// Dispatch.
func (c *conn) fetcher(origin *run) protocol.FetchFunc {
	return func(ctx context.Context, req protocol.OutboundRequest) (protocol.OutboundResponse, error) {
		if ctx == nil {
			ctx = context.Background()
		}
		r := c.route(ctx, origin)
		if r == nil || r.ctx.Err() != nil {
			return protocol.OutboundResponse{}, errCompleted
		}
		msg := &protocol.FetchMessage{ID: r.id, Request: req}
		a, err := c.call(ctx, r, protocol.TypeFetch, func(callID string) protocol.Message {
			msg.CallID = callID
			return msg
		})
		switch {
		case err != nil:
			return protocol.OutboundResponse{}, err
		case a.response == nil:
			return protocol.OutboundResponse{}, errors.New(a.err)
		}
		return *a.response, nil
	}
}

// route finds the run a tool call belongs to: the run whose context the
// backend passed, else origin while it runs, else the latest invocation
// in flight of the execution origin retained.
func (c *conn) route(ctx context.Context, origin *run) *run {
	if r, ok := ctx.Value(runKey{}).(*run); ok && r.c == c {
		return r
	}
	if origin.ctx.Err() == nil {
		return origin
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if x := c.retained[origin.execID]; origin.execID != "" && x != nil && len(x.invocations) > 0 {
		return x.invocations[len(x.invocations)-1]
	}
	return nil
}

// call sends the dispatch or fetch that msg makes of a callId and waits
// for the client's answer. It returns errCompleted when r ends first,
// and the cause of ctx when ctx does.
func (c *conn) call(ctx context.Context, r *run, kind protocol.MessageType, msg func(callID string) protocol.Message) (callAnswer, error) {
	callID, p := c.newCall(r, kind)
	defer c.dropCall(callID)
	data, err := protocol.Encode(msg(callID))
	if err != nil {
		return callAnswer{}, fmt.Errorf("cannot be sent: %w", err)
	}
	r.clk.waitBegin()
	defer r.clk.waitEnd()
	start := time.Now()
	if !c.send(frame{data: data}) {
		return callAnswer{}, errCompleted
	}
	select {
	case a := <-p.ch:
		c.s.metrics.callLatency.WithLabelValues(string(kind)).Observe(time.Since(start).Seconds())
		return a, nil
	case <-r.ctx.Done():
		return callAnswer{}, errCompleted
	case <-ctx.Done():
		if r.ctx.Err() != nil { // the call's context is the run's
			return callAnswer{}, errCompleted
		}
		return callAnswer{}, context.Cause(ctx)
	}
}

// clock is a run's watchdog: it calls fire once the run has been active
// for bound. When pause is set, the time the run waits only on the
// client (tool calls and fetches in flight) does not count, as
// countHostWaits false asks.
type clock struct {
	mu      sync.Mutex
	bound   time.Duration
	pause   bool
	fire    func()
	timer   *time.Timer
	active  time.Duration // before since
	since   time.Time     // start of the current active stretch
	waits   int
	stopped bool
}

func (k *clock) start(bound time.Duration, pause bool, fire func()) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.bound, k.pause, k.fire = bound, pause, fire
	k.since = time.Now()
	k.timer = time.AfterFunc(bound, k.check)
}

func (k *clock) check() {
	k.mu.Lock()
	if k.stopped || (k.pause && k.waits > 0) {
		k.mu.Unlock()
		return
	}
	elapsed := k.active + time.Since(k.since)
	if elapsed < k.bound {
		k.timer.Reset(k.bound - elapsed)
		k.mu.Unlock()
		return
	}
	k.stopped = true
	k.mu.Unlock()
	k.fire()
}

func (k *clock) waitBegin() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.waits++
	if k.pause && k.waits == 1 && k.timer != nil && !k.stopped {
		k.active += time.Since(k.since)
		k.timer.Stop()
	}
}

func (k *clock) waitEnd() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.waits--
	if k.pause && k.waits == 0 && k.timer != nil && !k.stopped {
		k.since = time.Now()
		k.timer.Reset(max(k.bound-k.active, 0))
	}
}

func (k *clock) stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.stopped = true
	if k.timer != nil {
		k.timer.Stop()
	}
}
