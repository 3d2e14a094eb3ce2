package codemode_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
)

// TestExecuteResults covers the run contract at the Result level: what a
// host sees for values, failures, warnings and bindings.
func TestExecuteResults(t *testing.T) {
	tests := []struct {
		name, src, want string
		opts            []codemode.ExecOption
	}{
		{"repl value", "1; 2", `{"ok":true,"value":2,"toolCalls":[]}`, nil},
		{"statement last", "1; const v = 2", `{"ok":true,"value":null,"toolCalls":[]}`, nil},
		{"undefined is null", "return undefined", `{"ok":true,"value":null,"toolCalls":[]}`, nil},
		{"key order", "return {b: 1, a: 2, 10: 3, 2: 4}", `{"ok":true,"value":{"2":4,"10":3,"b":1,"a":2},"toolCalls":[]}`, nil},
		{"numbers", "return [0.1 + 0.2, 1e21, -0, NaN, 1/0]", `{"ok":true,"value":[0.30000000000000004,1e+21,0,null,null],"toolCalls":[]}`, nil},
		{"parse error", "return (", `{"ok":false,"error":{"kind":"ParseError","message":"Unexpected end of input (1:8)","location":{"line":1,"column":9}},"toolCalls":[]}`, nil},
		{"empty", " ", `{"ok":false,"error":{"kind":"ParseError","message":"Code cannot be empty.","location":{"line":1,"column":1}},"toolCalls":[]}`, nil},
		{"raised error located", "const o = null;\nreturn o.name", `{"ok":false,"error":{"kind":"ExecutionFailure","message":"TypeError: Cannot read properties of null (reading 'name') (line 2, col 10)","location":{"line":2,"column":10}},"toolCalls":[]}`, nil},
		{"user error not located", "throw new Error('boom')", `{"ok":false,"error":{"kind":"ExecutionFailure","message":"Error: boom"},"toolCalls":[]}`, nil},
		{"thrown string", "throw 'plain'", `{"ok":false,"error":{"kind":"ExecutionFailure","message":"Uncaught: plain"},"toolCalls":[]}`, nil},
		{"unsupported caught", "try { with ({}) {} } catch (e) { return e.name }", `{"ok":true,"value":"SyntaxError","toolCalls":[]}`, nil},
		{"unsupported lazily", "if (false) { with ({}) {} } return 1", `{"ok":true,"value":1,"toolCalls":[]}`, nil},
		{"function constructor", "try { Function('return 1') } catch (e) { return e.message }", `{"ok":true,"value":"The Function constructor is not supported; write the function inline.","toolCalls":[]}`, nil},
		{"unhandled rejection warning", "Promise.reject(new Error('lost')); return 1",
			`{"ok":true,"value":1,"warnings":[{"kind":"ExecutionFailure","message":"Unhandled rejection from an un-awaited promise: Error: lost"}],"toolCalls":[]}`, nil},
		{"handled rejection no warning", "Promise.reject(new Error('x')).catch(() => {}); return 1", `{"ok":true,"value":1,"toolCalls":[]}`, nil},
		{"promise in value awaited", "return {a: Promise.resolve(1), b: [Promise.resolve(2)]}", `{"ok":true,"value":{"a":1,"b":[2]},"toolCalls":[]}`, nil},
		{"rejected promise in value", "return {a: Promise.reject(new RangeError('no'))}", `{"ok":false,"error":{"kind":"ExecutionFailure","message":"RangeError: no"},"toolCalls":[]}`, nil},
		{"circular", "const o = {}; o.self = o; return o", `{"ok":false,"error":{"kind":"InvalidDataValue","message":"TypeError: Converting circular structure to JSON (line 1, col 27)","location":{"line":1,"column":27}},"toolCalls":[]}`, nil},
		{"depth 32 ok", "let v = 1; for (let i = 0; i < 32; i++) v = [v]; return JSON.stringify(v).length", `{"ok":true,"value":65,"toolCalls":[]}`, nil},
		{"depth 33 fails", "let v = 1; for (let i = 0; i < 33; i++) v = [v]; return v", `{"ok":false,"error":{"kind":"ExecutionFailure","message":"RangeError: Value exceeds the maximum depth of 32."},"toolCalls":[]}`, nil},
		{"uint8array refused", "return new Uint8Array(2)", `{"ok":false,"error":{"kind":"InvalidDataValue","message":"TypeError: A Uint8Array cannot cross to the host; pass text instead, e.g. ` + "`new TextDecoder().decode(bytes)` or `bytes.toBase64()`" + `. (line 1, col 1)","location":{"line":1,"column":1}},"toolCalls":[]}`, nil},
		{"set and map", "return [new Set([1, 2]), new Map([[1, 2]])]", `{"ok":true,"value":[[1,2],{}],"toolCalls":[]}`, nil},
		{"bindings", "return user.name + ':' + limits.max", `{"ok":true,"value":"ada:3","toolCalls":[]}`,
			[]codemode.ExecOption{codemode.WithBindings(map[string]any{"user": map[string]any{"name": "ada"}, "limits": struct {
				Max int `json:"max"`
			}{3}})}},
		{"binding shadowed by declaration", "const user = 1; return user", `{"ok":true,"value":1,"toolCalls":[]}`,
			[]codemode.ExecOption{codemode.WithBindings(map[string]any{"user": "x"})}},
		{"bad binding", "return 1", `{"ok":false,"error":{"kind":"InvalidDataValue","message":"binding \"f\" cannot be passed to the program: json: unsupported type: func(); pass JSON-compatible data"},"toolCalls":[]}`,
			[]codemode.ExecOption{codemode.WithBindings(map[string]any{"f": func() {}})}},
		{"logs kept on failure", "console.log('a'); throw new Error('b')", `{"ok":false,"error":{"kind":"ExecutionFailure","message":"Error: b"},"logs":["a"],"toolCalls":[]}`, nil},
		{"intrinsics are per run", "Array.prototype.sum = function () { return 1 }; return [].sum()", `{"ok":true,"value":1,"toolCalls":[]}`, nil},
		{"intrinsics fresh next run", "return typeof [].sum", `{"ok":true,"value":"undefined","toolCalls":[]}`, nil},
	}
	rt, err := codemode.New(codemode.Options{Limits: codemode.Limits{Timeout: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rt.Execute(context.Background(), tt.src, tt.opts...).String(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestExecuteConcurrent: one Runtime serves many executions at once.
func TestExecuteConcurrent(t *testing.T) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string)
	for i := 0; i < 8; i++ {
		go func() {
			done <- rt.Execute(context.Background(), `async function f(n) { await null; return n * 2 } const xs = await Promise.all([1, 2, 3].map(f)); return xs.join(",")`).String()
		}()
	}
	for i := 0; i < 8; i++ {
		if got := <-done; got != `{"ok":true,"value":"2,4,6","toolCalls":[]}` {
			t.Errorf("got %s", got)
		}
	}
}

// TestExecuteCancelled: cancelling the context ends a run.
func TestExecuteCancelled(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	got := rt.Execute(ctx, "while (true) {}")
	if got.OK || !strings.Contains(got.Error.Message, "cancelled") {
		t.Errorf("got %s", got)
	}
}

func TestNewRejectsInvalidLimits(t *testing.T) {
	for _, tt := range []struct {
		limits codemode.Limits
		want   string
	}{
		{codemode.Limits{Timeout: -1}, "codemode: Limits.Timeout must be at least 1ms, or 0 for no timeout; got -1ns"},
		{codemode.Limits{Timeout: time.Microsecond}, "codemode: Limits.Timeout must be at least 1ms, or 0 for no timeout; got 1µs"},
		{codemode.Limits{MaxToolCalls: codemode.Max(-1)}, "codemode: Limits.MaxToolCalls must be between 0 and 2^53-1 (Max(n); nil for no limit); got -1"},
		{codemode.Limits{MaxOutputBytes: codemode.Max(-5)}, "codemode: Limits.MaxOutputBytes must be between 0 and 2^53-1 (Max(n); nil for no limit); got -5"},
		{codemode.Limits{MaxMemoryBytes: -1}, "codemode: Limits.MaxMemoryBytes must be positive, or 0 for no limit; got -1"},
	} {
		if _, err := codemode.New(codemode.Options{Limits: tt.limits}); err == nil || err.Error() != tt.want {
			t.Errorf("%+v: err = %v, want %q", tt.limits, err, tt.want)
		}
	}
	for _, ok := range []codemode.Limits{{}, {MaxToolCalls: codemode.Max(0), MaxOutputBytes: codemode.Max(0)}, {Timeout: time.Millisecond, MaxMemoryBytes: 1}} {
		if _, err := codemode.New(codemode.Options{Limits: ok}); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
}

// FuzzExecute runs arbitrary programs on every engine: whatever the
// input, Execute returns a Result and never panics, hangs past its
// timeout or reports an internal error.
func FuzzExecute(f *testing.F) {
	for _, s := range []string{"1+1", "function f(){ return f() } f()", "for (const x of [1,2]) { try { throw x } finally { continue } }",
		"class A { #x; static m() { return new A().#x } } A.m()", "async function* g(){ yield* [1,2] } for await (const x of g()) {}",
		"[1,2,3].map(x => x * 2).join()", "JSON.parse('[1,{\"a\":2}]')", "'abc'.replace(/b/g, m => m.toUpperCase())",
		"let a = []; a[100] = 1; a.length = 5; a", "new Date(0).toISOString()", "new URL('https://x.y/p?q=1').searchParams.get('q')"} {
		f.Add(s)
	}
	var rts []*codemode.Runtime
	for _, engine := range engines {
		rt, err := codemode.New(codemode.Options{Engine: engine, Limits: codemode.Limits{Timeout: 200 * time.Millisecond}})
		if err != nil {
			f.Fatal(err)
		}
		rts = append(rts, rt)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for i, rt := range rts {
			res := rt.Execute(context.Background(), src)
			if !res.OK && res.Error == nil {
				t.Fatalf("engine %s: failure without a diagnostic: %s", engines[i], res)
			}
			if !res.OK && strings.Contains(res.Error.Message, "Internal error") {
				t.Fatalf("engine %s: internal error for %q: %s", engines[i], src, res)
			}
		}
	})
}

// TestArrayIndexAccessors: Object.defineProperty can put getters on
// array elements (checked against node).
func TestArrayIndexAccessors(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{})
	src := `const a = [1, 2, 3];
let calls = 0;
Object.defineProperty(a, 1, { get() { calls++; return 42; }, configurable: true, enumerable: true });
const r1 = [a[1], a.length, Object.keys(a), calls];
Object.defineProperty(a, 5, { get() { return 7; }, enumerable: true, configurable: true });
const r2 = [a.length, a[5], Object.keys(a), Object.getOwnPropertyNames(a), JSON.stringify(a)];
delete a[1];
const r3 = [a[1], 1 in a];
Object.defineProperty(a, 5, { value: 9, writable: true, enumerable: true, configurable: true });
return [r1, r2, r3, a[5], a.map(x => x)]`
	want := `{"ok":true,"value":[[42,3,["0","1","2"],1],[6,7,["0","1","2","5"],["0","1","2","5","length"],"[1,42,3,null,null,7]"],[null,false],9,[1,null,3,null,null,9]],"toolCalls":[]}`
	if got := rt.Execute(context.Background(), src).String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
