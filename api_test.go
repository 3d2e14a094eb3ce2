package codemode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/catalog"
	"github.com/go-codemode/codemode/tools"
)

func TestResultErr(t *testing.T) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Execute(context.Background(), `return 1`).Err(); err != nil {
		t.Errorf("ok run: Err() = %v, want nil", err)
	}
	for _, tt := range []struct {
		code string
		kind codemode.Kind
		text string
	}{
		{`throw new TypeError("no")`, codemode.ExecutionFailure, "ExecutionFailure: TypeError: no"},
		{`let x = ;`, codemode.ParseError, "ParseError: Unexpected token ';' (1:8)"},
	} {
		err := rt.Execute(context.Background(), tt.code).Err()
		var d *codemode.Diagnostic
		if !errors.As(err, &d) || d.Kind != tt.kind || err.Error() != tt.text {
			t.Errorf("%s: Err() = %v (%T), want a %s Diagnostic %q", tt.code, err, err, tt.kind, tt.text)
		}
		if !errors.Is(err, &codemode.Diagnostic{Kind: tt.kind}) || errors.Is(err, &codemode.Diagnostic{Kind: codemode.Cancelled}) {
			t.Errorf("%s: errors.Is by kind does not hold", tt.code)
		}
		if wrapped := fmt.Errorf("agent step 3: %w", err); !errors.As(wrapped, &d) || d.Kind != tt.kind {
			t.Errorf("%s: a wrapped Err() loses its Diagnostic", tt.code)
		}
	}
}

