package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// selfMap is a Go map that holds itself.
func selfMap() map[string]any {
	m := map[string]any{"a": 1}
	m["self"] = m
	return m
}

// nested is a []any n levels deep.
func nested(n int) any {
	var v any = 1.0
	for i := 0; i < n; i++ {
		v = []any{v}
	}
	return v
}

func valueExtension(name string, v func() any) codemode.Extension {
	return codemode.Extension{Name: name, Globals: map[string]any{name: codemode.HostFunc(func(context.Context, []any) (any, error) { return v(), nil })}}
}

// TestHostileExtensionValues: extension results and arguments have the
// guards tool values have.
func TestHostileExtensionValues(t *testing.T) {
	var argCount atomic.Int64
	exts := []codemode.Extension{
		valueExtension("loop", func() any { return selfMap() }),
		valueExtension("deep", func() any { return nested(1_000_000) }),
		valueExtension("deep32", func() any { return nested(32) }),
		valueExtension("deep33", func() any { return nested(33) }),
		valueExtension("selfList", func() any { l := []any{nil}; l[0] = l; return l }),
		valueExtension("prefix", func() any { l := []any{1.0, nil}; l[1] = l[:1]; return l }),
		valueExtension("sharedMap", func() any { m := map[string]any{"a": 1.0}; return []any{m, m} }),
		{Name: "keep", Globals: map[string]any{"keep": codemode.HostFunc(func(_ context.Context, args []any) (any, error) {
			argCount.Add(int64(len(args)))
			return len(args), nil
		})}},
		{Name: "wait", Globals: map[string]any{"wait": codemode.HostFunc(func(ctx context.Context, _ []any) (any, error) {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(5 * time.Second):
				return "ok", nil
			}
		})}},
		{Name: "later", Globals: map[string]any{"later": codemode.AsyncHostFunc(func(context.Context, []any) (any, error) { return 1, nil })}},
	}
	failure, memory, timeout := codemode.ExecutionFailure, codemode.MemoryLimitExceeded, codemode.TimeoutExceeded
	lim := codemode.Limits{Timeout: 2 * time.Second, MaxMemoryBytes: mib16}
	for _, tt := range []hostileCase{
		{"self map", `return loop()`, lim, []codemode.Kind{failure}, "TypeError: loop.self produced a circular value."},
		{"self list", `return selfList()`, lim, []codemode.Kind{failure}, "TypeError: selfList[0] produced a circular value."},
		{"1e6 deep", `return deep()`, lim, []codemode.Kind{failure}, "TypeError: deep" + strings.Repeat("[0]", 33) + " exceeds the maximum value depth of 32."},
		{"33 deep", `return deep33()`, lim, []codemode.Kind{failure}, "TypeError: deep33" + strings.Repeat("[0]", 33) + " exceeds the maximum value depth of 32."},
		{"a shorter slice of the same array is not a cycle", `return JSON.stringify(prefix())`, lim, nil, `"[1,[1]]"`},
		{"a shared map is not a cycle", `return JSON.stringify(sharedMap())`, lim, nil, `"[{\"a\":1},{\"a\":1}]"`},
		{"32 deep", `return JSON.stringify(deep32()).length`, lim, nil, "65"},
		{"sync ctx has the deadline", `return wait()`, codemode.Limits{Timeout: 200 * time.Millisecond}, []codemode.Kind{timeout}, "Execution timed out after 200ms."},
		{"sparse argument", `const a = []; a[1e7 - 1] = 1; return keep(a)`, lim, []codemode.Kind{memory}, "Execution exceeded its memory limit"},
		{"sparse argument unlimited", `const a = []; a[1e7 - 1] = 1; return keep(a)`, codemode.Limits{}, []codemode.Kind{failure}, "RangeError: Argument 1 to keep is larger than 8388608 bytes"},
		{"dag argument", `let x = [1]; for (let i = 0; i < 22; i++) x = [x, x]; return keep(x)`, lim, []codemode.Kind{failure, memory}, ""},
		{"function argument", `return keep(1, () => 1)`, lim, []codemode.Kind{failure}, "TypeError: Argument 2 to keep contains a function, which cannot be passed to an extension."},
		{"promise argument", `return keep(Promise.resolve(1))`, lim, []codemode.Kind{failure}, "TypeError: Argument 1 to keep contains an un-awaited Promise, which cannot be passed to an extension; await it first."},
		{"iterator argument", `return keep([1, 2].values())`, lim, []codemode.Kind{failure}, "TypeError: Argument 1 to keep contains an iterator, which cannot be passed to an extension"},
		{"not constructible", `return new later()`, lim, []codemode.Kind{failure}, "TypeError: new later(...) is not supported"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rt, err := codemode.New(codemode.Options{Extensions: exts, Limits: tt.limits})
			if err != nil {
				t.Fatal(err)
			}
			runHostile(t, rt, tt)
		})
	}
	if n := argCount.Load(); n != 0 {
		t.Errorf("keep was called with %d arguments; every call above must fail before it", n)
	}
}

