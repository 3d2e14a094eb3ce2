package codemode_test

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// TestSuspendInterrupting: a run waiting on tools is saved at once, its
// running calls cut off (their contexts cancelled, their after-hooks
// told) and made again when it resumes in another Runtime.
func TestSuspendInterrupting(t *testing.T) {
	ctx := context.Background()
	var calls atomic.Int32
	var startedOnce sync.Once
	started := make(chan struct{})
	cancelled := make(chan struct{}, 4)
	newRuntime := func(blocking bool) *codemode.Runtime {
		lookup := &tools.Tool{Description: "looks a key up", Output: json.RawMessage(`{"type":"object"}`),
			Func: func(ctx context.Context, in json.RawMessage) (any, error) {
				calls.Add(1)
				if blocking {
					startedOnce.Do(func() { close(started) })
					<-ctx.Done()
					cancelled <- struct{}{}
					return nil, ctx.Err()
				}
				var arg struct{ Key string }
				_ = json.Unmarshal(in, &arg)
				return map[string]any{"value": arg.Key + "!"}, nil
			}}
		var interrupted atomic.Int32
		rt, err := codemode.New(codemode.Options{Tools: map[string]any{"lookup": lookup}, Hooks: codemode.Hooks{
			ToolAfter: func(_ context.Context, _ codemode.ToolCallInfo, out codemode.CallOutcome) {
				if out.Status == codemode.CallInterrupted {
					interrupted.Add(1)
				}
			}}})
		if err != nil {
			t.Fatal(err)
		}
		return rt
	}
	first := newRuntime(true)
	p := first.Program(`console.log("before");
const [a, b] = await Promise.all([tools.lookup({key: "a"}), tools.lookup({key: "b"})]);
console.log("after");
return a.value + b.value`)
	done := make(chan codemode.Outcome, 1)
	go func() {
		out, err := p.Run(ctx)
		if err != nil {
			t.Error(err)
		}
		done <- out
	}()
	<-started
	if _, err := p.Suspend(ctx); err == nil {
		t.Fatal("a plain Suspend succeeded while the calls ran")
	}
	got, err := p.SuspendInterrupting(ctx)
	if err != nil || !got.IsSuspended() {
		t.Fatalf("SuspendInterrupting: %v, %+v", err, got.Result)
	}
	if len(got.Suspended.Pending) != 0 {
		t.Errorf("calls cut off are listed as pending decisions: %+v", got.Suspended.Pending)
	}
	if out := <-done; !out.IsSuspended() {
		t.Fatalf("Run gave %+v", out.Result)
	}
	// Every call that started saw its context end. The second call may
	// not have started at all: cut off while queued, it never runs here.
	for seen, waited := 0, 0; seen < int(calls.Load()); {
		select {
		case <-cancelled:
			seen++
		case <-time.After(10 * time.Millisecond):
			if waited++; waited > 1000 {
				t.Fatalf("%d of %d started calls saw their context end", seen, calls.Load())
			}
		}
	}
	before := calls.Load()
	res, err := newRuntime(false).Resume(got.Suspended.State).Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ok":true,"value":"a!b!","logs":["before","after"],"toolCalls":[{"name":"lookup"},{"name":"lookup"}]}`
	if res.Result.String() != want {
		t.Errorf("got  %s\nwant %s", res.Result, want)
	}
	if n := calls.Load() - before; n != 2 {
		t.Errorf("the resumed run made %d calls, want the 2 cut off", n)
	}
}
