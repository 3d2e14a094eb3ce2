package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// userFiles is one user's tools: the same schema for every user, a Func
// of its own.
func userFiles(user string) map[string]any {
	return map[string]any{"files": &tools.Namespace{Description: "The user's files", Tools: map[string]any{
		"read": &tools.Tool{
			Description: "Read one of the user's files",
			Input:       json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
			Output:      json.RawMessage(`{"type":"string"}`),
			Func: func(_ context.Context, in json.RawMessage) (any, error) {
				var q struct{ Path string }
				if err := json.Unmarshal(in, &q); err != nil {
					return nil, err
				}
				return user + ":" + q.Path, nil
			},
		},
	}}}
}

func withToolsRuntime(t *testing.T) *codemode.Runtime {
	t.Helper()
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{
		"crm.getCustomer": &tools.Tool{Description: "Get a customer", Output: json.RawMessage(`{"type":"string"}`),
			Func: func(context.Context, json.RawMessage) (any, error) { return "runtime", nil }},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

func TestWithTools(t *testing.T) {
	rt := withToolsRuntime(t)
	ctx := context.Background()
	override := map[string]any{"crm.getCustomer": &tools.Tool{Description: "Get a customer of this tenant", Output: json.RawMessage(`{"type":"string"}`),
		Func: func(context.Context, json.RawMessage) (any, error) { return "overlay", nil }}}
	for _, tt := range []struct {
		name string
		opts []codemode.ExecOption
		code string
		want string
	}{
		{"overlay tool", []codemode.ExecOption{codemode.WithTools(userFiles("ann"))},
			`return [await tools.files.read({path: "a.txt"}), await tools.crm.getCustomer()]`,
			`{"ok":true,"value":["ann:a.txt","runtime"],"toolCalls":[{"name":"files.read"},{"name":"crm.getCustomer"}]}`},
		{"replaces the Runtime's tool", []codemode.ExecOption{codemode.WithTools(override)},
			`return await tools.crm.getCustomer()`,
			`{"ok":true,"value":"overlay","toolCalls":[{"name":"crm.getCustomer"}]}`},
		{"later overlays win", []codemode.ExecOption{codemode.WithTools(userFiles("ann")), codemode.WithTools(userFiles("bob"))},
			`return await tools.files.read({path: "b"})`,
			`{"ok":true,"value":"bob:b","toolCalls":[{"name":"files.read"}]}`},
		{"search sees the overlay", []codemode.ExecOption{codemode.WithTools(userFiles("ann"))},
			`const r = await search({query: "read file"}); return r.items.map(i => i.path)`,
			`{"ok":true,"value":["tools.files.read"],"toolCalls":[{"name":"search"}]}`},
		{"input is validated", []codemode.ExecOption{codemode.WithTools(userFiles("ann"))},
			`try { await tools.files.read({}) } catch (e) { return e.message }`,
			`{"ok":true,"value":"Invalid input for tool 'files.read': at '': missing property 'path'","toolCalls":[]}`},
		{"without WithTools", nil,
			`return typeof tools.files.read`,
			`{"ok":true,"value":"function","toolCalls":[]}`},
	} {
		res := rt.Execute(ctx, tt.code, tt.opts...)
		if got := res.String(); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
	// The Runtime itself never sees a run's tools.
	if res := rt.Execute(ctx, `return await tools.files.read({path: "a"})`); res.OK || !strings.Contains(res.Error.Message, "files.read") {
		t.Errorf("a run without the overlay: %v", res)
	}
	if n := len(rt.Catalog()); n != 1 {
		t.Errorf("the catalog has %d tools, want the Runtime's 1", n)
	}
}

func TestWithToolsErrors(t *testing.T) {
	rt := withToolsRuntime(t)
	ctx := context.Background()
	bad := map[string]any{"x.y": &tools.Tool{Func: func(context.Context, json.RawMessage) (any, error) { return 1, nil },
		Input: json.RawMessage(`{"type":"object","properties":{"q":{"type":7}}}`)}}
	for _, tt := range []struct {
		name, code string
		def        map[string]any
		want       string
	}{
		{"no Func", `return 1`, map[string]any{"x": &tools.Tool{}},
			`{"ok":false,"error":{"kind":"ExecutionFailure","message":"codemode: WithTools: tools: tool \"x\" has no Func; give it the function that runs it"},"toolCalls":[]}`},
		{"empty segment", `return 1`, map[string]any{"a..b": &tools.Tool{}},
			`{"ok":false,"error":{"kind":"ExecutionFailure","message":"codemode: WithTools: Tool name 'a..b' contains an empty segment."},"toolCalls":[]}`},
		{"schema that does not compile", `try { await tools.x.y({q: 1}) } catch (e) { return e.message }`, bad,
			`{"ok":true,"value":"Tool 'x.y' cannot be called: tools: tool \"x.y\": input schema: not a valid JSON Schema: at '/properties/q/type': value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'. This is an error in the host's tool definition, not in the program.","toolCalls":[]}`},
	} {
		res := rt.Execute(ctx, tt.code, codemode.WithTools(tt.def))
		if got := res.String(); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

// Runs with different overlays at once each see their own tools.
func TestWithToolsConcurrent(t *testing.T) {
	rt := withToolsRuntime(t)
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := range 16 {
		user := fmt.Sprintf("u%d", i)
		wg.Go(func() {
			res := rt.Execute(context.Background(), `return await tools.files.read({path: "p"})`, codemode.WithTools(userFiles(user)))
			if want := fmt.Sprintf(`"%s:p"`, user); string(res.Value) != want {
				errs <- fmt.Sprintf("%s: %v", user, res)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
