package engine

import (
	"sync"
)

// inbox holds host calls posted from other goroutines until the run
// applies them, in the order they were posted. It is unbounded, so that
// Post never blocks: a worker that finished a call is free for the next
// one at once, however many outcomes the run has yet to apply.
type inbox struct {
	mu     sync.Mutex
	queue  []*HostCall // posted, not yet taken by the run
	closed bool
	// signal has a token when something was posted since the run last
	// looked; the run blocks on it when the queue is empty.
	signal chan struct{}

	// The run's side only: a batch taken from queue, applied one at a time.
	batch []*HostCall
	next  int
}

func newInbox() *inbox { return &inbox{signal: make(chan struct{}, 1)} }

// post adds c unless the inbox is closed, and wakes the run.
func (b *inbox) post(c *HostCall) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	c.Status = CallPosted
	b.queue = append(b.queue, c)
	b.mu.Unlock()
	select {
	case b.signal <- struct{}{}:
	default:
	}
}

// take returns the next outcome, or nil when none is waiting. Only the
// run calls it. The whole queue moves to the run's batch under one lock,
// and the two slices swap, so a steady stream allocates nothing.
func (b *inbox) take() *HostCall {
	if b.next == len(b.batch) {
		clear(b.batch)
		b.mu.Lock()
		b.batch, b.queue = b.queue, b.batch[:0]
		b.mu.Unlock()
		b.next = 0
		if len(b.batch) == 0 {
			return nil
		}
	}
	f := b.batch[b.next]
	b.batch[b.next] = nil
	b.next++
	return f
}

// close drops what is queued and every later post.
func (b *inbox) close() {
	b.mu.Lock()
	b.closed = true
	b.queue = nil
	b.mu.Unlock()
	b.batch, b.next = nil, 0
}
