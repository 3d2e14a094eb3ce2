package codemode_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/protocol"
)

// echoDispatch answers every call with what it received, and records the
// calls.
type echoDispatch struct {
	mu    sync.Mutex
	calls []string
}

func (e *echoDispatch) dispatch(_ context.Context, provider, tool, args string) string {
	e.mu.Lock()
	e.calls = append(e.calls, provider+"."+tool+" "+args)
	e.mu.Unlock()
	switch tool {
	case "fail":
		return protocol.ErrorEnvelope("no such user: " + args)
	case "bytes":
		return `{"result":{"name":"blob","data":{"$binary":"AQID"}}}`
	case "raw":
		return `{"result":{"$binary":"AQID"}}`
	case "garbled":
		return `{"resul":1}`
	case "nothing":
		return `{"result":null}`
	}
	env, _ := protocol.ResultEnvelope(map[string]any{"provider": provider, "tool": tool, "args": json.RawMessage(args)})
	if args == "" {
		env, _ = protocol.ResultEnvelope(map[string]any{"provider": provider, "tool": tool, "args": "(none)"})
	}
	return env
}

// TestProviders: the executor seed's providers are globals whose
// methods dispatch their arguments as JSON, positional by default.
func TestProviders(t *testing.T) {
	no := false
	providers := []protocol.ProviderDescriptor{
		{Name: "store", Tools: []string{"getUser", "fail", "bytes", "raw", "garbled", "nothing"},
			Schemas:      map[string]json.RawMessage{"getUser": json.RawMessage(`{"type":"object","properties":{"id":{"type":"number"}},"required":["id"]}`)},
			Descriptions: map[string]string{"getUser": "One user by id"}},
		{Name: "kv", Tools: []string{"get"}, PositionalArgs: &no},
	}
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, code string
		want       string // the value, or "error: <message>"
		calls      string // what the dispatch received, joined by " | "
	}{
		{"positional arguments", `return await store.getUser(1, "x")`,
			`{"args":[1,"x"],"provider":"store","tool":"getUser"}`, `store.getUser [1,"x"]`},
		{"no arguments", `return (await store.getUser()).args`, `[]`, `store.getUser []`},
		{"the entry form", `async () => { const u = await store.getUser(7); return u.args[0] }`, `7`, `store.getUser [7]`},
		{"one argument object", `return (await kv.get({key: "a"})).args`, `{"key":"a"}`, `kv.get {"key":"a"}`},
		{"one argument object, none given", `return (await kv.get()).args`, `"(none)"`, `kv.get `},
		{"through tools, validated", `return (await tools.store.getUser({id: 2})).args`, `[{"id":2}]`, `store.getUser [{"id":2}]`},
		{"through tools, not positional", `return (await tools.kv.get({key: "b"})).args`, `{"key":"b"}`, `kv.get {"key":"b"}`},
		{"through tools, invalid input", `try { await tools.store.getUser({}) } catch (e) { return e.message }`,
			`"Invalid input for tool 'store.getUser': at '': missing property 'id'"`, ``},
		{"an error envelope throws Error(text)", `try { await store.fail(3) } catch (e) { return [e.name, e.message] }`,
			`["Error","no such user: [3]"]`, `store.fail [3]`},
		{"an uncaught error envelope", `await store.fail(4)`, `error: no such user: [4]`, `store.fail [4]`},
		{"binary results are Uint8Arrays", `const r = await store.bytes(); return [r.name, r.data instanceof Uint8Array, [...r.data]]`,
			`["blob",true,[1,2,3]]`, `store.bytes []`},
		{"a binary result alone", `const b = await store.raw(); return [b instanceof Uint8Array, [...b]]`, `[true,[1,2,3]]`, `store.raw []`},
		{"binary arguments are tagged", `const [b] = (await store.getUser(new Uint8Array([1, 2, 3]))).args; return [b instanceof Uint8Array, [...b]]`,
			`[true,[1,2,3]]`, `store.getUser [{"$binary":"AQID"}]`},
		{"a malformed envelope", `try { await store.garbled() } catch (e) { return e.message }`,
			`"the dispatch of store.garbled answered with a malformed envelope: unknown field \"resul\"; answer {\"result\": value} or {\"error\": \"text\"}"`, `store.garbled []`},
		{"a null result", `return await store.nothing()`, `null`, `store.nothing []`},
		{"an undeclared tool", `try { await store.getUsr(1) } catch (e) { return e.message }`,
			`"Unknown tool 'store.getUsr'. Did you mean store.getUser?"`, ``},
		{"the provider's keys", `return Object.keys(store)`, `["getUser","fail","bytes","raw","garbled","nothing"]`, ``},
		{"search finds them", `return search({query: "user by id"}).items[0].path`, `"tools.store.getUser"`, ``},
		{"calls run at once", `const rs = await Promise.all([1, 2, 3].map(i => store.getUser(i))); return rs.map(r => r.args[0])`,
			`[1,2,3]`, `store.getUser [1] | store.getUser [2] | store.getUser [3]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d echoDispatch
			res := rt.Execute(context.Background(), c.code, codemode.WithProviders(providers, d.dispatch))
			got := string(res.Value)
			if !res.OK {
				got = "error: " + res.Error.Message
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			d.mu.Lock()
			calls := strings.Join(d.calls, " | ")
			d.mu.Unlock()
			if c.name == "calls run at once" {
				// In any order.
				parts := strings.Split(calls, " | ")
				if len(parts) != 3 {
					t.Errorf("calls %q", calls)
				}
				return
			}
			if calls != c.calls {
				t.Errorf("dispatched %q, want %q", calls, c.calls)
			}
			for _, tc := range res.ToolCalls {
				if !strings.HasPrefix(tc.Name, "store.") && !strings.HasPrefix(tc.Name, "kv.") && tc.Name != "search" {
					t.Errorf("tool call %q", tc.Name)
				}
			}
		})
	}
}

// TestProvidersRefused: provider lists the seed's validateProviders
// refuses, and names that collide with a run's globals, fail the run
// before anything runs.
func TestProvidersRefused(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Extensions: []codemode.Extension{{Name: "web", Globals: map[string]any{
		"fetchPage": codemode.HostFunc(func(context.Context, []any) (any, error) { return nil, nil })}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		providers []protocol.ProviderDescriptor
		opts      []codemode.ExecOption
		want      string
	}{
		{[]protocol.ProviderDescriptor{{Name: "tools"}}, nil, `Provider name "tools" is reserved`},
		{[]protocol.ProviderDescriptor{{Name: "my-store"}}, nil, `Provider name "my-store" is not a valid JavaScript identifier`},
		{[]protocol.ProviderDescriptor{{Name: "class"}}, nil, `Provider name "class" is a JavaScript reserved word`},
		{[]protocol.ProviderDescriptor{{Name: "a"}, {Name: "a"}}, nil, `Duplicate provider name "a"`},
		{[]protocol.ProviderDescriptor{{Name: "fetchPage"}}, nil, `Provider name "fetchPage" is already a global of this run (an extension or a binding)`},
		{[]protocol.ProviderDescriptor{{Name: "user"}}, []codemode.ExecOption{codemode.WithBindings(map[string]any{"user": 1})},
			`Provider name "user" is already a global of this run (an extension or a binding)`},
	} {
		opts := append([]codemode.ExecOption{codemode.WithProviders(c.providers, nil)}, c.opts...)
		res := rt.Execute(context.Background(), "return 1", opts...)
		want := "codemode: WithProviders: " + c.want
		if res.OK || res.Error.Kind != codemode.ExecutionFailure || res.Error.Message != want {
			t.Errorf("got  %s\nwant %s", res, want)
		}
	}
}

// TestProvidersWithoutDispatch: a run given providers and no dispatch
// answers every call with the seed's not-found error.
func TestProvidersWithoutDispatch(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{})
	res := rt.Execute(context.Background(), `try { await store.list() } catch (e) { return e.message }`,
		codemode.WithProviders([]protocol.ProviderDescriptor{{Name: "store", Tools: []string{"list"}}}, nil))
	if got := string(res.Value); got != `"Tool \"store.list\" not found"` {
		t.Errorf("got %s", res)
	}
}
