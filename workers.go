package codemode

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/go-codemode/codemode/internal/engine"
)

// Calls run on worker goroutines. A worker that finished a call takes
// the next one, keeping its grown stack, until the run's context ends. A
// call goes to an idle worker if there is one, else to a new worker,
// up to a few per processor; beyond that it waits in the pool's queue
// for the first worker to finish. A queue that nobody takes from for a
// tick (every worker is held up by a slow tool) gets as many new workers
// as are busy, every tick until it is empty: so a burst of quick calls (Promise.all over a list)
// runs on a handful of goroutines instead of one each, whose stacks grow
// and are scanned one by one, and no call waits long behind slow ones.

// A task is one call's work on a worker. run returns the call with its
// outcome to post to the run, or nil; the worker posts it only after it
// is free for the next task, so that the call the outcome lets the
// program make finds it. A call is its own task: no closure per call.
type task interface {
	run() *engine.HostCall
}

// queueTick is how long queued calls may go without a worker taking one
// before more workers start.
const queueTick = 500 * time.Microsecond

// workerPool is a run's worker goroutines, for one phase of the run
// (a retained run's handle invocation gets a new pool): its workers end
// with ctx.
type workerPool struct {
	ctx context.Context
	mu  sync.Mutex
	// idle are the inboxes of workers free for a task (capacity one; a
	// worker is listed at most once, and only spawn sends to it).
	idle []chan task
	// queue holds calls waiting for a worker, in the order made.
	queue []task
	busy  int // workers running a task
	eager int // maxEagerWorkers, read once (GOMAXPROCS takes a lock)
	taken int // tasks workers have taken from the queue, ever
	// watch is the timer that looks at the queue every tick while it is
	// not empty; lastTaken is taken at the previous look.
	watch     *time.Timer
	watching  bool
	lastTaken int
	// closed: the run's context ended; a task still coming gets a new
	// goroutine, which returns once the task is done.
	closed bool
}

// workerSpins is how many times an idle worker looks for its next task
// before it parks.
const workerSpins = 64

// maxEagerWorkers is how many workers may be busy before a call with
// none idle waits in the queue.
func maxEagerWorkers() int { return max(8, 4*runtime.GOMAXPROCS(0)) }

// spawn runs f on an idle worker, a new one, or the first one free.
func (h *toolHost) spawn(f task) {
	p := h.pool
	if p == nil {
		p = &workerPool{ctx: h.ctx}
		h.pool = p
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		go h.worker(p, f)
		return
	}
	if n := len(p.idle); n > 0 {
		w := p.idle[n-1]
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
		p.busy++
		w <- f // never blocks: an idle worker's inbox is empty
		p.mu.Unlock()
		return
	}
	if p.eager == 0 {
		p.eager = maxEagerWorkers()
	}
	if p.busy < p.eager {
		p.busy++
		p.mu.Unlock()
		go h.worker(p, f)
		return
	}
	p.queue = append(p.queue, f)
	if !p.watching {
		p.watching = true
		p.lastTaken = p.taken
		if p.watch == nil {
			p.watch = time.AfterFunc(queueTick, func() { h.checkQueue(p) })
		} else {
			p.watch.Reset(queueTick)
		}
	}
	p.mu.Unlock()
}

// checkQueue runs every tick while calls are queued: when no worker took
// one since the last look, every queued call gets a worker of its own.
func (h *toolHost) checkQueue(p *workerPool) {
	p.mu.Lock()
	if len(p.queue) == 0 || p.ctx.Err() != nil {
		// With the context ended the run is over or ending: its end
		// claims the queued calls, which must not start.
		p.watching = false
		p.mu.Unlock()
		return
	}
	if p.taken != p.lastTaken {
		p.lastTaken = p.taken
		p.watch.Reset(queueTick)
		p.mu.Unlock()
		return
	}
	// As many new workers as are busy (doubling them), so that a burst
	// held up only because the workers wait for a processor does not get
	// a goroutine per call, while calls behind slow tools start within a
	// few ticks.
	n := min(len(p.queue), max(p.busy, p.eager))
	stuck := p.queue[:n:n]
	p.queue = p.queue[n:]
	p.busy += n
	if len(p.queue) > 0 {
		p.watch.Reset(queueTick)
	} else {
		p.watching = false
	}
	p.mu.Unlock()
	for _, f := range stuck {
		go h.worker(p, f)
	}
}

func (h *toolHost) worker(p *workerPool, f task) {
	var in chan task
	for {
		out := f.run()
		next, idle := p.done(&in)
		if out != nil {
			h.run.Post(out)
		}
		if next != nil {
			f = next
			continue
		}
		if !idle {
			return
		}
		var ok bool
		if f, ok = p.next(p.ctx, in); !ok {
			return
		}
	}
}

// done is a worker's turn after a task: the next queued task, or the
// worker listed as idle (its inbox made on first use); neither once the
// pool is closed, when the worker should return.
func (p *workerPool) done(in *chan task) (task, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.queue) > 0 && !p.closed {
		f := p.queue[0]
		p.queue[0] = nil
		p.queue = p.queue[1:]
		p.taken++
		return f, false
	}
	p.busy--
	if p.closed {
		return nil, false
	}
	if *in == nil {
		*in = make(chan task, 1)
	}
	p.idle = append(p.idle, *in)
	return nil, true
}

// next waits for the idle worker's next task, until ctx ends. A task
// handed over just before the end still runs: its call was claimed, so
// it does nothing, but it is not dropped silently.
func (p *workerPool) next(ctx context.Context, in chan task) (task, bool) {
	// A program that awaits each call in turn makes the next one within
	// microseconds of the last outcome: look for it a few times, yielding
	// between looks, before parking, so that the hand-over costs no
	// thread wake-up on either side.
	for range workerSpins {
		select {
		case f := <-in:
			return f, true
		default:
		}
		runtime.Gosched()
	}
	select {
	case f := <-in:
		return f, true
	case <-ctx.Done():
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	select {
	case f := <-in:
		return f, true
	default:
		return nil, false
	}
}
