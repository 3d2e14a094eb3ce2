package server

import (
	"context"
	"sync"

	"github.com/go-codemode/codemode/protocol"
)

// scheduler bounds how many runs call the backend at once and queues the
// others first come first served: the seed's pool admission, without the
// pool.
type scheduler struct {
	capacity int // runs at once
	maxQueue int // waiting runs; 0 for none
	onDepth  func(int)

	mu      sync.Mutex
	busy    int
	queue   []*waiter
	stopped error // set by stop: every request is refused with it
}

type waiter struct {
	ready   chan struct{} // closed when granted or refused
	granted bool          // under scheduler.mu
	err     error         // the refusal, under scheduler.mu
}

func newScheduler(capacity, maxQueue int, onDepth func(int)) *scheduler {
	return &scheduler{capacity: capacity, maxQueue: max(maxQueue, 0), onDepth: onDepth}
}

// acquire takes a slot, waiting in the queue for one when every slot is
// busy. It returns QUEUE_OVERFLOW when the queue is full, and the cause
// of ctx, or stopErr(), when ctx ends or stop closes while it waits.
func (s *scheduler) acquire(ctx context.Context, stop <-chan struct{}, stopErr func() error) error {
	s.mu.Lock()
	if s.stopped != nil {
		s.mu.Unlock()
		return s.stopped
	}
	if s.busy < s.capacity && len(s.queue) == 0 {
		s.busy++
		s.mu.Unlock()
		return nil
	}
	if len(s.queue) >= s.maxQueue {
		s.mu.Unlock()
		return protocol.Errorf(protocol.CodeQueueOverflow,
			"the server runs %d executions at once and %d more already wait; raise --max-queue (or --max-workers), or retry later",
			s.capacity, s.maxQueue)
	}
	w := &waiter{ready: make(chan struct{})}
	s.queue = append(s.queue, w)
	s.onDepth(len(s.queue))
	s.mu.Unlock()

	var err error
	select {
	case <-w.ready:
		s.mu.Lock()
		defer s.mu.Unlock()
		if w.granted {
			return nil
		}
		return w.err
	case <-ctx.Done():
		err = context.Cause(ctx)
	case <-stop:
		err = stopErr()
	}
	s.mu.Lock()
	if w.granted { // granted as it gave up: pass the slot on
		s.mu.Unlock()
		s.release()
		return err
	}
	if w.err != nil { // refused as it gave up
		s.mu.Unlock()
		return err
	}
	for i, q := range s.queue {
		if q == w {
			s.queue = append(s.queue[:i], s.queue[i+1:]...)
			break
		}
	}
	s.onDepth(len(s.queue))
	s.mu.Unlock()
	return err
}

// release returns a slot, handing it to the first waiter if there is
// one.
func (s *scheduler) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 {
		s.busy--
		return
	}
	w := s.queue[0]
	s.queue[0] = nil
	s.queue = s.queue[1:]
	w.granted = true
	close(w.ready)
	s.onDepth(len(s.queue))
}

// stop refuses every request waiting and every later one with err.
func (s *scheduler) stop(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = err
	for _, w := range s.queue {
		w.err = err
		close(w.ready)
	}
	s.queue = nil
	s.onDepth(0)
}
