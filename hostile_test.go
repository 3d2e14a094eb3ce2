package codemode_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// hostileCase is a program built to cost far more than its limits; the
// Result must be the limit's diagnostic (one of kinds, with the message
// prefix), within slack of the timeout.
type hostileCase struct {
	name   string
	src    string
	limits codemode.Limits
	kinds  []codemode.Kind // accepted error kinds; empty: OK
	prefix string          // of the error message, or of the value's JSON
}

// hostileSlack is how far past its timeout a hostile run may end: generous,
// for a loaded machine; the bugs these tests catch overran by seconds.
const hostileSlack = 1500 * time.Millisecond

func runHostile(t *testing.T, rt *codemode.Runtime, tt hostileCase) codemode.Result {
	t.Helper()
	start := time.Now()
	res := rt.Execute(context.Background(), tt.src)
	elapsed := time.Since(start)
	text := res.String()
	if !json.Valid([]byte(text)) {
		t.Fatalf("Result is not JSON: %.300s", text)
	}
	if strings.Contains(text, "Internal error") {
		t.Fatalf("internal error: %.300s", text)
	}
	if len(tt.kinds) == 0 {
		if !res.OK || !strings.HasPrefix(string(res.Value), tt.prefix) {
			t.Errorf("got %.300s\nwant ok with value starting %s", text, tt.prefix)
		}
	} else {
		ok := false
		for _, k := range tt.kinds {
			ok = ok || (!res.OK && res.Error.Kind == k)
		}
		if !ok || !strings.HasPrefix(res.Error.Message, tt.prefix) {
			t.Errorf("got %.300s\nwant one of %v with message starting %q", text, tt.kinds, tt.prefix)
		}
	}
	if limit := tt.limits.Timeout; limit > 0 && elapsed > limit+hostileSlack {
		t.Errorf("ran %v, %v past the %v timeout", elapsed, elapsed-limit, limit)
	}
	return res
}

const (
	dag        = `let x = [1]; for (let i = 0; i < 30; i++) x = [x, x]; return x`
	undefKeys  = `const o = { big: "x".repeat(2 ** 22) }; for (let i = 0; i < 20000; i++) o["u" + i] = undefined; return o`
	sparse     = `const a = []; a[9999999] = 1; return a`
	sparseFill = `const a = []; a[9999999] = 1; return Array(30).fill(a)`
	mib16      = 16 << 20
)

var tooLarge = "RangeError: The value is larger than 8388608 bytes as JSON"

