package codemode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

var objectOut = json.RawMessage(`{"type":"object"}`)

func testTools() map[string]any {
	return map[string]any{
		"math.add": &tools.Tool{Description: "Add two numbers", Output: json.RawMessage(`{"type":"number"}`),
			Func: func(_ context.Context, in json.RawMessage) (any, error) {
				var a struct{ A, B float64 }
				if err := json.Unmarshal(in, &a); err != nil {
					return nil, err
				}
				return a.A + a.B, nil
			}},
		"echo": &tools.Tool{Description: "Echo the input", Output: objectOut,
			Func: func(_ context.Context, in json.RawMessage) (any, error) { return json.RawMessage(in), nil }},
		"ping": &tools.Tool{Description: "No output schema",
			Func: func(context.Context, json.RawMessage) (any, error) { return "pong", nil }},
		"fail": &tools.Tool{Description: "Always fails", Output: objectOut,
			Func: func(context.Context, json.RawMessage) (any, error) { return nil, errors.New("Lookup refused") }},
		"bad": &tools.Tool{Description: "Returns what JSON cannot hold", Output: objectOut,
			Func: func(context.Context, json.RawMessage) (any, error) { return func() {}, nil }},
		"context7": map[string]any{"resolve-library-id": &tools.Tool{Description: "Resolve", Output: objectOut,
			Func: func(context.Context, json.RawMessage) (any, error) { return map[string]any{"id": "x"}, nil }}},
		"github.listIssues": &tools.Tool{Description: "List issues", Output: objectOut,
			Func: func(context.Context, json.RawMessage) (any, error) { return []int{1}, nil }},
		"github": &tools.Namespace{Description: "GitHub", Tools: map[string]any{}},
	}
}

