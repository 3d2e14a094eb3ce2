package codemode_test

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/go-codemode/codemode"
)

// TestMemoryLimit: a program that allocates without end stops with
// MemoryLimitExceeded, and the host's heap stays near the budget.
func TestMemoryLimit(t *testing.T) {
	const budget = 64 << 20
	rt, err := codemode.New(codemode.Options{Limits: codemode.Limits{MaxMemoryBytes: budget}})
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		`const a = []; while (true) a.push("x".repeat(1e6));`,
		`const a = []; while (true) a.push({n: a.length, s: "item" + a.length});`,
		`const a = []; while (true) a.push(a.length);`,
		`let s = "x"; const keep = []; while (true) { s = s + s.length; keep.push(s); }`,
		`const m = new Map(); for (let i = 0; ; i++) m.set(i, [i]);`,
		`const ps = []; while (true) ps.push(new Promise(() => {}).then(() => 1));`,
		`const fs = []; while (true) { const x = fs.length; fs.push(() => x); }`,
	} {
		t.Run(src, func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			res := rt.Execute(context.Background(), src)
			runtime.ReadMemStats(&after)
			if res.OK || (res.Error.Kind != codemode.MemoryLimitExceeded && !strings.Contains(res.Error.Message, "pending promises")) {
				t.Fatalf("got %s", res)
			}
			if res.Error.Kind == codemode.MemoryLimitExceeded && res.Error.Message != "Execution exceeded its memory limit of 67108864 bytes." {
				t.Errorf("message %q", res.Error.Message)
			}
			// What the run allocated in all, live or not, stays within a
			// small multiple of the budget.
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 6*budget {
				t.Errorf("the run allocated %d MiB for a %d MiB budget", grew>>20, budget>>20)
			}
		})
	}
}

// TestPendingPromiseCap: at most 10,000 promises may be pending.
func TestPendingPromiseCap(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{})
	res := rt.Execute(context.Background(), `const ps = []; try { for (let i = 0; i < 20000; i++) ps.push(new Promise(() => {})); } catch (e) { return [ps.length, e.name, e.message] }`)
	want := `{"ok":true,"value":[10000,"RangeError","Too many pending promises (limit 10000); await promises before creating more."],"toolCalls":[]}`
	if res.String() != want {
		t.Errorf("got  %s\nwant %s", res, want)
	}
}

// TestOutputLimit: the value, warnings and logs are cut with the
// reference's markers and budgets.
func TestOutputLimit(t *testing.T) {
	exec := func(max int, src string) string {
		rt, err := codemode.New(codemode.Options{Limits: codemode.Limits{MaxOutputBytes: codemode.Max(max)}})
		if err != nil {
			t.Fatal(err)
		}
		return rt.Execute(context.Background(), src).String()
	}
	tests := []struct {
		max       int
		src, want string
	}{
		{100, `return "short"`, `{"ok":true,"value":"short","toolCalls":[]}`},
		{10, `return "abcdefghijklmnop"`, `{"ok":true,"value":"\"abcdefghi [result truncated: 18 bytes exceeds the 10-byte output limit; return a smaller value]","truncated":true,"toolCalls":[]}`},
		{0, `return null`, `{"ok":true,"value":" [result truncated: 4 bytes exceeds the 0-byte output limit; return a smaller value]","truncated":true,"toolCalls":[]}`},
		{5, `return "ééé"`, `{"ok":true,"value":"\"éé [result truncated: 8 bytes exceeds the 5-byte output limit; return a smaller value]","truncated":true,"toolCalls":[]}`},
		{12, `console.log("aaaa"); console.log("bbbb"); console.log("cccc"); return 1`, `{"ok":true,"value":1,"logs":["aaaa","bbbb","[logs truncated: showing 2 of 3 lines]"],"truncated":true,"toolCalls":[]}`},
		{8, `console.log("aaaa"); console.log("bbbb"); throw new Error("a long error message is never cut")`, `{"ok":false,"error":{"kind":"ExecutionFailure","message":"Error: a long error message is never cut"},"logs":["aaaa","[logs truncated: showing 1 of 2 lines]"],"truncated":true,"toolCalls":[]}`},
		{120, `Promise.reject(new Error("one")); Promise.reject(new Error("two")); Promise.reject(new Error("three")); return 1`,
			`{"ok":true,"value":1,"warnings":[{"kind":"ExecutionFailure","message":"Unhandled rejection from an un-awaited promise: Error: one"},{"kind":"Truncated","message":"2 additional warnings omitted by the output limit."}],"truncated":true,"toolCalls":[]}`},
	}
	for _, tt := range tests {
		if got := exec(tt.max, tt.src); got != tt.want {
			t.Errorf("max %d, %s\ngot  %s\nwant %s", tt.max, tt.src, got, tt.want)
		}
	}
}
