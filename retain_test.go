package codemode_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/protocol"
)

const counterProgram = `let n = 0;
console.log("made");
return {
  inc: k => n += k,
  get: () => n,
  total: 1,
  nested: { reset() { n = 0; console.log("reset") } },
  list: [1, () => "two"],
  "odd key": async () => (await tools.echo({n})).n,
}`

// TestRetainedHandles: a run whose value holds functions is kept with
// WithRetain, and InvokeHandle calls them later, in the same heap.
func TestRetainedHandles(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Tools: testTools()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res := rt.Execute(ctx, counterProgram, codemode.WithRetain())
	if !res.OK || res.ExecutionID == "" {
		t.Fatalf("got %s", res)
	}
	if got := strings.Join(res.Handles, " "); got != `inc get nested.reset list[1] ["odd key"]` {
		t.Errorf("handles %s", got)
	}
	if string(res.Value) != `{"total":1,"nested":{},"list":[1,null]}` {
		t.Errorf("value %s", res.Value)
	}
	if !strings.Contains(res.String(), `"executionId":"`+res.ExecutionID+`","handles":["inc",`) {
		t.Errorf("JSON %s", res)
	}
	id := res.ExecutionID
	steps := []struct {
		handle string
		args   []any
		want   string // the Result as JSON
	}{
		{"inc", []any{5}, `{"ok":true,"value":5,"toolCalls":[]}`},
		{"inc", []any{2.5}, `{"ok":true,"value":7.5,"toolCalls":[]}`},
		{"get", nil, `{"ok":true,"value":7.5,"toolCalls":[]}`},
		{`["odd key"]`, nil, `{"ok":true,"value":7.5,"toolCalls":[{"name":"echo"}]}`},
		{"nested.reset", nil, `{"ok":true,"value":null,"logs":["reset"],"toolCalls":[]}`},
		{"get", nil, `{"ok":true,"value":0,"toolCalls":[]}`},
		{"list[1]", nil, `{"ok":true,"value":"two","toolCalls":[]}`},
		{"inc", []any{map[string]any{"x": 1}}, `{"ok":true,"value":"0[object Object]","toolCalls":[]}`},
	}
	for _, s := range steps {
		got, err := rt.InvokeHandle(ctx, id, s.handle, s.args)
		if err != nil || got.String() != s.want {
			t.Errorf("%s(%v) = %s, %v\nwant %s", s.handle, s.args, got, err, s.want)
		}
	}
	if _, err := rt.InvokeHandle(ctx, id, "missing", nil); err == nil || !strings.Contains(err.Error(), `has no handle "missing"; its handles are: ["odd key"], get, inc, list[1], nested.reset`) {
		t.Errorf("unknown handle: %v", err)
	}
	if err := rt.CloseHandles(id); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.InvokeHandle(ctx, id, "get", nil); !errors.Is(err, codemode.ErrUnknownExecution) || protocol.CodeOf(err) != protocol.CodeUnknownExecution {
		t.Errorf("after close: %v", err)
	}
	if err := rt.CloseHandles(id); !errors.Is(err, codemode.ErrUnknownExecution) {
		t.Errorf("second close: %v", err)
	}
	if len(rt.Retained()) != 0 {
		t.Errorf("still retained: %v", rt.Retained())
	}
}

// TestRetainedNotKept: runs without functions, failed runs, and runs
// without WithRetain are not kept.
func TestRetainedNotKept(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{})
	for _, c := range []struct {
		code string
		opts []codemode.ExecOption
	}{
		{`return {a: 1}`, []codemode.ExecOption{codemode.WithRetain()}},
		{`const f = () => 1; throw new Error("no")`, []codemode.ExecOption{codemode.WithRetain()}},
		{`return {f: () => 1}`, nil},
		{`return {tools}`, []codemode.ExecOption{codemode.WithRetain()}},
	} {
		res := rt.Execute(context.Background(), c.code, c.opts...)
		if res.ExecutionID != "" || len(res.Handles) != 0 {
			t.Errorf("%s: kept: %s", c.code, res)
		}
	}
	if len(rt.Retained()) != 0 {
		t.Errorf("retained %v", rt.Retained())
	}
}

