package engine

import (
	"context"
	"runtime"
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
	// next is the call apply settles through settleNext.
	next       *HostCall
	settleNext func()
}

// Guard runs f on the engine's side, turning a panic (a throw, an
// interrupt, a bug) into a Failure and restoring the engine's state.
type Guard func(f func()) *Failure

// Init prepares the loop of a run in realm under ctx.
func (l *Loop) Init(ctx context.Context, realm *value.Realm, opts Options) {
	l.ctx, l.realm, l.opts = ctx, realm, opts
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
	if !l.opts.Deadline.IsZero() {
		t := time.NewTimer(time.Until(l.opts.Deadline))
		defer t.Stop()
		timer = t.C
	}
	for {
		if c := l.inbox.take(); c != nil {
			return l.apply(guard, c)
		}
		select {
		case <-l.inbox.signal:
		case <-l.ctx.Done():
			return &Failure{Interrupt: l.ctxInterrupt()}
		case <-timer:
			return &Failure{Interrupt: l.Timeout()}
		}
	}
}

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
	l.pending--
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
	c.Status = CallRunning
	l.pending++
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