// TestHostileToolResults: a tool result too deep for encoding/json (whose
// recursion would overflow the stack, a fatal error) or holding itself is
// InvalidToolOutput.
func TestHostileToolResults(t *testing.T) {
	mk := func(v func() any) *tools.Tool {
		return &tools.Tool{Description: "x", Output: objectOut, Func: func(context.Context, json.RawMessage) (any, error) { return v(), nil }}
	}
	rt, _ := codemode.New(codemode.Options{Tools: map[string]any{
		"deep":  mk(func() any { return nested(1_000_000) }),
		"loop":  mk(func() any { return selfMap() }),
		"typed": mk(func() any { return map[string][]any{"a": {nested(1_000_000)}} }),
	}, Limits: codemode.Limits{Timeout: 5 * time.Second, MaxMemoryBytes: mib16}})
	for _, name := range []string{"deep", "loop", "typed"} {
		res := rt.Execute(context.Background(), "return await tools."+name+"({})")
		reason := "nests deeper than 10000 levels (or holds itself)"
		if name == "loop" {
			reason = "holds itself (a cycle)"
		}
		want := `{"ok":false,"error":{"kind":"InvalidToolOutput","message":"Invalid output from tool '` + name + `': Error: json: the value ` + reason + `"},"toolCalls":[{"name":"` + name + `"}]}`
		if res.String() != want {
			t.Errorf("got  %s\nwant %s", res, want)
		}
	}
	res := rt.Execute(context.Background(), "return 1", codemode.WithBindings(map[string]any{"deep": nested(1_000_000)}))
	if res.OK || res.Error.Kind != codemode.InvalidDataValue || !strings.Contains(res.Error.Message, "nests deeper than 10000 levels") {
		t.Errorf("deep binding: got %s", res)
	}
}

