package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/tools"
	"github.com/go-codemode/codemode/value"
	"github.com/go-codemode/codemode/vm"
)

// ErrSuspend, returned by a ToolBefore hook (or wrapped in its error),
// holds the call for a decision instead of denying it: the call is
// admitted but does not start, the run goes on until nothing is left to
// do but wait, and Program.Run then returns Suspended with the call in
// Pending. Resume it with Approve or Deny. Only a Program's run can be
// held; under Execute, ErrSuspend denies the call with a message that
// says so.
var ErrSuspend = errors.New("codemode: the call waits for a decision (Approve or Deny it when resuming)")

// Program is one run of a program on engine "vm" that can stop and be
// saved: Runtime.Program makes it and Runtime.Resume brings a saved one
// back. Nothing runs until Run. A Program runs once; Suspend may be
// called from any goroutine.
type Program struct {
	rt      *Runtime
	code    string
	opts    []ExecOption
	state   []byte // a resumed program's saved state
	resumed bool

	// roundTrip: the run is saved and restored into a new Runtime at
	// every host wait and every few jobs (RoundTripEnv).
	roundTrip bool
	trips     int // the saves so far, in round-trip mode
	// saved and restored are how long the suspend (saving and encoding)
	// and the resume (decoding and restoring, up to running) took, for
	// the benchmarks.
	saved, restored time.Duration
	extraSaves      int

	mu      sync.Mutex
	ran     bool
	loop    interface{ RequestSuspend() } // the running run's, once started
	asked   bool                          // a Suspend came before the run started
	reqs    chan suspendReq
	done    chan struct{}
	outcome Outcome
}

type suspendReply struct {
	out Outcome
	err error
}

// suspendReq is a Suspend waiting for the run: its reply, and whether
// running calls are cut off (SuspendInterrupting).
type suspendReq struct {
	reply     chan suspendReply
	interrupt bool
}

// Outcome is how a Program's Run ends: the run's Result, or Suspended
// when it stopped to be saved.
type Outcome struct {
	Result    Result
	Suspended *Suspended
}

// IsSuspended reports whether the run stopped to be saved.
func (o Outcome) IsSuspended() bool { return o.Suspended != nil }

// Suspended is a run saved to bytes. Resume State with Runtime.Resume,
// in this process or another built from the same version with the same
// tools and extensions.
type Suspended struct {
	State []byte `json:"-"`
	// Pending are the calls held for a decision (ErrSuspend), in the
	// order they were made.
	Pending []PendingCall `json:"pending"`
}

// PendingCall is a tool call held for a decision.
type PendingCall struct {
	Key   string          `json:"key"`   // what Approve and Deny name
	Path  string          `json:"path"`  // the tool's dotted path
	Input json.RawMessage `json:"input"` // the call's input
}

// SuspendError is why a run could not be suspended now: host calls were
// running. The run goes on untouched; try again once they finished.
type SuspendError struct {
	// Blocking are the calls running, by key and path ("tools.x.y").
	Blocking []BlockingCall
	// Reason, when Blocking is empty, says what else prevented it.
	Reason string
}

// BlockingCall is a host call that prevents a suspend while it runs.
type BlockingCall struct {
	Key  string `json:"key"`
	Path string `json:"path"`
}

func (e *SuspendError) Error() string {
	if len(e.Blocking) == 0 {
		return "codemode: the run cannot be suspended: " + e.Reason
	}
	names := make([]string, len(e.Blocking))
	for i, b := range e.Blocking {
		names[i] = b.Path + " (" + b.Key + ")"
	}
	return "codemode: the run cannot be suspended while host calls are running: " + strings.Join(names, ", ") +
		". Suspend again once they finished."
}

// SnapshotError is why a saved state cannot be resumed here.
type SnapshotError struct {
	// Reason is one of "malformed", "version", "build", "program",
	// "tools", "unsealed", "seal", "too-large".
	Reason string
	Msg    string
}

func (e *SnapshotError) Error() string { return "codemode: cannot resume the state: " + e.Msg }

