package engine

import (
	"context"
	"runtime"
	"slices"
	"time"

	"github.com/go-codemode/codemode/value"
)

// Loop is the host side of a run's job loop, written once for both
// engines, which embed it: the host calls started and not yet applied,
// the inbox their outcomes arrive in, and the waiting between jobs, bound
// by the run's context and deadline. Only the run's goroutine uses it,
// except Post.
type Loop struct {
	ctx   context.Context
	realm *value.Realm
	opts  Options
	inbox *inbox // made by the first Begin
	// pending counts host calls begun and not yet applied.
	pending int
	// calls are the host calls begun and not yet applied, each at its
	// slot, and those held for a decision (Hold): what a suspended run
	// saves of its host side.
	calls []*HostCall
	// held counts the calls held for a decision: they are not pending
	// (nothing will post them), so a run with only those left ends as
	// suspended instead of waiting for ever.
	held int
	// suspend is signalled by RequestSuspend, from any goroutine.
	suspend chan struct{}
	// next is the call apply settles through settleNext.
	next       *HostCall
	settleNext func()
	// paused is how long the run waited on the host with its clock
	// stopped (Options.PauseHostWaits).
	paused time.Duration
	// phase counts Rearm: an outcome of a call begun in an earlier phase
	// is dropped.
	phase int
}

// Guard runs f on the engine's side, turning a panic (a throw, an
// interrupt, a bug) into a Failure and restoring the engine's state.
type Guard func(f func()) *Failure

// Init prepares the loop of a run in realm under ctx.
func (l *Loop) Init(ctx context.Context, realm *value.Realm, opts Options) {
	l.ctx, l.realm, l.opts = ctx, realm, opts
}

// Rearm readies a run that ended for another phase (a retained run's
// handle invocation): a new context, deadline and clock, and a fresh
// inbox and table of host calls. The calls of the phase before were cut
// off by the host (none will post again); outcomes it posted and never
// applied are dropped with the old inbox.
func (l *Loop) Rearm(ctx context.Context, opts Options) {
	l.ctx = ctx
	l.opts.Deadline, l.opts.TimeoutMessage, l.opts.PauseHostWaits = opts.Deadline, opts.TimeoutMessage, opts.PauseHostWaits
	l.phase++
	if l.inbox != nil {
		for l.inbox.take() != nil {
		}
	}
	l.pending, l.held, l.paused = 0, 0, 0
	clear(l.calls)
	l.calls = l.calls[:0]
}

// Context is the run's context.
func (l *Loop) Context() context.Context { return l.ctx }

// Settle drives the job loop until p is settled: microtasks first, then
// host outcomes from the inbox. It fails when the context ends, the
// deadline passes, or nothing is left that could settle p.
func (l *Loop) Settle(guard Guard, p *value.Object) *Failure {
	pd := p.Internal.(*value.PromiseData)
	for {
		if fail := guard(l.realm.RunJobs); fail != nil {
			return fail
		}
		if pd.State != value.Pending {
			return nil
		}
		if fail := l.Wait(guard); fail != nil {
			return fail
		}
	}
}

// Drain applies the host outcomes already posted and runs the microtasks
// that are ready, without waiting for anything.
func (l *Loop) Drain(guard Guard) *Failure {
	return guard(func() {
		for {
			l.realm.RunJobs()
			if l.inbox == nil {
				return
			}
			c := l.inbox.take()
			if c == nil {
				return
			}
			l.settle(c)
		}
	})
}

// Wait blocks for the next host outcome and applies it. It fails when
// no host call is pending, the context ends or the deadline passes.
func (l *Loop) Wait(guard Guard) *Failure {
	if l.pending == 0 {
		if l.held > 0 {
			return &Failure{Suspend: SuspendHeld}
		}
		return NeverSettles()
	}
	// Most host calls finish within microseconds: yield a few times
	// before parking, so that the outcome is picked up without the cost
	// of putting this goroutine's thread to sleep and waking it.
	for i := 0; i < spinPolls; i++ {
		if c := l.inbox.take(); c != nil {
			return l.apply(guard, c)
		}
		runtime.Gosched()
	}
	var timer <-chan time.Time
	var paused time.Time
	if l.opts.PauseHostWaits {
		// The clock stops while only the host can make progress: no
		// deadline fires now, and the deadline moves by the wait (before
		// the outcome is applied, which checks it).
		paused = time.Now()
	} else if !l.opts.Deadline.IsZero() {
		t := time.NewTimer(time.Until(l.opts.Deadline))
		defer t.Stop()
		timer = t.C
	}
	resume := func() {
		if !paused.IsZero() {
			l.pause(paused)
		}
	}
	for {
		if c := l.inbox.take(); c != nil {
			resume()
			return l.apply(guard, c)
		}
		select {
		case <-l.suspend:
			resume()
			return &Failure{Suspend: SuspendRequested}
		case <-l.inbox.signal:
		case <-l.ctx.Done():
			resume()
			return &Failure{Interrupt: l.ctxInterrupt()}
		case <-timer:
			return &Failure{Interrupt: l.Timeout()}
		}
	}
}

