package codemode_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/protocol"
)

// Providers are the executor seed's tools: globals whose methods take
// positional arguments, every call answered by one dispatch function.
func ExampleWithProviders() {
	rt, _ := codemode.New(codemode.Options{})
	users := map[float64]string{1: "Ada", 2: "Grace"}
	dispatch := protocol.NewEnvelopeDispatch(func(ctx context.Context, provider, tool string, args []any) (any, error) {
		id, _ := args[0].(float64)
		if name, ok := users[id]; ok {
			return map[string]any{"id": id, "name": name}, nil
		}
		return nil, fmt.Errorf("no user %v", id)
	})
	res := rt.Execute(context.Background(), `async () => {
  const a = await store.getUser(1);
  try { await store.getUser(3) } catch (e) { console.log(e.message) }
  return a.name;
}`, codemode.WithProviders([]protocol.ProviderDescriptor{{Name: "store", Tools: []string{"getUser"}}}, dispatch.Dispatch))
	fmt.Println(res)
	// Output: {"ok":true,"value":"Ada","logs":["no user 3"],"toolCalls":[{"name":"store.getUser"},{"name":"store.getUser"}]}
}

// A module map: programs import the host's modules by name.
func ExampleWithModules() {
	rt, _ := codemode.New(codemode.Options{})
	res := rt.Execute(context.Background(), "import { slugify } from \"helpers\"\nimport cfg from \"config.json\"\nasync () => slugify(cfg.title)",
		codemode.WithModules(protocol.ModuleMap{
			"helpers":     protocol.JSModule(`export const slugify = s => s.toLowerCase().replace(/\s+/g, "-")`),
			"config.json": protocol.JSONModule([]byte(`{"title":"Code Mode Notes"}`)),
		}))
	fmt.Println(res)
	// Output: {"ok":true,"value":"code-mode-notes","toolCalls":[]}
}

// A retained run: the program returns functions, which the host calls
// later in the same heap.
func ExampleRuntime_InvokeHandle() {
	rt, _ := codemode.New(codemode.Options{})
	ctx := context.Background()
	res := rt.Execute(ctx, `let total = 0; return { add: n => total += n, total: () => total }`, codemode.WithRetain())
	fmt.Println(res.Handles)
	for _, n := range []any{5, 10} {
		r, _ := rt.InvokeHandle(ctx, res.ExecutionID, "add", []any{n})
		fmt.Println(string(r.Value))
	}
	_ = rt.CloseHandles(res.ExecutionID)
	_, err := rt.InvokeHandle(ctx, res.ExecutionID, "total", nil)
	fmt.Println(errors.Is(err, codemode.ErrUnknownExecution))
	// Output:
	// [add total]
	// 5
	// 15
	// true
}

// fetch performed by the host (the seed's stub mode); outbound.New(cfg).Fetch()
// would reach the network instead, guarded.
func ExampleWithFetch() {
	rt, _ := codemode.New(codemode.Options{})
	answer := func(ctx context.Context, req protocol.OutboundRequest) (protocol.OutboundResponse, error) {
		return protocol.OutboundResponse{Status: 200, Headers: [][2]string{{"content-type", "application/json"}},
			Body: []byte(`{"temp": 21}`)}, nil
	}
	res := rt.Execute(context.Background(), `const r = await fetch("https://weather.example/now?city=Oslo");
return [r.status, (await r.json()).temp]`, codemode.WithFetch(answer))
	fmt.Println(res)
	// Output: {"ok":true,"value":[200,21],"toolCalls":[]}
}

// The executor contract in one call: what codemode serve runs for hosts
// in other languages.
func ExampleRuntime_Executor() {
	rt, _ := codemode.New(codemode.Options{})
	ex := rt.Executor(codemode.ExecutorOptions{})
	defer ex.Close()
	res, err := ex.Execute(context.Background(), protocol.ExecuteRequest{
		Code:      `async () => { console.warn("checking"); return (await kv.get("greeting")) + ", world" }`,
		Providers: []protocol.ProviderDescriptor{{Name: "kv", Tools: []string{"get"}}},
		Dispatch: func(ctx context.Context, provider, tool, argsJSON string) string {
			return `{"result":"hello"}`
		},
	})
	fmt.Println(string(res.Result), res.Logs, err)
	// Output: "hello, world" [{warn checking}] <nil>
}