// TestRunLifecycle: nothing about a run reaches the host after Execute
// returns.
func TestRunLifecycle(t *testing.T) {
	var mu sync.Mutex
	var returned time.Time
	var late []string
	// note records what happens after Execute returned (allowing a few
	// milliseconds for a tool that was started just before, whose first
	// line may run after).
	note := func(what string, slack time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		if !returned.IsZero() && time.Since(returned) > slack {
			late = append(late, fmt.Sprintf("%s %v after", what, time.Since(returned)))
		}
	}
	var started atomic.Int64
	send := &tools.Tool{Description: "ignores its context", Output: objectOut, Func: func(context.Context, json.RawMessage) (any, error) {
		started.Add(1)
		note("tool started", 5*time.Millisecond)
		time.Sleep(200 * time.Millisecond)
		return map[string]any{}, nil
	}}
	var afters sync.Map
	rt, _ := codemode.New(codemode.Options{Tools: map[string]any{"mail.send": send}, Hooks: codemode.Hooks{
		// A slow before-hook keeps the call from starting until after the
		// program has returned.
		ToolBefore: func(context.Context, codemode.ToolCallInfo) error {
			note("before hook", 0)
			time.Sleep(50 * time.Millisecond)
			return nil
		},
		ToolAfter: func(_ context.Context, c codemode.ToolCallInfo, o codemode.CallOutcome) {
			note("after hook", 0)
			n, _ := afters.LoadOrStore(string(o.Status), new(atomic.Int64))
			n.(*atomic.Int64).Add(1)
		},
	}})
	const runs = 20
	for i := 0; i < runs; i++ {
		mu.Lock()
		returned = time.Time{}
		mu.Unlock()
		res := rt.Execute(context.Background(), `tools.mail.send({to: "a"}); return 1`)
		mu.Lock()
		returned = time.Now()
		mu.Unlock()
		if res.String() != `{"ok":true,"value":1,"warnings":[{"kind":"ToolFailure","message":"tools.mail.send (line 1, col 1) was still running when the program ended and was cancelled: await every tool call you start."}],"toolCalls":[{"name":"mail.send"}]}` {
			t.Fatalf("got %s", res)
		}
	}
	time.Sleep(400 * time.Millisecond) // any late start or hook would be seen by now
	mu.Lock()
	defer mu.Unlock()
	if len(late) > 0 {
		t.Errorf("after Execute returned: %v", late)
	}
	total := int64(0)
	afters.Range(func(k, v any) bool {
		if k != string(codemode.CallInterrupted) {
			t.Errorf("%d after-hooks with %s; every call was cut off", v.(*atomic.Int64).Load(), k)
		}
		total += v.(*atomic.Int64).Load()
		return true
	})
	if total != runs {
		t.Errorf("%d after-hooks for %d calls; each must get exactly one", total, runs)
	}
}