// pause moves the deadline by the wait that began at t0.
func (l *Loop) pause(t0 time.Time) {
	d := time.Since(t0)
	l.paused += d
	if !l.opts.Deadline.IsZero() {
		l.opts.Deadline = l.opts.Deadline.Add(d)
	}
}

// Paused is how long the run has waited on the host with its clock
// stopped (Options.PauseHostWaits), which its timeout does not count.
func (l *Loop) Paused() time.Duration { return l.paused }

// spinPolls is how many times Wait looks at the inbox, yielding between
// looks, before it parks: parking and waking a thread costs more than a
// typical host call.
const spinPolls = 32

// apply applies one host outcome on the run's side.
func (l *Loop) apply(guard Guard, c *HostCall) *Failure {
	if l.settleNext == nil {
		// Made once per run: a closure per outcome would be an
		// allocation per call.
		l.settleNext = func() { l.settle(l.next) }
	}
	l.next = c
	fail := guard(l.settleNext)
	l.next = nil
	return fail
}

func (l *Loop) settle(c *HostCall) {
	if c.phase != l.phase {
		return // posted by a call of a phase that ended
	}
	l.pending--
	l.untrack(c)
	c.Status = CallApplied
	c.Settler.Settle(l.realm, c)
	// The outcome is in the program's values now: the host's copy (a
	// tool's whole response) is not kept for the rest of the run.
	c.Result, c.Err, c.Args = nil, nil, nil
}

// Begin records a host call started; its outcome must come back through
// exactly one Post, or none when the run ends first.
func (l *Loop) Begin(c *HostCall) {
	if l.inbox == nil {
		l.inbox = newInbox()
	}
	c.Status, c.phase = CallRunning, l.phase
	l.pending++
	l.track(c)
}

func (l *Loop) track(c *HostCall) {
	c.slot = len(l.calls)
	l.calls = append(l.calls, c)
}

// untrack removes c from the table of calls.
func (l *Loop) untrack(c *HostCall) {
	if c.slot < 0 || c.slot >= len(l.calls) || l.calls[c.slot] != c {
		return
	}
	last := len(l.calls) - 1
	l.calls[c.slot] = l.calls[last]
	l.calls[c.slot].slot = c.slot
	l.calls[last] = nil
	l.calls = l.calls[:last]
	c.slot = -1
}

// Hold keeps a call whose outcome was just applied as held for a
// decision (an approval): its Settler calls it instead of settling the
// promise. A held call is not pending (nothing will post it), so a run
// with only held calls left stops to be saved instead of waiting.
func (l *Loop) Hold(c *HostCall) {
	if c.Held {
		return
	}
	c.Status, c.Held = CallHeld, true
	l.held++
	l.track(c)
}

// Interrupt makes a running call held (a suspend that cuts calls off):
// the host has claimed it, so nothing will post its outcome, and the
// saved run makes it again when resumed.
func (l *Loop) Interrupt(c *HostCall) {
	if c.Held || c.Status != CallRunning || c.phase != l.phase {
		return
	}
	l.pending--
	l.held++
	c.Status, c.Held = CallHeld, true
}

// Unhold ends a hold: the call is dropped from the table, to be begun
// again (approved) or settled by the caller (denied).
func (l *Loop) Unhold(c *HostCall) {
	if !c.Held {
		return
	}
	l.held--
	l.untrack(c)
	c.Status, c.Held = CallApplied, false
}

// Calls are the host calls begun and not yet applied (running, posted
// or held), in the order they began.
func (l *Loop) Calls() []*HostCall {
	out := slices.Clone(l.calls)
	slices.SortFunc(out, func(a, b *HostCall) int { return a.Seq - b.Seq })
	return out
}

