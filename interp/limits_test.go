package interp_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
)

func execute(t *testing.T, opts codemode.Options, src string) codemode.Result {
	t.Helper()
	rt, err := codemode.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return rt.Execute(context.Background(), src)
}

// TestCallDepth: unbounded recursion is a catchable RangeError, through
// program functions and through built-ins that recurse into each other.
func TestCallDepth(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"program recursion", `function f() { return f(); } try { f(); } catch (e) { return [e.name, e.message]; }`,
			`{"ok":true,"value":["RangeError","Maximum call stack size exceeded"],"toolCalls":[]}`},
		{"uncaught", `function f() { return 1 + f(); } f();`,
			`{"ok":false,"error":{"kind":"ExecutionFailure","message":"RangeError: Maximum call stack size exceeded (line 1, col 27)","location":{"line":1,"column":27}},"toolCalls":[]}`},
		{"nested arrays through toString", `let a = []; for (let i = 0; i < 200000; i++) a = [a]; try { String(a); return "no error"; } catch (e) { return e.message; }`,
			`{"ok":true,"value":"Maximum call stack size exceeded","toolCalls":[]}`},
		{"recursion through map", `function g(x) { return [x].map(g); } try { g(1); } catch (e) { return e.name; }`,
			`{"ok":true,"value":"RangeError","toolCalls":[]}`},
		{"getter recursion", `const o = { get x() { return this.x; } }; try { o.x; } catch (e) { return e.name; }`,
			`{"ok":true,"value":"RangeError","toolCalls":[]}`},
		{"depth recovers after catch", `function f(n) { return n === 0 ? 0 : 1 + f(n - 1); } function g() { return g(); } try { g(); } catch {} return f(9000);`,
			`{"ok":true,"value":9000,"toolCalls":[]}`},
		{"generator recursion", `function* g() { yield* g(); } try { [...g()]; } catch (e) { return e.name; }`,
			`{"ok":true,"value":"RangeError","toolCalls":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := execute(t, codemode.Options{}, tt.src).String(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestTimeout: a busy loop, a loop inside a callback and a forever-pending
// await all end at the deadline with TimeoutExceeded.
func TestTimeout(t *testing.T) {
	for _, src := range []string{
		`while (true) {}`,
		`[1].forEach(() => { for (;;) {} })`,
		`function* g() { while (true) yield 1; } for (const x of g()) {}`,
		`async function f() { while (true) await null; } await f();`,
	} {
		t.Run(src, func(t *testing.T) {
			got := execute(t, codemode.Options{Limits: codemode.Limits{Timeout: 50 * time.Millisecond}}, src)
			if got.OK || got.Error.Kind != codemode.TimeoutExceeded || got.Error.Message != "Execution timed out after 50ms." {
				t.Errorf("got %s", got)
			}
		})
	}
}

// TestNeverSettles: awaiting a promise nothing can settle fails at once
// instead of hanging until the timeout.
func TestNeverSettles(t *testing.T) {
	got := execute(t, codemode.Options{}, `await new Promise(() => {}); return 1`)
	if got.OK || got.Error.Kind != codemode.ExecutionFailure {
		t.Errorf("got %s", got)
	}
}

// TestNoGoroutineLeak: suspended generators and async functions are
// unwound when the run ends.
func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	for i := 0; i < 20; i++ {
		got := execute(t, codemode.Options{}, `
			function* g() { try { yield 1; yield 2; } finally { console.log("never"); } }
			const its = [g(), g(), g()];
			its.forEach((it) => it.next());
			async function pending() { await new Promise(() => {}); }
			pending();
			async function* ag() { yield 1; await null; yield 2; }
			const a = ag(); a.next();
			return its.length;`)
		if got.String() != `{"ok":true,"value":3,"toolCalls":[]}` {
			t.Fatalf("got %s", got)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines before, %d after", before, n)
	}
}