// TestRetainedRootAndFailures: a function returned as the value is the
// handle "$"; an invocation that throws or times out fails alone, and
// the run stays usable.
func TestRetainedRootAndFailures(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{})
	ctx := context.Background()
	res := rt.Execute(ctx, `let calls = 0; return (mode) => { calls++; if (mode === "throw") throw new TypeError("bad mode"); if (mode === "spin") while (true) {} return calls }`, codemode.WithRetain())
	if len(res.Handles) != 1 || res.Handles[0] != "$" {
		t.Fatalf("got %s", res)
	}
	id := res.ExecutionID
	defer rt.CloseHandles(id)
	got, _ := rt.InvokeHandle(ctx, id, "$", []any{"throw"})
	if got.OK || got.Error.Message != "TypeError: bad mode" {
		t.Errorf("throw: %s", got)
	}
	got, _ = rt.InvokeHandle(ctx, id, "$", []any{"spin"}, codemode.WithLimits(codemode.Limits{Timeout: 50 * time.Millisecond}))
	if got.OK || got.Error.Kind != codemode.TimeoutExceeded {
		t.Errorf("spin: %s", got)
	}
	got, _ = rt.InvokeHandle(ctx, id, "$", nil)
	if string(got.Value) != "3" {
		t.Errorf("after failures: %s", got)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	got, _ = rt.InvokeHandle(cctx, id, "$", nil)
	if got.OK || got.Error.Kind != codemode.Cancelled {
		t.Errorf("cancelled: %s", got)
	}
}

// TestRetainedIdleTimeout: a retained run no one invokes is released
// after Options.HandlesIdleTimeout.
func TestRetainedIdleTimeout(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{HandlesIdleTimeout: 20 * time.Millisecond})
	res := rt.Execute(context.Background(), `return {f: () => 1}`, codemode.WithRetain())
	if res.ExecutionID == "" {
		t.Fatalf("got %s", res)
	}
	for i := 0; len(rt.Retained()) > 0; i++ {
		if i > 500 {
			t.Fatal("the run was never released")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := rt.InvokeHandle(context.Background(), res.ExecutionID, "f", nil); !errors.Is(err, codemode.ErrUnknownExecution) {
		t.Errorf("got %v", err)
	}
}

// TestRetainedLimit: past Options.MaxRetained a run is not kept, and its
// Result says why.
func TestRetainedLimit(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{MaxRetained: 1})
	first := rt.Execute(context.Background(), `return {f: () => 1}`, codemode.WithRetain())
	second := rt.Execute(context.Background(), `return {f: () => 2}`, codemode.WithRetain())
	if first.ExecutionID == "" || second.ExecutionID != "" || len(second.Warnings) != 1 ||
		!strings.Contains(second.Warnings[0].Message, "Options.MaxRetained") {
		t.Fatalf("got %s and %s", first, second)
	}
	_ = rt.CloseHandles(first.ExecutionID)
}

// TestRetainedConcurrentInvocations: invocations of one run take turns.
func TestRetainedConcurrentInvocations(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{Tools: testTools()})
	res := rt.Execute(context.Background(), `let n = 0; return {inc: async () => { const r = await tools.echo({v: n}); n = r.v + 1; return n }, get: () => n}`, codemode.WithRetain())
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r, err := rt.InvokeHandle(context.Background(), res.ExecutionID, "inc", nil); err != nil || !r.OK {
				t.Errorf("inc: %s %v", r, err)
			}
		}()
	}
	wg.Wait()
	got, _ := rt.InvokeHandle(context.Background(), res.ExecutionID, "get", nil)
	if string(got.Value) != "20" {
		t.Errorf("got %s", got)
	}
	_ = rt.CloseHandles(res.ExecutionID)
}

// TestRetainedMemory: a retained run's memory count goes on across its
// invocations, so what it keeps cannot outgrow the budget; past it the
// run is released.
func TestRetainedMemory(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{Limits: codemode.Limits{MaxMemoryBytes: 8 << 20}})
	ctx := context.Background()
	res := rt.Execute(ctx, `const kept = []; return { grow: () => { kept.push("x".repeat(1 << 20)); return kept.length } }`, codemode.WithRetain())
	var last codemode.Result
	for i := 0; i < 20; i++ {
		r, err := rt.InvokeHandle(ctx, res.ExecutionID, "grow", nil)
		if err != nil {
			t.Fatalf("invocation %d: %v", i, err)
		}
		last = r
		if !r.OK {
			break
		}
	}
	if last.OK || last.Error.Kind != codemode.MemoryLimitExceeded || !strings.Contains(last.Error.Message, "so this one is released") {
		t.Fatalf("got %s", last)
	}
	if _, err := rt.InvokeHandle(ctx, res.ExecutionID, "grow", nil); !errors.Is(err, codemode.ErrUnknownExecution) {
		t.Errorf("after the limit: %v", err)
	}
}