// ApplyPosted applies the outcomes posted and not yet applied, without
// running a job: a run about to be saved applies them, so that only the
// jobs they queued need saving.
func (l *Loop) ApplyPosted(guard Guard) *Failure {
	if l.inbox == nil {
		return nil
	}
	return guard(func() {
		for c := l.inbox.take(); c != nil; c = l.inbox.take() {
			l.settle(c)
		}
	})
}

// Restore puts a saved held call back in the table of a restored run.
func (l *Loop) Restore(c *HostCall) {
	c.Status = CallApplied
	l.Hold(c)
}

// WaitHost is Wait for an outcome that ignores a suspend request: a run
// that cannot be saved while calls are running waits for them.
func (l *Loop) WaitHost(guard Guard) *Failure {
	ch := l.suspend
	l.suspend = nil
	defer func() { l.suspend = ch }()
	return l.Wait(guard)
}

// RequestSuspend asks the run to stop at its next wait for a host
// outcome; safe from any goroutine. The run's Settle then fails with a
// Failure whose Suspend is SuspendRequested.
func (l *Loop) RequestSuspend() {
	if l.suspend == nil {
		return
	}
	select {
	case l.suspend <- struct{}{}:
	default:
	}
}

// EnableSuspend makes RequestSuspend work; call it before the run starts.
func (l *Loop) EnableSuspend() { l.suspend = make(chan struct{}, 1) }

// SuspendPending reports whether a suspend was requested and not yet
// seen, without consuming the request.
func (l *Loop) SuspendPending() bool { return len(l.suspend) > 0 }

// SuspendAsked reports, without waiting, whether a suspend was requested,
// and consumes the request.
func (l *Loop) SuspendAsked() bool {
	if l.suspend == nil {
		return false
	}
	select {
	case <-l.suspend:
		return true
	default:
		return false
	}
}

// Post delivers a host call's outcome (set on c before the call) to the
// run; it is safe to call from any goroutine, once per Begin. The run
// applies it between jobs, through c.Settler. Post never blocks; after
// Close it returns at once and the outcome is dropped.
func (l *Loop) Post(c *HostCall) {
	l.inbox.post(c)
}

// Close drops the outcomes still queued and every later Post.
func (l *Loop) Close() {
	if l.inbox != nil {
		l.inbox.close()
	}
}

// Timeout is the interrupt of a run past its deadline.
func (l *Loop) Timeout() *value.Interrupt {
	msg := l.opts.TimeoutMessage
	if msg == "" {
		msg = "Execution timed out."
	}
	return &value.Interrupt{Kind: "TimeoutExceeded", Message: msg}
}

// ctxInterrupt is the interrupt of a run whose context ended.
func (l *Loop) ctxInterrupt() *value.Interrupt {
	if l.ctx.Err() == context.DeadlineExceeded {
		return l.Timeout()
	}
	return &value.Interrupt{Kind: "ExecutionFailure", Message: "Execution was cancelled: " + l.ctx.Err().Error()}
}

// CheckInterrupts panics with the run's interrupt once its deadline has
// passed or its context has ended.
func (l *Loop) CheckInterrupts() {
	if !l.opts.Deadline.IsZero() && time.Now().After(l.opts.Deadline) {
		panic(l.Timeout())
	}
	if l.ctx.Err() != nil {
		panic(l.ctxInterrupt())
	}
}

// Deadline is when the run times out (the earlier of its own deadline and
// its context's), or the zero time; long-running built-ins such as
// regular expressions bound their work by it.
func (l *Loop) Deadline() time.Time {
	d := l.opts.Deadline
	if cd, ok := l.ctx.Deadline(); ok && (d.IsZero() || cd.Before(d)) {
		d = cd
	}
	return d
}

// Thenable returns the promise that adopts v when v is a thenable (an
// object with a callable then), as an async function's return value is
// adopted, or nil.
func Thenable(r *value.Realm, v value.Value) *value.Object {
	o := v.AsObject()
	if o == nil {
		return nil
	}
	if then := r.GetObj(o, "then", v).AsObject(); then != nil && then.Callable() {
		p := r.NewPromise()
		r.ResolvePromise(p, v)
		return p
	}
	return nil
}
