package engine

import (
	"context"
	"sync"
	"testing"

	"github.com/go-codemode/codemode/builtin"
	"github.com/go-codemode/codemode/value"
)

// testLoop is a loop over a realm with no program: the tests drive it as
// an engine would.
func testLoop(t *testing.T) (*Loop, *value.Realm) {
	t.Helper()
	r := value.NewRealm(builtin.New(), nil)
	l := &Loop{}
	l.Init(context.Background(), r, Options{})
	return l, r
}

// guard is the simplest engine guard: a panic becomes a Failure.
func guard(f func()) (fail *Failure) {
	defer func() {
		if p := recover(); p != nil {
			fail = &Failure{Panic: p}
		}
	}()
	f()
	return nil
}

// recorder is a Settler that notes the order outcomes are applied in.
type recorder struct {
	got []int
	// then runs after each outcome, if set.
	then func(r *value.Realm)
}

func (s *recorder) Settle(r *value.Realm, c *HostCall) {
	s.got = append(s.got, c.Result.(int))
	if s.then != nil {
		s.then(r)
	}
}

// TestPostNeverBlocks: host outcomes posted while the run is busy queue
// without bound (Post returns at once), and the run applies them all, in
// the order they were posted. Posting on the run's own goroutine would
// hang here if the inbox were bounded.
func TestPostNeverBlocks(t *testing.T) {
	l, _ := testLoop(t)
	defer l.Close()
	const n = 1000
	rec := &recorder{}
	for i := range n {
		c := &HostCall{Seq: i, Kind: CallTool, Settler: rec}
		l.Begin(c)
		c.Result = i
		l.Post(c)
		if c.Status != CallPosted {
			t.Fatalf("status after Post = %d, want CallPosted", c.Status)
		}
	}
	if fail := l.Drain(guard); fail != nil {
		t.Fatal(fail)
	}
	if len(rec.got) != n {
		t.Fatalf("applied %d outcomes, want %d", len(rec.got), n)
	}
	for i, v := range rec.got {
		if v != i {
			t.Fatalf("outcome %d applied at position %d: outcomes must apply in the order posted", v, i)
		}
	}
}

// TestPostFromManyGoroutines: outcomes posted concurrently all arrive,
// each once, through Settle's waiting as well as Drain.
func TestPostFromManyGoroutines(t *testing.T) {
	l, r := testLoop(t)
	defer l.Close()
	const n = 500
	p := r.NewPromise()
	rec := &recorder{}
	rec.then = func(r *value.Realm) {
		if len(rec.got) == n {
			r.ResolvePromise(p, value.Number(n))
		}
	}
	calls := make([]*HostCall, n)
	for i := range calls {
		calls[i] = &HostCall{Seq: i, Settler: rec, Result: i}
		l.Begin(calls[i])
	}
	var wg sync.WaitGroup
	for _, c := range calls {
		wg.Go(func() { l.Post(c) })
	}
	if fail := l.Settle(guard, p); fail != nil {
		t.Fatal(fail)
	}
	wg.Wait()
	if fail := l.Drain(guard); fail != nil {
		t.Fatal(fail)
	}
	if len(rec.got) != n {
		t.Errorf("applied %d outcomes, want %d", len(rec.got), n)
	}
	for _, c := range calls {
		if c.Status != CallApplied {
			t.Fatalf("call %d: status %d, want CallApplied", c.Seq, c.Status)
		}
	}
}

// TestPostAfterClose: an outcome posted after Close is dropped, and Post
// still returns at once.
func TestPostAfterClose(t *testing.T) {
	l, _ := testLoop(t)
	rec := &recorder{}
	c := &HostCall{Settler: rec, Result: 1}
	l.Begin(c)
	l.Close()
	l.Post(c)
	if fail := l.Drain(guard); fail != nil {
		t.Fatal(fail)
	}
	if len(rec.got) != 0 {
		t.Error("an outcome posted after Close was applied")
	}
	if c.Status != CallRunning {
		t.Errorf("a dropped outcome's call has status %d, want CallRunning", c.Status)
	}
}

// TestWaitWithNothingPending: waiting with no host call outstanding ends
// the run at once with the reference's message, instead of hanging.
func TestWaitWithNothingPending(t *testing.T) {
	l, r := testLoop(t)
	fail := l.Settle(guard, r.NewPromise())
	if fail == nil || fail.Interrupt == nil || fail.Interrupt.Kind != "ExecutionFailure" {
		t.Fatalf("got %+v, want an ExecutionFailure interrupt", fail)
	}
}

// TestWaitCancelled: a cancelled context ends a wait for a call that
// never posts.
func TestWaitCancelled(t *testing.T) {
	r := value.NewRealm(builtin.New(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	l := &Loop{}
	l.Init(ctx, r, Options{})
	l.Begin(&HostCall{Settler: &recorder{}})
	cancel()
	fail := l.Settle(guard, r.NewPromise())
	if fail == nil || fail.Interrupt == nil || fail.Interrupt.Message != "Execution was cancelled: context canceled" {
		t.Fatalf("got %+v, want the cancellation interrupt", fail)
	}
}