// TestContextEnds: a cancelled context runs nothing and is Cancelled; a
// context deadline is TimeoutExceeded, also with a tool in flight whose
// own error races the run's end.
func TestContextEnds(t *testing.T) {
	var ran atomic.Int64
	waiter := &tools.Tool{Description: "returns its context's error", Output: objectOut, Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
		ran.Add(1)
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	rt, _ := codemode.New(codemode.Options{Tools: map[string]any{"wait": waiter}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := rt.Execute(ctx, `await tools.wait({}); return 1`)
	if want := `{"ok":false,"error":{"kind":"Cancelled","message":"Execution was cancelled: context canceled"},"toolCalls":[]}`; res.String() != want {
		t.Errorf("cancelled: got %s\nwant %s", res, want)
	}
	if ran.Load() != 0 {
		t.Error("a run with a cancelled context ran a tool")
	}
	ctx, cancel = context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	if res := rt.Execute(ctx, `while (true) {}`); res.OK || res.Error.Kind != codemode.Cancelled {
		t.Errorf("cancelled while running: got %s", res)
	}
	const runs = 200
	var wg sync.WaitGroup
	kinds := make([]string, runs)
	for i := 0; i < runs; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			res := rt.Execute(ctx, `await tools.wait({}); return 1`)
			if res.OK {
				kinds[i] = "ok"
				return
			}
			kinds[i] = fmt.Sprintf("%s: %s", res.Error.Kind, res.Error.Message)
		}(i)
	}
	wg.Wait()
	for i, k := range kinds {
		if !strings.HasPrefix(k, "TimeoutExceeded: Execution timed out after ") {
			t.Errorf("run %d: %s", i, k)
			break
		}
	}
}

// TestContract: where the acceptance suite pins the reference's shape.
func TestContract(t *testing.T) {
	echo := &tools.Tool{Description: "echo", Output: objectOut, Func: func(_ context.Context, in json.RawMessage) (any, error) { return json.RawMessage(in), nil }}
	rt, _ := codemode.New(codemode.Options{Tools: map[string]any{"api.issues.list": echo}, Limits: codemode.Limits{Timeout: 5 * time.Second}})
	for _, tt := range []struct{ name, src, want string }{
		{"bracket dotted name", `return await tools.api["issues.list"]({a: 1})`, `{"ok":true,"value":{"a":1},"toolCalls":[{"name":"api.issues.list"}]}`},
		{"bracket dotted namespace", `return await tools["api.issues"].list({a: 2})`, `{"ok":true,"value":{"a":2},"toolCalls":[{"name":"api.issues.list"}]}`},
		{"keys of dotted namespace", `return Object.keys(tools["api.issues"])`, `{"ok":true,"value":["list"],"toolCalls":[]}`},
		{"dotted is the same reference", `return tools["api.issues"] === tools.api.issues`, `{"ok":true,"value":true,"toolCalls":[]}`},
		{"deep references are cheap", `let t = tools; for (let i = 0; i < 1e5; i++) t = t.a; return typeof t`, `{"ok":true,"value":"function","toolCalls":[]}`},
		{"delete tools.x", `delete tools.x; return 1`, `{"ok":false,"error":{"kind":"InvalidDataValue","message":"TypeError: Cannot delete property 'x' of a tool reference; tool references are read-only. (line 1, col 1)","location":{"line":1,"column":1}},"toolCalls":[]}`},
		{"circular to a tool", `const o = {}; o.o = o; return await tools.api.issues.list(o)`, `{"ok":false,"error":{"kind":"InvalidDataValue","message":"TypeError: Converting circular structure to JSON (line 1, col 37)","location":{"line":1,"column":37}},"toolCalls":[]}`},
		{"search offset too large", `return search({offset: 2 ** 60})`, `{"ok":false,"error":{"kind":"InvalidToolInput","message":"Invalid input for tool 'search': at '/offset': maximum: got 1152921504606847000, want 9007199254740991"},"toolCalls":[]}`},
		{"search limit too large", `return search({limit: 2 ** 53})`, `{"ok":false,"error":{"kind":"InvalidToolInput","message":"Invalid input for tool 'search': at '/limit': maximum: got 9007199254740992, want 9007199254740991"},"toolCalls":[]}`},
		{"search limit at the bound", `return search({limit: 2 ** 53 - 1}).items.length`, `{"ok":true,"value":1,"toolCalls":[{"name":"search"}]}`},
		{"warnings are kind and message", `(async () => { await tools.nope({}) })(); return 1`, `{"ok":true,"value":1,"warnings":[{"kind":"UnknownTool","message":"Unhandled rejection from an un-awaited promise: Unknown tool 'nope'."}],"toolCalls":[]}`},
		{"raised warning keeps location in text", `(async () => { null.x })(); return 1`, `{"ok":true,"value":1,"warnings":[{"kind":"ExecutionFailure","message":"Unhandled rejection from an un-awaited promise: TypeError: Cannot read properties of null (reading 'x') (line 1, col 21)"}],"toolCalls":[]}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := rt.Execute(context.Background(), tt.src).String(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestWarningsMarshalKindAndMessage: a warning marshals as the
// reference's {kind, message}, whatever else the Diagnostic holds.
func TestWarningsMarshalKindAndMessage(t *testing.T) {
	res := codemode.Result{OK: true, Value: json.RawMessage("1"), Warnings: []codemode.Diagnostic{{Kind: codemode.ExecutionFailure,
		Message: "m (line 1, col 2)", Location: &codemode.Location{Line: 1, Column: 2}, Suggestions: []string{"s"}}}}
	if got, want := res.String(), `{"ok":true,"value":1,"warnings":[{"kind":"ExecutionFailure","message":"m (line 1, col 2)"}],"toolCalls":[]}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestCleanupTimeoutKeepsWarnings: when cleanup after the return runs
// into the deadline, the unhandled rejections still follow the
// TimeoutExceeded warning.
func TestCleanupTimeoutKeepsWarnings(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{Limits: codemode.Limits{Timeout: 100 * time.Millisecond}})
	res := rt.Execute(context.Background(), `Promise.reject(new Error("lost")); Promise.resolve().then(() => { for (;;) {} }); return 1`)
	want := `{"ok":true,"value":1,"warnings":[{"kind":"TimeoutExceeded","message":"The program returned, but background work was still running at the 100ms timeout and was interrupted. Await all started promises."},{"kind":"ExecutionFailure","message":"Unhandled rejection from an un-awaited promise: Error: lost"}],"toolCalls":[]}`
	if res.String() != want {
		t.Errorf("got  %s\nwant %s", res, want)
	}
}