// decision is Resume's answer for a held call.
type decision struct {
	approve bool
	reason  string
}

// Approve makes Resume start the held call key.
func Approve(key string) ExecOption {
	return func(c *execConfig) { c.decide(key, decision{approve: true}) }
}

// Deny makes Resume reject the held call key in the program, with
// reason as the error's message, as a ToolBefore denial does.
func Deny(key, reason string) ExecOption {
	return func(c *execConfig) { c.decide(key, decision{reason: reason}) }
}

func (c *execConfig) decide(key string, d decision) {
	if c.decisions == nil {
		c.decisions = map[string]decision{}
	}
	c.decisions[key] = d
}

// Program makes a run of code on engine "vm" that can be suspended.
// Nothing runs until Run.
func (rt *Runtime) Program(code string, opts ...ExecOption) *Program {
	return &Program{rt: rt, code: code, opts: opts, reqs: make(chan suspendReq, 1), done: make(chan struct{})}
}

// Resume makes a Program that continues a run saved by a Suspend, with
// opts (Approve, Deny, and the options of Execute). The state is checked
// when the Program runs: Run then fails with a *SnapshotError when it
// cannot be resumed here.
func (rt *Runtime) Resume(state []byte, opts ...ExecOption) *Program {
	p := rt.Program("", opts...)
	p.state, p.resumed = state, true
	return p
}

// Run runs the program until it ends or is suspended. It fails with an
// error only when the Program already ran, or when a resumed state
// cannot be resumed here (a *SnapshotError).
func (p *Program) Run(ctx context.Context) (out Outcome, err error) {
	p.mu.Lock()
	if p.ran {
		p.mu.Unlock()
		return Outcome{}, errors.New("codemode: the Program already ran; make another with Runtime.Program or Runtime.Resume")
	}
	p.ran = true
	p.mu.Unlock()
	defer func() {
		p.outcome = out
		close(p.done)
		p.answerLate(out)
	}()
	var s *session
	defer func() {
		if r := recover(); r != nil {
			out, err = Outcome{Result: internalErrorResult(r, s)}, nil
		}
	}()
	opts := append(append([]ExecOption(nil), p.opts...), func(c *execConfig) { c.program, c.holdable = true, !p.roundTrip })
	if p.resumed {
		return p.resume(ctx, opts)
	}
	s, early := p.rt.newSession(ctx, p.code, time.Now(), 0, opts)
	if early != nil {
		return Outcome{Result: *early}, nil
	}
	defer s.close()
	p.started(s)
	p.saveJobs(s)
	v, prom, fail := s.run.Start()
	return p.drive(s, v, prom, fail, 0), nil
}

// started makes Suspend reach the running run.
func (p *Program) started(s *session) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.loop = s.run
	if p.asked {
		s.run.RequestSuspend()
	}
}

// answerLate answers a Suspend that came too late to stop the run.
func (p *Program) answerLate(out Outcome) {
	for {
		select {
		case req := <-p.reqs:
			req.reply <- suspendReply{out: out}
		default:
			return
		}
	}
}

// Suspend saves the run at its next wait for a host outcome and stops
// it; Run then returns the same Suspended. It fails with a *SuspendError
// while a host call is running (the run goes on untouched). After the
// run ended it gives the run's Outcome; before Run started, it waits for
// it to start. A run busy in program code, awaiting nothing from the
// host, stops only when it next waits for the host.
func (p *Program) Suspend(ctx context.Context) (Outcome, error) {
	return p.suspend(ctx, false)
}

// SuspendInterrupting is Suspend for when the run must stop now (a
// server draining for a deploy): tool calls still running do not prevent
// it. They are cut off as at the end of a run (their context is
// cancelled, their after-hooks see CallInterrupted) and saved to be made
// again, from the same input and without their before-hooks, when the
// run resumes. A tool may so see one call twice: use it where that costs
// less than losing the run. Extension and fetch calls still running
// prevent it, as for Suspend.
func (p *Program) SuspendInterrupting(ctx context.Context) (Outcome, error) {
	return p.suspend(ctx, true)
}