func TestDefaultLimits(t *testing.T) {
	l := codemode.DefaultLimits()
	if l.Timeout != 30*time.Second || l.MaxMemoryBytes != 256<<20 || l.MaxToolCalls == nil || *l.MaxToolCalls != 100 || l.MaxOutputBytes == nil || *l.MaxOutputBytes != 1<<20 {
		t.Fatalf("DefaultLimits() = %+v", l)
	}
	*l.MaxToolCalls = 1 // each call gets its own pointers
	if again := codemode.DefaultLimits(); *again.MaxToolCalls != 100 {
		t.Fatal("DefaultLimits shares its MaxToolCalls pointer between calls")
	}
	rt, err := codemode.New(codemode.Options{Limits: codemode.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	if res := rt.Execute(context.Background(), `const a = []; for (;;) a.push("x".repeat(1000) + a.length)`); res.Error == nil || res.Error.Kind != codemode.MemoryLimitExceeded {
		t.Fatalf("a memory bomb under DefaultLimits: %v", res)
	}
}

// fieldsError is a tool error with data, as openapi's HTTP errors are.
type fieldsError struct{ status int }

func (e *fieldsError) Error() string {
	return fmt.Sprintf("GET /pets/7 failed with HTTP %d: not found", e.status)
}
func (e *fieldsError) ErrorFields() map[string]any {
	return map[string]any{"status": e.status, "body": map[string]any{"code": "missing"}, "name": "ignored", "message": "ignored"}
}

func TestToolErrorFields(t *testing.T) {
	fail := func(err error) *tools.Tool {
		return &tools.Tool{Func: func(context.Context, json.RawMessage) (any, error) { return nil, err }}
	}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{
		"pets.get":  fail(fmt.Errorf("calling the API: %w", &fieldsError{status: 404})),
		"fs.read":   fail(&codemode.HostError{Message: "no such file", Fields: map[string]any{"code": "ENOENT"}}),
		"plain.err": fail(errors.New("boom")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	res := rt.Execute(context.Background(), `
const out = [];
for (const call of [() => tools.pets.get({}), () => tools.fs.read({}), () => tools.plain.err({})]) {
  try { await call() } catch (e) { out.push([e.name, e.message, e.status ?? null, e.body ?? null, e.code ?? null]) }
}
return out`)
	want := `[["Error","calling the API: GET /pets/7 failed with HTTP 404: not found",404,{"code":"missing"},null],["Error","no such file",null,null,"ENOENT"],["Error","boom",null,null,null]]`
	if !res.OK || string(res.Value) != want {
		t.Fatalf("got %v\nwant value %s", res, want)
	}
	// Uncaught, the failure keeps the reference's ToolFailure message.
	res = rt.Execute(context.Background(), `await tools.pets.get({})`)
	if res.Error == nil || res.Error.Kind != codemode.ToolFailure || res.Error.Message != "calling the API: GET /pets/7 failed with HTTP 404: not found" {
		t.Fatalf("uncaught: %v", res)
	}
}

func TestWithLimits(t *testing.T) {
	base := codemode.Limits{Timeout: 5 * time.Second, MaxToolCalls: codemode.Max(10), MaxMemoryBytes: 64 << 20}
	echo := &tools.Tool{Output: json.RawMessage(`{}`), Func: func(_ context.Context, in json.RawMessage) (any, error) { return map[string]any{}, nil }}
	rt, err := codemode.New(codemode.Options{Limits: base, Tools: map[string]any{"x.echo": echo}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tt := range []struct {
		name   string
		limits codemode.Limits
		code   string
		kind   codemode.Kind
		msg    string
	}{
		{"tighter tool calls", codemode.Limits{MaxToolCalls: codemode.Max(1)}, `await tools.x.echo({}); await tools.x.echo({})`,
			codemode.ToolCallLimitExceeded, "Execution exceeded its tool-call limit of 1."},
		{"tighter timeout", codemode.Limits{Timeout: 30 * time.Millisecond}, `for (;;) {}`,
			codemode.TimeoutExceeded, "Execution timed out after 30ms."},
		{"tighter output", codemode.Limits{MaxOutputBytes: codemode.Max(0)}, `return "hello"`, "", ""},
		{"looser timeout", codemode.Limits{Timeout: time.Minute}, `return 1`,
			codemode.ExecutionFailure, "codemode: WithLimits: Timeout 1m0s is looser than the Runtime's 5s; a run's limits may only be tighter"},
		{"looser tool calls", codemode.Limits{MaxToolCalls: codemode.Max(11)}, `return 1`,
			codemode.ExecutionFailure, "codemode: WithLimits: MaxToolCalls 11 is looser than the Runtime's 10; a run's limits may only be tighter"},
		{"looser memory", codemode.Limits{MaxMemoryBytes: 1 << 30}, `return 1`,
			codemode.ExecutionFailure, "codemode: WithLimits: MaxMemoryBytes 1073741824 is looser than the Runtime's 67108864; a run's limits may only be tighter"},
		{"invalid", codemode.Limits{MaxToolCalls: codemode.Max(-1)}, `return 1`,
			codemode.ExecutionFailure, "codemode: WithLimits: Limits.MaxToolCalls must be between 0 and 2^53-1 (Max(n); nil for no limit); got -1"},
	} {
		res := rt.Execute(ctx, tt.code, codemode.WithLimits(tt.limits))
		switch {
		case tt.kind == "":
			if !res.OK || !res.Truncated {
				t.Errorf("%s: %v, want an ok, truncated Result", tt.name, res)
			}
		case res.Error == nil || res.Error.Kind != tt.kind || res.Error.Message != tt.msg:
			t.Errorf("%s: %v\nwant %s %q", tt.name, res, tt.kind, tt.msg)
		}
	}
	// Without WithLimits the Runtime's limits hold.
	if res := rt.Execute(ctx, `for (let i = 0; i < 10; i++) await tools.x.echo({}); return 1`); !res.OK {
		t.Errorf("the Runtime's own limits: %v", res)
	}
}

func TestWithHooks(t *testing.T) {
	var log []string
	echo := &tools.Tool{Func: func(context.Context, json.RawMessage) (any, error) { return nil, nil }}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"x.echo": echo, "x.secret": echo}, Hooks: codemode.Hooks{
		ToolBefore: func(_ context.Context, c codemode.ToolCallInfo) error {
			log = append(log, "runtime before "+c.Name)
			return nil
		},
		ToolAfter: func(_ context.Context, c codemode.ToolCallInfo, o codemode.CallOutcome) {
			log = append(log, "runtime after "+c.Name+" "+string(o.Status))
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	perRun := codemode.Hooks{
		ToolBefore: func(_ context.Context, c codemode.ToolCallInfo) error {
			log = append(log, "run before "+c.Name)
			if c.Name == "x.secret" {
				return errors.New("this user may not read secrets")
			}
			return nil
		},
		ToolAfter: func(_ context.Context, c codemode.ToolCallInfo, o codemode.CallOutcome) {
			log = append(log, "run after "+c.Name+" "+string(o.Status))
		},
	}
	res := rt.Execute(context.Background(), `await tools.x.echo({}); try { await tools.x.secret({}) } catch (e) { return e.message }`, codemode.WithHooks(perRun))
	if !res.OK || string(res.Value) != `"this user may not read secrets"` {
		t.Fatalf("%v", res)
	}
	want := "runtime before x.echo|run before x.echo|runtime after x.echo success|run after x.echo success|runtime before x.secret|run before x.secret"
	if got := strings.Join(log, "|"); got != want {
		t.Errorf("hooks ran as\n%s\nwant\n%s", got, want)
	}
}

func TestOnLog(t *testing.T) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var streamed []string
	res := rt.Execute(context.Background(), `console.log("a", 1); console.warn({ b: 2 }); console.error("c"); return 0`,
		codemode.OnLog(func(line string) { streamed = append(streamed, line) }))
	if !res.OK || strings.Join(streamed, "|") != strings.Join(res.Logs, "|") || len(streamed) != 3 {
		t.Fatalf("streamed %q, Result logs %q", streamed, res.Logs)
	}
	// A panicking callback does not break the run.
	res = rt.Execute(context.Background(), `console.log("x"); return 2`, codemode.OnLog(func(string) { panic("host bug") }))
	if !res.OK || string(res.Value) != "2" || len(res.Logs) != 1 {
		t.Fatalf("panicking OnLog: %v", res)
	}
}

// TestUnawaitedCallWarning: a call still running when the program
// returned is cancelled and named, with where it was made, so that the
// model learns to await it.
func TestUnawaitedCallWarning(t *testing.T) {
	block := &tools.Tool{Output: json.RawMessage(`{}`), Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"crm.getCustomer": block}})
	if err != nil {
		t.Fatal(err)
	}
	const w = " was still running when the program ended and was cancelled: await every tool call you start."
	for _, tt := range []struct{ code, want string }{
		{`const c = tools.crm.getCustomer({id: 1}); return 1`,
			`{"ok":true,"value":1,"warnings":[{"kind":"ToolFailure","message":"tools.crm.getCustomer (line 1, col 11)` + w + `"}],"toolCalls":[{"name":"crm.getCustomer"}]}`},
		{"const ids = [1, 2];\nids.forEach(async (id) => { await tools.crm.getCustomer({id}) });\nreturn \"done\"",
			`{"ok":true,"value":"done","warnings":[{"kind":"ToolFailure","message":"tools.crm.getCustomer (line 2, col 35)` + w + `"},{"kind":"ToolFailure","message":"tools.crm.getCustomer (line 2, col 35)` + w + `"}],"toolCalls":[{"name":"crm.getCustomer"},{"name":"crm.getCustomer"}]}`},
		// A run that fails names no call: its diagnostic says why.
		{`tools.crm.getCustomer({}); throw new Error("stop")`,
			`{"ok":false,"error":{"kind":"ExecutionFailure","message":"Error: stop"},"toolCalls":[{"name":"crm.getCustomer"}]}`},
	} {
		if got := rt.Execute(context.Background(), tt.code).String(); got != tt.want {
			t.Errorf("%s\ngot  %s\nwant %s", tt.code, got, tt.want)
		}
	}
}

func TestOnToolCall(t *testing.T) {
	double := &tools.Tool{Output: json.RawMessage(`{}`), Func: func(_ context.Context, in json.RawMessage) (any, error) {
		var x struct{ N int }
		if err := json.Unmarshal(in, &x); err != nil {
			return nil, err
		}
		if x.N < 0 {
			return nil, errors.New("negative")
		}
		time.Sleep(time.Duration(5-x.N) * time.Millisecond) // later calls end first
		return map[string]any{"n": 2 * x.N}, nil
	}}
	block := &tools.Tool{Func: func(ctx context.Context, _ json.RawMessage) (any, error) { <-ctx.Done(); return nil, ctx.Err() }}
	var mu sync.Mutex
	var infos []string
	rt, err := codemode.New(codemode.Options{
		Tools: map[string]any{"math.double": double, "x.block": block, "x.denied": block},
		Hooks: codemode.Hooks{ToolBefore: func(_ context.Context, c codemode.ToolCallInfo) error {
			mu.Lock()
			infos = append(infos, fmt.Sprintf("%s=%d:%s", c.ID, c.Seq, c.Name))
			mu.Unlock()
			if c.Name == "x.denied" {
				return errors.New("no")
			}
			return nil
		}},
		Extensions: []codemode.Extension{{Name: "clock", Globals: map[string]any{
			"now": codemode.HostFunc(func(context.Context, []any) (any, error) { return 1, nil }),
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var events []codemode.ToolCallEvent
	returned := false
	res := rt.Execute(context.Background(), `
const rs = await Promise.all([1, 2, 3].map((n) => tools.math.double({ n })));
try { await tools.math.double({ n: -1 }) } catch {}
try { await tools.x.denied({}) } catch {}
search({ query: "double" });
now();
tools.x.block({});
return rs.map((r) => r.n)`, codemode.OnToolCall(func(e codemode.ToolCallEvent) {
		if returned {
			t.Errorf("an event after Execute returned: %+v", e)
		}
		events = append(events, e)
	}))
	returned = true
	if !res.OK || string(res.Value) != "[2,4,6]" {
		t.Fatalf("%v", res)
	}
	starts, ends := map[string]codemode.ToolCallEvent{}, map[string]codemode.ToolCallEvent{}
	for _, e := range events {
		m := starts
		if e.Phase == codemode.CallEnd {
			m = ends
		}
		if _, dup := m[e.ID]; dup {
			t.Errorf("two %s events for %s", e.Phase, e.ID)
		}
		m[e.ID] = e
	}
	if len(starts) != 8 || len(ends) != 8 {
		t.Fatalf("%d starts and %d ends, want 8 each: %+v", len(starts), len(ends), events)
	}
	want := map[int]string{1: "tool math.double success", 2: "tool math.double success", 3: "tool math.double success",
		4: "tool math.double failure", 5: "tool x.denied failure", 6: "tool search success", 7: "extension now success", 8: "tool x.block interrupted"}
	for id, s := range starts {
		e := ends[id]
		if got := fmt.Sprintf("%s %s %s", e.Kind, e.Name, e.Outcome.Status); s.Seq != e.Seq || id != fmt.Sprintf("call-%d", s.Seq) || got != want[s.Seq] {
			t.Errorf("%s: start seq %d, end %q (seq %d), want %q", id, s.Seq, got, e.Seq, want[s.Seq])
		}
		if e.Duration <= 0 {
			t.Errorf("%s: end without a duration", id)
		}
	}
	if in := string(starts["call-2"].Input); in != `{"n":2}` {
		t.Errorf("call-2 input %s", in)
	}
	// The hooks saw the same ids (x.block, cut off by the return, may not
	// have reached its before-hook).
	sort.Strings(infos)
	if got := strings.TrimSuffix(strings.Join(infos, " "), " call-8=8:x.block"); got != "call-1=1:math.double call-2=2:math.double call-3=3:math.double call-4=4:math.double call-5=5:x.denied call-6=6:search" {
		t.Errorf("hooks saw %s", got)
	}
}

// TestSearchExactPathFullSignature: the catalog's budget cuts a big
// signature, and searching for the tool's exact path gives it whole.
func TestSearchExactPathFullSignature(t *testing.T) {
	props := map[string]any{}
	for i := 0; i < 40; i++ {
		props[fmt.Sprintf("field%02d", i)] = map[string]any{"type": "string", "description": "a field of the record"}
	}
	input, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	big := &tools.Tool{Description: "Create a big record", Input: input, Func: func(context.Context, json.RawMessage) (any, error) { return nil, nil }}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"records.create": big}, Signatures: catalog.Options{MaxChars: 300}})
	if err != nil {
		t.Fatal(err)
	}
	if cut := rt.Catalog()[0].Signature; len(cut) > 300 || !strings.Contains(cut, "…") {
		t.Fatalf("the catalog's signature is not cut: %d characters", len(cut))
	}
	res := rt.Execute(context.Background(), `return [search({ query: "records.create" }).items[0].signature, search({ query: "tools.records.create" }).items[0].signature, search({ query: "create record" }).items[0].signature]`)
	var sigs []string
	if !res.OK || json.Unmarshal(res.Value, &sigs) != nil {
		t.Fatalf("%v", res)
	}
	if !strings.Contains(sigs[0], "field39?: string") || strings.Contains(sigs[0], "…") || sigs[1] != sigs[0] {
		t.Errorf("exact path: %d characters, cut: %v", len(sigs[0]), strings.Contains(sigs[0], "…"))
	}
	if len(sigs[2]) > 300 {
		t.Errorf("a ranked result is %d characters, past the budget", len(sigs[2]))
	}
}

// TestBinaryOperatorsRequireData: a promise, a function or a tool
// reference as an operand of a coercing operator is the reference's
// InvalidDataValue, where JavaScript would silently give "[object Promise]".
func TestBinaryOperatorsRequireData(t *testing.T) {
	echo := &tools.Tool{Func: func(context.Context, json.RawMessage) (any, error) { return nil, nil }}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"x.y": echo}})
	if err != nil {
		t.Fatal(err)
	}
	const msg = "TypeError: Binary operators require data values."
	for _, tt := range []struct {
		code string
		col  int
	}{
		{`return "n=" + tools.x.y()`, 8},
		{`return Promise.resolve(1) + 1`, 8},
		{`return Symbol + 1`, 8},
		{`let s = "total: "; s += tools.x.y(); return s`, 20},
		{`function f() {}; return f * 2`, 25},
		{`return tools.x < 1`, 8},
	} {
		res := rt.Execute(context.Background(), tt.code)
		want := fmt.Sprintf("%s (line 1, col %d)", msg, tt.col)
		if res.Error == nil || res.Error.Kind != codemode.InvalidDataValue || res.Error.Message != want {
			t.Errorf("%s: %v, want InvalidDataValue %q", tt.code, res, want)
		}
	}
	// Data operands, and operators that compare objects as they are, are untouched.
	res := rt.Execute(context.Background(), `const p = Promise.resolve(1), f = () => 1;
return [({}) + "", [1, 2] + "", p === p, f == f, p instanceof Promise, "then" in p, await p + 1, f() + 1]`)
	if !res.OK || string(res.Value) != `["[object Object]","1,2",true,true,true,true,2,2]` {
		t.Errorf("data operands: %v", res)
	}
}

// TestPromisePropertyWarning: reading a property a Promise does not have
// is almost always a forgotten await; the run says so, once per position.
func TestPromisePropertyWarning(t *testing.T) {
	get := &tools.Tool{Output: json.RawMessage(`{}`), Func: func(context.Context, json.RawMessage) (any, error) {
		return map[string]any{"name": "Ada"}, nil
	}}
	block := &tools.Tool{Output: json.RawMessage(`{}`), Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"crm.getCustomer": get, "crm.slowCustomer": block}})
	if err != nil {
		t.Fatal(err)
	}
	res := rt.Execute(context.Background(), "const c = tools.crm.slowCustomer({id: 1});\nreturn c.name")
	want := `{"ok":true,"value":null,"warnings":[{"kind":"InvalidDataValue","message":"c.name read a property of a Promise (line 2, col 8): did you forget await?"},` +
		`{"kind":"ToolFailure","message":"tools.crm.slowCustomer (line 1, col 11) was still running when the program ended and was cancelled: await every tool call you start."}],"toolCalls":[{"name":"crm.slowCustomer"}]}`
	if res.String() != want {
		t.Errorf("got  %s\nwant %s", res, want)
	}
	// Once per position, however often it runs; properties a promise has
	// (then) and awaited values warn nothing.
	res = rt.Execute(context.Background(), `const out = [];
for (let i = 0; i < 3; i++) { const p = tools.crm.getCustomer({}); out.push(p.id, typeof p.then); await p }
const c = await tools.crm.getCustomer({}); out.push(c.name); return out`)
	if !res.OK || len(res.Warnings) != 1 || res.Warnings[0].Message != "p.id read a property of a Promise (line 2, col 77): did you forget await?" {
		t.Errorf("%v", res)
	}
}

func TestWithExtensions(t *testing.T) {
	clock := codemode.Extension{Name: "clock", Globals: map[string]any{
		"now": codemode.HostFunc(func(context.Context, []any) (any, error) { return 42, nil }),
	}}
	rt, err := codemode.New(codemode.Options{Extensions: []codemode.Extension{clock}})
	if err != nil {
		t.Fatal(err)
	}
	user := func(name string) codemode.Extension {
		return codemode.Extension{Name: "userfs", Globals: map[string]any{"fs": map[string]any{
			"readFile": codemode.AsyncHostFunc(func(_ context.Context, args []any) (any, error) { return name + ":" + args[0].(string), nil }),
		}}}
	}
	ctx := context.Background()
	for _, name := range []string{"ada", "bo"} {
		res := rt.Execute(ctx, `import { readFile } from "node:fs"; return [now(), await fs.readFile("a.txt"), await readFile("b")]`, codemode.WithExtensions(user(name)))
		if want := fmt.Sprintf(`[42,"%s:a.txt","%s:b"]`, name, name); !res.OK || string(res.Value) != want {
			t.Errorf("%s: %v, want %s", name, res, want)
		}
	}
	// Another run does not see them.
	if res := rt.Execute(ctx, `return typeof fs`); string(res.Value) != `"undefined"` {
		t.Errorf("a run without WithExtensions: %v", res)
	}
	for _, tt := range []struct {
		ext  codemode.Extension
		want string
	}{
		{codemode.Extension{Name: "dup", Globals: map[string]any{"now": clock.Globals["now"]}}, `codemode: WithExtensions: Extension "dup" global "now" is already defined.`},
		{codemode.Extension{Name: "bad", Globals: map[string]any{"JSON": clock.Globals["now"]}}, `codemode: WithExtensions: Extension "bad" global "JSON" is already defined.`},
		{codemode.Extension{Name: "data", Globals: map[string]any{"x": 1}}, `codemode: WithExtensions: Extension "data" global "x" must be a function.`},
	} {
		res := rt.Execute(ctx, `return 1`, codemode.WithExtensions(tt.ext))
		if res.Error == nil || res.Error.Kind != codemode.ExecutionFailure || res.Error.Message != tt.want {
			t.Errorf("%v, want %q", res, tt.want)
		}
	}
}