// TestHostileOutput: values whose JSON is exponentially or hugely larger
// than what the program allocated stop at the output limit, the budget,
// the deadline or MaxResultBytes.
func TestHostileOutput(t *testing.T) {
	failure, timeout, memory := codemode.ExecutionFailure, codemode.TimeoutExceeded, codemode.MemoryLimitExceeded
	for _, tt := range []hostileCase{
		{"dag unlimited", dag, codemode.Limits{}, []codemode.Kind{failure}, tooLarge},
		{"dag budget", dag, codemode.Limits{MaxMemoryBytes: 4 << 20}, []codemode.Kind{memory}, "Execution exceeded its memory limit of 4194304 bytes."},
		{"dag timeout", dag, codemode.Limits{Timeout: 20 * time.Millisecond}, []codemode.Kind{timeout, failure}, ""},
		{"dag output limit", dag, codemode.Limits{MaxOutputBytes: codemode.Max(20), Timeout: 10 * time.Second}, nil,
			`"[[[[[[[[[[[[[[[[[[[[ [result truncated: more than 8388608 bytes exceeds the 20-byte output limit; return a smaller value]"`},
		{"dag all limits", dag, codemode.Limits{Timeout: time.Second, MaxMemoryBytes: mib16}, []codemode.Kind{failure, timeout}, ""},
		{"undefined members linear", undefKeys, codemode.Limits{Timeout: time.Second}, nil, `{"big":"xxxx`},
		{"undefined members output limit", undefKeys, codemode.Limits{Timeout: time.Second, MaxOutputBytes: codemode.Max(10)}, nil,
			`"{\"big\":\"xx [result truncated: 4194314 bytes exceeds the 10-byte output limit; return a smaller value]"`},
		{"sparse", sparse, codemode.Limits{}, []codemode.Kind{failure}, tooLarge},
		{"sparse timeout", sparse, codemode.Limits{Timeout: 200 * time.Millisecond}, []codemode.Kind{timeout, failure}, ""},
		{"sparse output limit", sparse, codemode.Limits{MaxOutputBytes: codemode.Max(6)}, nil,
			`"[null, [result truncated: more than 8388608 bytes exceeds the 6-byte output limit; return a smaller value]"`},
		{"sparse fill budget", sparseFill, codemode.Limits{MaxMemoryBytes: 4 << 20}, []codemode.Kind{memory}, ""},
		{"sparse fill 16MiB", sparseFill, codemode.Limits{MaxMemoryBytes: mib16}, []codemode.Kind{failure, memory}, ""},
		{"small value unaffected", `return [1, "a", {b: null}]`, codemode.Limits{MaxMemoryBytes: mib16}, nil, `[1,"a",{"b":null}]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rt, err := codemode.New(codemode.Options{Limits: tt.limits})
			if err != nil {
				t.Fatal(err)
			}
			runHostile(t, rt, tt)
		})
	}
}

// pendingTools has a tool that never answers (until the test ends).
func pendingTools(t *testing.T) map[string]any {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	return map[string]any{
		"x.pending": &tools.Tool{Description: "never answers", Output: objectOut, Func: func(context.Context, json.RawMessage) (any, error) {
			<-release
			return nil, nil
		}},
	}
}

// TestInterruptsAtTheBoundary: a limit that fires while the Result is
// being made (a getter, a promise in the value, a thrown value's getter)
// is that limit's diagnostic, with the admitted calls listed.
func TestInterruptsAtTheBoundary(t *testing.T) {
	timeout := []codemode.Kind{codemode.TimeoutExceeded}
	lim := codemode.Limits{Timeout: 200 * time.Millisecond}
	for _, tt := range []struct {
		hostileCase
		calls string
	}{
		{hostileCase{"getter loops", `return { get x() { for(;;){} } }`, lim, timeout, "Execution timed out after 200ms."}, ""},
		{hostileCase{"pending promise in value", `const pending = tools.x.pending({}); return { pending }`, lim, timeout, "Execution timed out after 200ms."}, "x.pending"},
		{hostileCase{"thrown name getter", `throw { get name() { for(;;){} } }`, lim, timeout, "Execution timed out after 200ms."}, ""},
		{hostileCase{"error name getter", `const e = new Error("m"); Object.defineProperty(e, "name", { get() { for(;;){} } }); tools.x.pending({}); throw e`, lim, timeout, "Execution timed out after 200ms."}, "x.pending"},
		{hostileCase{"getter allocates", `return { get x() { const a = []; for(;;) a.push("abc".repeat(100)) } }`, codemode.Limits{MaxMemoryBytes: 1 << 20}, []codemode.Kind{codemode.MemoryLimitExceeded}, "Execution exceeded its memory limit"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rt, err := codemode.New(codemode.Options{Tools: pendingTools(t), Limits: tt.limits})
			if err != nil {
				t.Fatal(err)
			}
			res := runHostile(t, rt, tt.hostileCase)
			var names []string
			for _, c := range res.ToolCalls {
				names = append(names, c.Name)
			}
			if got := strings.Join(names, ","); got != tt.calls {
				t.Errorf("toolCalls %q, want %q", got, tt.calls)
			}
		})
	}
}

// TestHostileSources: parsing is bounded by MaxSourceBytes, since no
// other limit can act before the program runs.
func TestHostileSources(t *testing.T) {
	big := strings.Repeat("let a = 1;\n", 1_000_000) // 11 MB
	rt, _ := codemode.New(codemode.Options{Limits: codemode.Limits{Timeout: 500 * time.Millisecond, MaxMemoryBytes: mib16}})
	start := time.Now()
	res := rt.Execute(context.Background(), big)
	want := `{"ok":false,"error":{"kind":"ParseError","message":"The program is 11000000 bytes, over the 1048576-byte source limit; send a shorter program (move data into tool calls or bindings), or raise Limits.MaxSourceBytes."},"toolCalls":[]}`
	if res.String() != want {
		t.Errorf("got  %s\nwant %s", res, want)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("rejecting took %v", d)
	}
	for _, tt := range []struct {
		max  int
		src  string
		want string
	}{
		{10, "return 1234567", `{"ok":false,"error":{"kind":"ParseError","message":"The program is 14 bytes, over the 10-byte source limit; send a shorter program (move data into tool calls or bindings), or raise Limits.MaxSourceBytes."},"toolCalls":[]}`},
		{14, "return 1234567", `{"ok":true,"value":1234567,"toolCalls":[]}`},
		{-1, "return 1" + strings.Repeat(" ", 2<<20), `{"ok":true,"value":1,"toolCalls":[]}`},
	} {
		rt, _ := codemode.New(codemode.Options{Limits: codemode.Limits{MaxSourceBytes: tt.max}})
		if got := rt.Execute(context.Background(), tt.src).String(); got != tt.want {
			t.Errorf("max %d: got  %s\nwant %s", tt.max, got, tt.want)
		}
	}
}