func (p *Program) suspend(ctx context.Context, interrupt bool) (Outcome, error) {
	reply := make(chan suspendReply, 1)
	select {
	case <-p.done:
		return p.outcome, nil
	default:
	}
	select {
	case p.reqs <- suspendReq{reply: reply, interrupt: interrupt}:
	case <-p.done:
		return p.outcome, nil
	case <-ctx.Done():
		return Outcome{}, ctx.Err()
	}
	p.mu.Lock()
	if p.loop != nil {
		p.loop.RequestSuspend()
	} else {
		p.asked = true
	}
	p.mu.Unlock()
	select {
	case r := <-reply:
		return r.out, r.err
	case <-p.done:
		// The run ended after the request was queued: a reply may be on
		// its way, or it missed the request.
		select {
		case r := <-reply:
			return r.out, r.err
		default:
			return p.outcome, nil
		}
	case <-ctx.Done():
		return Outcome{}, ctx.Err()
	}
}

// request takes the Suspend waiting for an answer, if any.
func (p *Program) request() (chan suspendReply, bool) {
	select {
	case r := <-p.reqs:
		return r.reply, r.interrupt
	default:
		return nil, false
	}
}

// drive runs the job loop until the run ends or stops to be saved.
// suspensions is how often the run was suspended before.
func (p *Program) drive(s *session, v value.Value, prom *value.Object, fail *engine.Failure, suspensions int) Outcome {
	for {
		if fail == nil && prom != nil {
			if p.roundTrip {
				s.run.RequestSuspend()
			}
			fail = s.run.Settle(prom)
		}
		if fail == nil || fail.Suspend == 0 {
			return Outcome{Result: s.result(finishFrom(s.run, v, prom, fail, s.keep))}
		}
		why := fail.Suspend
		fail = nil
		reply, interrupt := p.request()
		if why == engine.SuspendRequested && reply == nil && !p.roundTrip {
			continue // a request already answered
		}
		// Outcomes already posted are applied first (only the jobs they
		// queue need saving); the calls left not held are running.
		if f := s.run.ApplyPosted(); f != nil {
			fail = f
			if reply != nil {
				reply <- suspendReply{err: &SuspendError{Reason: "the run ended while it was being suspended"}}
			}
			continue
		}
		if interrupt {
			if f := s.interruptCalls(); f != nil {
				fail = f
				if reply != nil {
					reply <- suspendReply{err: &SuspendError{Reason: "the run ended while it was being suspended"}}
				}
				continue
			}
		}
		if blocking := s.blocking(); len(blocking) > 0 {
			if reply != nil {
				reply <- suspendReply{err: &SuspendError{Blocking: blocking}}
			}
			// Round-trip mode waits for the calls to save the run, but
			// only once no job is left: the outcomes just applied may
			// have queued jobs that end the run, and a call still running
			// may be one the run's end must cancel.
			if p.roundTrip && !s.run.Realm().HasJobs() {
				fail = s.run.WaitHost()
			}
			continue
		}
		for range p.extraSaves { // benchmarks: the save alone, repeated
			_, _ = s.save(prom, suspensions+1)
		}
		t0 := time.Now()
		sus, err := s.save(prom, suspensions+1)
		p.saved = time.Since(t0)
		if err != nil {
			if reply != nil {
				reply <- suspendReply{err: err}
			}
			if why == engine.SuspendHeld {
				res := Result{Error: &Diagnostic{Kind: ExecutionFailure, Message: fmt.Sprintf(
					"The run waits for a decision on a held tool call, but it cannot be saved: %v", err)}, Logs: s.run.Realm().Logs}
				return Outcome{Result: s.result(res)}
			}
			if p.roundTrip && !strings.Contains(err.Error(), "which cannot be made again") && !strings.Contains(err.Error(), "MaxSuspensions") {
				// Round-trip mode is a test of saving: a run it cannot
				// save is a failure to see, not to skip.
				res := Result{Error: &Diagnostic{Kind: ExecutionFailure, Message: "Internal error: round-trip mode could not save the run: " + err.Error()}, Logs: s.run.Realm().Logs}
				return Outcome{Result: s.result(res)}
			}
			continue
		}
		out := Outcome{Suspended: sus}
		if reply != nil {
			reply <- suspendReply{out: out}
		}
		s.th.end()
		return out
	}
}