func TestToolCalls(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Tools: testTools()})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, src, want string }{
		{"call", "return await tools.math.add({a: 2, b: 3})", `{"ok":true,"value":5,"toolCalls":[{"name":"math.add"}]}`},
		{"argument copied as JSON", `const d = new Date(0); return await tools.echo({d, s: new Set([1]), u: undefined, f() {}, n: NaN, p: Promise.resolve(7), nested: {q: Promise.resolve([1])}})`,
			`{"ok":true,"value":{"d":"1970-01-01T00:00:00.000Z","s":[1],"n":null,"p":7,"nested":{"q":[1]}},"toolCalls":[{"name":"echo"}]}`},
		{"no argument is {}", "return await tools.echo()", `{"ok":true,"value":{},"toolCalls":[{"name":"echo"}]}`},
		{"no output schema gives undefined", "return await tools.ping()", `{"ok":true,"value":null,"toolCalls":[{"name":"ping"}]}`},
		{"bracket path", `return await tools.context7["resolve-library-id"]({})`, `{"ok":true,"value":{"id":"x"},"toolCalls":[{"name":"context7.resolve-library-id"}]}`},
		{"parallel", "const [a, b] = await Promise.all([tools.math.add({a: 1, b: 1}), tools.math.add({a: 2, b: 2})]); return a + b",
			`{"ok":true,"value":6,"toolCalls":[{"name":"math.add"},{"name":"math.add"}]}`},
		{"failure uncaught", "await tools.fail({})", `{"ok":false,"error":{"kind":"ToolFailure","message":"Lookup refused"},"toolCalls":[{"name":"fail"}]}`},
		{"failure caught", "try { await tools.fail({}) } catch (e) { return [e.name, e.message, e instanceof Error] }",
			`{"ok":true,"value":["Error","Lookup refused",true],"toolCalls":[{"name":"fail"}]}`},
		{"unknown with suggestion", "await tools.math.ad({})",
			`{"ok":false,"error":{"kind":"UnknownTool","message":"Unknown tool 'math.ad'. Did you mean tools.math.add?","suggestions":["Use search to find available tools."]},"toolCalls":[]}`},
		{"unknown without suggestion", "await tools.zzz({})",
			`{"ok":false,"error":{"kind":"UnknownTool","message":"Unknown tool 'zzz'.","suggestions":["Use search to find available tools."]},"toolCalls":[]}`},
		{"namespace not callable", "await tools.github({})",
			`{"ok":false,"error":{"kind":"UnknownTool","message":"Tool 'github' is not callable.","suggestions":["Use search to find available tools."]},"toolCalls":[]}`},
		{"root not callable", "tools()", `{"ok":false,"error":{"kind":"ExecutionFailure","message":"TypeError: The tools root is not callable. (line 1, col 1)","location":{"line":1,"column":1}},"toolCalls":[]}`},
		{"two arguments", "await tools.echo({}, {})", `{"ok":false,"error":{"kind":"InvalidToolInput","message":"Tool 'echo' expects at most one input object."},"toolCalls":[]}`},
		{"invalid output", "await tools.bad({})", `{"ok":false,"error":{"kind":"InvalidToolOutput","message":"Invalid output from tool 'bad': Error: json: unsupported type: func()"},"toolCalls":[{"name":"bad"}]}`},
		{"keys of a namespace", "return Object.keys(tools.github)", `{"ok":true,"value":["listIssues"],"toolCalls":[]}`},
		{"keys of unknown namespace", "return Object.keys(tools.nope)", `{"ok":false,"error":{"kind":"UnknownTool","message":"Unknown tool namespace 'nope'.","suggestions":["Use search to find available tools."]},"toolCalls":[]}`},
		{"references by identity", "return [tools.math.add === tools.math.add, typeof tools.math, typeof tools.nope.deeper]", `{"ok":true,"value":[true,"function","function"],"toolCalls":[]}`},
		{"references vanish at the boundary", "return {t: tools.echo, n: 1}", `{"ok":true,"value":{"n":1},"toolCalls":[]}`},
		{"uint8array argument refused", "await tools.echo({b: new Uint8Array(1)})",
			`{"ok":false,"error":{"kind":"InvalidDataValue","message":"TypeError: A Uint8Array cannot cross to the host; pass text instead, e.g. ` + "`new TextDecoder().decode(bytes)` or `bytes.toBase64()`" + `. (line 1, col 7)","location":{"line":1,"column":7}},"toolCalls":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rt.Execute(context.Background(), tt.src).String(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestToolCallsOverlap: ten calls that each sleep 100 ms, awaited
// together, run at the same time (their spans overlap), so the run takes
// about as long as one.
func TestToolCallsOverlap(t *testing.T) {
	var running, most atomic.Int32
	sleepy := &tools.Tool{Description: "sleeps", Output: objectOut, Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
		n := running.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		defer running.Add(-1)
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
		}
		return map[string]int{"ok": 1}, nil
	}}
	rt, _ := codemode.New(codemode.Options{Tools: map[string]any{"sleepy": sleepy}})
	res := rt.Execute(context.Background(), "const rs = await Promise.all(Array.from({length: 10}, () => tools.sleepy({}))); return rs.length")
	if !res.OK || string(res.Value) != "10" || len(res.ToolCalls) != 10 {
		t.Fatalf("got %s", res)
	}
	if most.Load() < 2 {
		t.Errorf("at most %d calls ran at once; calls must run in parallel", most.Load())
	}
}

// TestToolIgnoringContext: a tool that never returns does not keep the
// run from ending at its deadline, and its late outcome is dropped.
func TestToolIgnoringContext(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	stuck := &tools.Tool{Description: "never returns", Output: objectOut, Func: func(context.Context, json.RawMessage) (any, error) {
		<-release
		return nil, nil
	}}
	rt, _ := codemode.New(codemode.Options{Tools: map[string]any{"stuck": stuck}, Limits: codemode.Limits{Timeout: 50 * time.Millisecond}})
	res := rt.Execute(context.Background(), "await tools.stuck({})")
	want := `{"ok":false,"error":{"kind":"TimeoutExceeded","message":"Execution timed out after 50ms."},"toolCalls":[{"name":"stuck"}]}`
	if res.String() != want {
		t.Errorf("got  %s\nwant %s", res, want)
	}
}

// TestToolContextCancelled: calls in flight when the run ends see their
// context cancelled. It runs many times because the end races the
// outcomes: in round-trip mode, a save that waited for the running call
// instead of running the jobs that end the run was seen once in 30 runs.
func TestToolContextCancelled(t *testing.T) {
	for i := range 50 {
		cancelled := make(chan bool, 1)
		started := make(chan struct{})
		watcher := &tools.Tool{Description: "waits", Output: objectOut, Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
			close(started)
			select {
			case <-ctx.Done():
				cancelled <- true
			case <-time.After(5 * time.Second):
				cancelled <- false
			}
			return nil, ctx.Err()
		}}
		waitStarted := &tools.Tool{Description: "returns once watcher runs", Output: objectOut, Func: func(context.Context, json.RawMessage) (any, error) {
			<-started
			return map[string]any{}, nil
		}}
		rt, _ := codemode.New(codemode.Options{Tools: map[string]any{"watcher": watcher, "started": waitStarted}})
		res := rt.Execute(context.Background(), "tools.watcher({}).catch(() => {}); await tools.started({}); return 1")
		if !res.OK {
			t.Fatal(res)
		}
		if !<-cancelled {
			t.Fatalf("run %d: the call's context was not cancelled when the run ended", i)
		}
	}
}

func TestToolCallLimit(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{Tools: testTools(), Limits: codemode.Limits{MaxToolCalls: codemode.Max(2)}})
	res := rt.Execute(context.Background(), `const a = await tools.math.add({a: 1, b: 1});
const b = await tools.math.add({a: 1, b: 1});
try { await tools.math.add({a: 1, b: 1}) } catch (e) { return [a, b, e.message] }`)
	want := `{"ok":true,"value":[2,2,"Execution exceeded its tool-call limit of 2."],"toolCalls":[{"name":"math.add"},{"name":"math.add"}]}`
	if res.String() != want {
		t.Errorf("got  %s\nwant %s", res, want)
	}
	res = rt.Execute(context.Background(), `for (let i = 0; i < 3; i++) await tools.ping();`)
	want = `{"ok":false,"error":{"kind":"ToolCallLimitExceeded","message":"Execution exceeded its tool-call limit of 2."},"toolCalls":[{"name":"ping"},{"name":"ping"}]}`
	if res.String() != want {
		t.Errorf("got  %s\nwant %s", res, want)
	}
	res = rt.Execute(context.Background(), `const a = tools.ping(), b = tools.ping(); tools.ping(); const r = await tools.ping().catch(e => e.message); await a; await b; return r`)
	want = `{"ok":true,"value":"Execution exceeded its tool-call limit of 2.","warnings":[{"kind":"ToolCallLimitExceeded","message":"Unhandled rejection from an un-awaited promise: Execution exceeded its tool-call limit of 2."}],"toolCalls":[{"name":"ping"},{"name":"ping"}]}`
	if res.String() != want {
		t.Errorf("got  %s\nwant %s", res, want)
	}
	zero, _ := codemode.New(codemode.Options{Tools: testTools(), Limits: codemode.Limits{MaxToolCalls: codemode.Max(0)}})
	if res := zero.Execute(context.Background(), "await tools.ping()"); res.OK || res.Error.Kind != codemode.ToolCallLimitExceeded {
		t.Errorf("limit 0: %s", res)
	}
}

func TestToolTreeErrorFromNew(t *testing.T) {
	_, err := codemode.New(codemode.Options{Tools: map[string]any{"a..b": &tools.Tool{Func: func(context.Context, json.RawMessage) (any, error) { return nil, nil }}}})
	if err == nil || err.Error() != "Tool name 'a..b' contains an empty segment." {
		t.Errorf("err = %v", err)
	}
}

func TestManyToolCalls(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{Tools: testTools()})
	res := rt.Execute(context.Background(), "let t = 0; for (let i = 0; i < 1000; i++) t += await tools.math.add({a: i, b: 0}); return t")
	if !res.OK || string(res.Value) != fmt.Sprint(999*1000/2) || len(res.ToolCalls) != 1000 {
		t.Errorf("got %s", strings.TrimSpace(string(res.Value)))
	}
}

type orderIn struct {
	Customer struct {
		ID    int    `json:"id" jsonschema:"minimum=1"`
		Email string `json:"email,omitempty"`
	} `json:"customer"`
	Items []struct {
		SKU string `json:"sku" jsonschema:"minLength=1"`
		Qty int    `json:"qty" jsonschema:"minimum=1"`
	} `json:"items"`
	Priority string  `json:"priority" jsonschema:"enum=low,enum=high"`
	Note     *string `json:"note,omitempty"`
}

type orderOut struct {
	ID    string `json:"id"`
	Items int    `json:"items"`
	Note  string `json:"note,omitempty"`
}

// TestTypedToolsThroughPrograms: a typed tool's input is validated
// before admission and decoded strictly; its output is validated.
func TestTypedToolsThroughPrograms(t *testing.T) {
	calls := 0
	place := tools.Func("Place an order", func(_ context.Context, in orderIn) (orderOut, error) {
		calls++
		out := orderOut{ID: fmt.Sprintf("o-%d", in.Customer.ID), Items: len(in.Items)}
		if in.Note != nil {
			out.Note = *in.Note
		}
		return out, nil
	})
	broken := tools.Func("Returns nothing valid", func(context.Context, struct{}) (*orderOut, error) { return nil, nil })
	hooked := 0
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"shop.place": place, "shop.broken": broken},
		Hooks: codemode.Hooks{ToolBefore: func(context.Context, codemode.ToolCallInfo) error { hooked++; return nil }}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, src, want string }{
		{"valid", `return await tools.shop.place({customer: {id: 7}, items: [{sku: "A", qty: 2}], priority: "high", note: "gift"})`,
			`{"ok":true,"value":{"id":"o-7","items":1,"note":"gift"},"toolCalls":[{"name":"shop.place"}]}`},
		{"invalid input", `await tools.shop.place({customer: {id: 0}, items: [{sku: "", qty: 1}], priority: "urgent"})`,
			`{"ok":false,"error":{"kind":"InvalidToolInput","message":"Invalid input for tool 'shop.place': at '/customer/id': minimum: got 0, want 1; at '/items/0/sku': minLength: got 0, want 1; at '/priority': value must be one of 'low', 'high'","suggestions":["The signature may have changed. Use search to get the current signature."]},"toolCalls":[]}`},
		{"unknown field", `await tools.shop.place({customer: {id: 1}, items: [], priority: "low", extra: 1})`,
			`{"ok":false,"error":{"kind":"InvalidToolInput","message":"Invalid input for tool 'shop.place': at '': additional properties 'extra' not allowed","suggestions":["The signature may have changed. Use search to get the current signature."]},"toolCalls":[]}`},
		{"invalid input caught", `try { await tools.shop.place({}) } catch (e) { return [e.name, e.message.startsWith("Invalid input for tool 'shop.place': ")] }`,
			`{"ok":true,"value":["TypeError",true],"toolCalls":[]}`},
		{"invalid output", `await tools.shop.broken({})`,
			`{"ok":false,"error":{"kind":"InvalidToolOutput","message":"Invalid output from tool 'shop.broken': at '': got null, want object"},"toolCalls":[{"name":"shop.broken"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rt.Execute(context.Background(), tt.src).String(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	if calls != 1 || hooked != 2 {
		t.Errorf("the tool ran %d times and hooks saw %d calls; invalid inputs must reach neither", calls, hooked)
	}
}

// goroutineID is the calling goroutine's number, from its stack header.
func goroutineID() string {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	f := strings.Fields(string(buf[:n]))
	return f[1]
}

// TestToolCallsReuseWorker: awaited calls in sequence all run on the same
// worker goroutine, which is idle again before its outcome reaches the
// program, instead of one new goroutine per call.
func TestToolCallsReuseWorker(t *testing.T) {
	if os.Getenv(codemode.RoundTripEnv) == "1" {
		t.Skip("round-trip mode resumes the run in a new Runtime after every call, with workers of its own")
	}
	var mu sync.Mutex
	seen := map[string]int{}
	where := &tools.Tool{Description: "records its goroutine", Output: objectOut, Func: func(context.Context, json.RawMessage) (any, error) {
		mu.Lock()
		seen[goroutineID()]++
		mu.Unlock()
		return map[string]int{"ok": 1}, nil
	}}
	rt, _ := codemode.New(codemode.Options{Tools: map[string]any{"where": where}})
	res := rt.Execute(context.Background(), "let t = 0; for (let i = 0; i < 200; i++) t += (await tools.where({})).ok; return t")
	if !res.OK || string(res.Value) != "200" {
		t.Fatalf("got %s", res)
	}
	if len(seen) != 1 {
		t.Errorf("200 calls in sequence ran on %d goroutines, want 1: a worker must be reused once idle", len(seen))
	}
}

// TestTypedToolResults: typed maps and lists a tool returns reach the
// program as their JSON would, nil ones as null.
func TestTypedToolResults(t *testing.T) {
	results := map[string]any{
		"ms":  map[string]string{"b": "2", "a": "1"},
		"mi":  map[string]int{"z": 1, "y": 2},
		"mf":  map[string]float64{"x": 1.5},
		"mb":  map[string]bool{"t": true},
		"ls":  []string{"a", "b"},
		"li":  []int{1, 2},
		"lf":  []float64{0.5},
		"lm":  []map[string]any{{"k": 1}},
		"nm":  map[string]int(nil),
		"nl":  []string(nil),
		"nan": map[string]float64{"x": math.NaN()},
	}
	def := map[string]any{}
	for name, v := range results {
		def[name] = &tools.Tool{Description: "returns a typed value", Output: json.RawMessage(`{}`), Func: func(context.Context, json.RawMessage) (any, error) { return v, nil }}
	}
	rt, err := codemode.New(codemode.Options{Tools: def})
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range results {
		t.Run(name, func(t *testing.T) {
			res := rt.Execute(context.Background(), fmt.Sprintf("return JSON.stringify(await tools.%s())", name))
			want, err := json.Marshal(v)
			if err != nil {
				if res.OK || res.Error.Kind != codemode.InvalidToolOutput || !strings.Contains(res.Error.Message, "unsupported value: NaN") {
					t.Errorf("got %s, want InvalidToolOutput for %v", res, err)
				}
				return
			}
			var got string
			if !res.OK || json.Unmarshal(res.Value, &got) != nil || got != string(want) {
				t.Errorf("got %s, want %s", res, want)
			}
		})
	}
}

// TestToolCallsBehindBlockedOnes: calls beyond the workers started at
// once still all run together when every running call waits for the
// others (a barrier across 100 calls): queued calls get workers of their
// own once nobody takes them.
func TestToolCallsBehindBlockedOnes(t *testing.T) {
	const n = 100
	var arrived atomic.Int32
	all := make(chan struct{})
	barrier := &tools.Tool{Description: "waits for every call", Output: objectOut, Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
		if arrived.Add(1) == n {
			close(all)
		}
		select {
		case <-all:
			return map[string]int{"ok": 1}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}
	rt, _ := codemode.New(codemode.Options{Tools: map[string]any{"barrier": barrier}, Limits: codemode.Limits{Timeout: 20 * time.Second}})
	res := rt.Execute(context.Background(), fmt.Sprintf("const rs = await Promise.all(Array.from({length: %d}, () => tools.barrier({}))); return rs.length", n))
	if !res.OK || string(res.Value) != fmt.Sprint(n) {
		t.Fatalf("got %s (%d calls arrived): calls must not wait for other calls to finish", res, arrived.Load())
	}
}