// interruptCalls cuts off the tool calls running, to be made again when
// the run resumes (SuspendInterrupting): each becomes a held call marked
// for a retry. A call whose worker has already claimed its outcome is
// waited for instead, and its outcome applied. Other calls (extensions)
// are left running, and block the suspend.
func (s *session) interruptCalls() *engine.Failure {
	for {
		waiting := false
		for _, c := range s.run.Calls() {
			pc, ok := c.Settler.(*pendingCall)
			if c.Held || !ok {
				continue
			}
			pc.hc.mu.Lock()
			done := pc.hc.done
			if !done {
				pc.hc.ended = true
			}
			pc.hc.mu.Unlock()
			if done {
				waiting = true // its outcome is on its way
				continue
			}
			s.run.Interrupt(c)
			pc.retry = true
			runAfter(pc.interrupted)
		}
		if !waiting {
			return nil
		}
		if f := s.run.WaitHost(); f != nil {
			return f
		}
	}
}

// blocking lists the host calls running, which a suspend must wait for.
func (s *session) blocking() []BlockingCall {
	var out []BlockingCall
	for _, c := range s.run.Calls() {
		if !c.Held {
			out = append(out, BlockingCall{Key: callKey(c.Seq), Path: callPath(c)})
		}
	}
	return out
}

// callKey is the key a host call is named by in Pending, Approve and
// Deny.
func callKey(seq int) string { return fmt.Sprintf("call-%d", seq) }

func callPath(c *engine.HostCall) string {
	if c.Kind == engine.CallTool {
		if c.Path == "search" {
			return "search"
		}
		return "tools." + c.Path
	}
	return c.Path
}

// RoundTripEnv is the environment variable that, set to 1, makes every
// Execute on engine "vm" (the engine of every Runtime whose Engine is
// empty, in this mode) save its run to bytes and restore it into a new
// Runtime at every wait for the host and every job boundary:
// CODEMODE_ROUNDTRIP=1 go test ./... runs a test suite so.
const RoundTripEnv = "CODEMODE_ROUNDTRIP"

// maxRoundTrips bounds the job-boundary saves of one run in round-trip
// mode; after them, the run is saved only at waits for the host.
const maxRoundTrips = 1000

// saveJobs makes a round-trip run stop at job boundaries.
func (p *Program) saveJobs(s *session) {
	if vr, ok := s.run.(*vm.Run); ok && p.roundTrip && p.trips < maxRoundTrips {
		vr.SaveEveryJobs(1)
	}
}

// executeRoundTrip is Execute in round-trip mode.
func (rt *Runtime) executeRoundTrip(ctx context.Context, code string, opts []ExecOption) Result {
	p := rt.Program(code, opts...)
	p.roundTrip = true
	out, err := p.Run(ctx)
	for trips := 1; err == nil && out.IsSuspended(); trips++ {
		next := rt.sibling().Resume(out.Suspended.State, opts...)
		next.roundTrip, next.trips = true, trips
		p.trips = trips
		out, err = next.Run(ctx)
	}
	if err != nil {
		return Result{Error: &Diagnostic{Kind: ExecutionFailure, Message: "Internal error: round-trip mode could not resume the run: " + err.Error()}}
	}
	return out.Result
}

// sibling is a new Runtime with rt's options, library and tools (which
// are immutable), for round-trip mode: nothing of a run passes from one
// to the other but its saved state.
func (rt *Runtime) sibling() *Runtime {
	return &Runtime{opts: rt.opts, engine: EngineVM, lib: rt.lib, tools: rt.tools, searchSchema: rt.searchSchema,
		overlaySchemas: tools.NewSchemaCache(overlaySchemaCacheSize), roundTrip: true,
		snapReg: rt.snapshotRegistry(), snapDone: true}
}
