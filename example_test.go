package codemode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// A Result prints in the reference's shape, ready to hand back to a model.
func ExampleResult() {
	r := codemode.Result{
		OK:        true,
		Value:     json.RawMessage(`{"open":3,"closed":9}`),
		Logs:      []string{"checked 12 issues"},
		ToolCalls: []codemode.ToolCall{{Name: "github.listIssues"}},
	}
	fmt.Println(r)
	// Output: {"ok":true,"value":{"open":3,"closed":9},"logs":["checked 12 issues"],"toolCalls":[{"name":"github.listIssues"}]}
}

// A Runtime with one tool and limits; the program calls the tool the way
// a model would and returns one value.
func ExampleRuntime_Execute() {
	weather := &tools.Tool{
		Description: "Current temperature of a city, in Celsius",
		Input:       json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
		Output:      json.RawMessage(`{"type":"object","properties":{"celsius":{"type":"number"}}}`),
		Func: func(ctx context.Context, input json.RawMessage) (any, error) {
			var in struct{ City string }
			if err := json.Unmarshal(input, &in); err != nil {
				return nil, err
			}
			return map[string]any{"celsius": float64(len(in.City))}, nil
		},
	}
	rt, err := codemode.New(codemode.Options{
		Tools:  map[string]any{"weather.current": weather},
		Limits: codemode.DefaultLimits(), // 30 s, 256 MiB, 100 tool calls, 1 MiB of output
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	res := rt.Execute(context.Background(), `
const cities = ["Oslo", "Lisbon"];
const temps = await Promise.all(cities.map((city) => tools.weather.current({ city })));
return Object.fromEntries(cities.map((c, i) => [c, temps[i].celsius]));`)
	fmt.Println(res)
	// Output: {"ok":true,"value":{"Oslo":4,"Lisbon":6},"toolCalls":[{"name":"weather.current"},{"name":"weather.current"}]}
}

// Bindings make data visible to the program as globals, copied in.
func ExampleWithBindings() {
	rt, _ := codemode.New(codemode.Options{})
	res := rt.Execute(context.Background(), `return orders.filter((o) => o.total > limit).map((o) => o.id)`,
		codemode.WithBindings(map[string]any{
			"orders": []map[string]any{{"id": 1, "total": 20}, {"id": 2, "total": 5}},
			"limit":  10,
		}))
	fmt.Println(res)
	// Output: {"ok":true,"value":[1],"toolCalls":[]}
}

// A failed run's Result is also a Go error: errors.As finds its
// Diagnostic, whose Kind says what went wrong.
func ExampleResult_Err() {
	limits := codemode.DefaultLimits()
	limits.Timeout = 50 * time.Millisecond
	rt, err := codemode.New(codemode.Options{Limits: limits})
	if err != nil {
		fmt.Println(err)
		return
	}
	res := rt.Execute(context.Background(), `for (;;) {}`)
	var d *codemode.Diagnostic
	if err := res.Err(); errors.As(err, &d) {
		fmt.Println(d.Kind, "-", err)
	}
	// Output: TimeoutExceeded - TimeoutExceeded: Execution timed out after 50ms.
}

// OnLog streams the program's console lines to the host as they are
// written, for a UI that shows progress.
func ExampleOnLog() {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rt.Execute(context.Background(), `for (const step of ["fetch", "merge", "report"]) console.log("step", step)`,
		codemode.OnLog(func(line string) { fmt.Println("live:", line) }))
	// Output:
	// live: step fetch
	// live: step merge
	// live: step report
}

// WithLimits gives one execution tighter limits than the Runtime's, for
// example per user plan.
func ExampleWithLimits() {
	rt, err := codemode.New(codemode.Options{Limits: codemode.DefaultLimits()})
	if err != nil {
		fmt.Println(err)
		return
	}
	free := codemode.Limits{Timeout: 20 * time.Millisecond}
	fmt.Println(rt.Execute(context.Background(), `for (;;) {}`, codemode.WithLimits(free)))
	// Output: {"ok":false,"error":{"kind":"TimeoutExceeded","message":"Execution timed out after 20ms."},"toolCalls":[]}
}

// A typed Go tool (tools.Func) inside a Runtime: its schemas come from the
// Go types, the program's input is validated and decoded strictly, and
// the output comes back as data.
// WithTools gives one run tools of its own (here, the signed-in user's
// files) on top of the Runtime's, without rebuilding the Runtime.
func ExampleWithTools() {
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{
		"clock.now": tools.Func("The current time", func(ctx context.Context, _ struct{}) (string, error) { return "2026-12-02T10:00:00Z", nil }),
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	filesOf := func(user string) map[string]any {
		type Path struct {
			Path string `json:"path"`
		}
		return map[string]any{"files.read": tools.Func("Read one of your files", func(ctx context.Context, p Path) (string, error) {
			return "contents of " + user + "/" + p.Path, nil
		})}
	}
	code := `return [await tools.files.read({ path: "notes.txt" }), await tools.clock.now()]`
	fmt.Println(string(rt.Execute(context.Background(), code, codemode.WithTools(filesOf("ann"))).Value))
	fmt.Println(string(rt.Execute(context.Background(), code, codemode.WithTools(filesOf("bob"))).Value))
	fmt.Println(rt.Execute(context.Background(), code).Error.Kind)
	// Output:
	// ["contents of ann/notes.txt","2026-12-02T10:00:00Z"]
	// ["contents of bob/notes.txt","2026-12-02T10:00:00Z"]
	// UnknownTool
}

func ExampleRuntime_typedTool() {
	type Query struct {
		City string `json:"city" jsonschema:"description=City name"`
		Days int    `json:"days,omitempty" jsonschema:"minimum=1,maximum=7"`
	}
	type Forecast struct {
		City  string    `json:"city"`
		Highs []float64 `json:"highs"`
	}
	forecast := tools.Func("Daily high temperatures, in Celsius", func(ctx context.Context, q Query) (Forecast, error) {
		days := max(q.Days, 1)
		highs := make([]float64, days)
		for i := range highs {
			highs[i] = 20 + float64(i)
		}
		return Forecast{City: q.City, Highs: highs}, nil
	})
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"weather.forecast": forecast}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rt.Execute(context.Background(), `const f = await tools.weather.forecast({ city: "Oslo", days: 3 }); return Math.max(...f.highs)`))
	fmt.Println(rt.Execute(context.Background(), `return await tools.weather.forecast({ city: "Oslo", days: 30 })`).Error.Kind)
	// Output:
	// {"ok":true,"value":22,"toolCalls":[{"name":"weather.forecast"}]}
	// InvalidToolInput
}

// Hooks see every tool call: the before-hook can deny one (here, writes
// need approval), and the after-hook gets exactly one outcome per call.
func ExampleHooks() {
	noop := &tools.Tool{Func: func(context.Context, json.RawMessage) (any, error) { return nil, nil }}
	rt, err := codemode.New(codemode.Options{
		Tools: map[string]any{"crm.getCustomer": noop, "crm.deleteCustomer": noop},
		Hooks: codemode.Hooks{
			ToolBefore: func(ctx context.Context, call codemode.ToolCallInfo) error {
				if strings.Contains(call.Name, "delete") {
					return fmt.Errorf("%s needs a human's approval", call.Name)
				}
				return nil
			},
			ToolAfter: func(ctx context.Context, call codemode.ToolCallInfo, out codemode.CallOutcome) {
				fmt.Println("after", call.Seq, call.Name, out.Status)
			},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	res := rt.Execute(context.Background(), `await tools.crm.getCustomer({ id: 1 }); await tools.crm.deleteCustomer({ id: 1 })`)
	fmt.Println(res.Error.Message)
	// Output:
	// after 1 crm.getCustomer success
	// crm.deleteCustomer needs a human's approval
}

// Instructions is the text for the description of the host's "execute
// code" tool: how to write a program, call tools and search, the limits,
// and the tools' signatures, within a character budget.
func ExampleRuntime_Instructions() {
	lookup := &tools.Tool{
		Description: "Find a customer by email",
		Input:       json.RawMessage(`{"type":"object","properties":{"email":{"type":"string"}},"required":["email"]}`),
		Output:      json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}}}`),
		Func: func(context.Context, json.RawMessage) (any, error) {
			return map[string]any{"id": 1, "name": "Ada"}, nil
		},
	}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"crm.findCustomer": lookup}, Limits: codemode.DefaultLimits()})
	if err != nil {
		fmt.Println(err)
		return
	}
	text := rt.Instructions(4000)
	fmt.Println(len(text) <= 4000, strings.Contains(text, "tools.crm.findCustomer("), strings.Contains(text, "search("))
	// Output: true true true
}

// Scan lists the tool calls a program makes without running it, so a host
// can show them or ask for approval first; unknown paths get a suggestion.
func ExampleRuntime_Scan() {
	noop := &tools.Tool{Func: func(context.Context, json.RawMessage) (any, error) { return nil, nil }}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"crm.getCustomer": noop, "crm.updateCustomer": noop}})
	if err != nil {
		fmt.Println(err)
		return
	}
	scan, err := rt.Scan(`const crm = tools.crm;
const c = await crm.getCustomer({ id: 1 });
await tools.crm.updateCustomers({ id: c.id, tier: "gold" });`)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ref := range scan.Tools {
		fmt.Printf("%d:%d %s known=%v", ref.Location.Line, ref.Location.Column, ref.Expression, ref.Known)
		if ref.Suggestion != "" {
			fmt.Print(" (did you mean ", ref.Suggestion, "?)")
		}
		fmt.Println()
	}
	// Output:
	// 2:17 tools.crm.getCustomer known=true
	// 3:7 tools.crm.updateCustomers known=false (did you mean tools.crm.updateCustomer?)
}

// The agent loop in brief: the model's execute_code calls run as
// programs, and each Result's JSON goes back as the tool result. Here the
// "model" is two canned replies; examples/agent has the whole loop.
func Example_agentLoop() {
	customers := &tools.Tool{
		Description: "List the customers",
		Output:      json.RawMessage(`{"type":"array","items":{"type":"object"}}`),
		Func: func(context.Context, json.RawMessage) (any, error) {
			return []any{map[string]any{"name": "Ada", "tier": "gold"}, map[string]any{"name": "Bo", "tier": "silver"}}, nil
		},
	}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"crm.listCustomers": customers}, Limits: codemode.DefaultLimits()})
	if err != nil {
		fmt.Println(err)
		return
	}
	executeCode := map[string]any{
		"name":         "execute_code",
		"description":  rt.Instructions(4000), // how to write programs, the tools, the limits
		"input_schema": map[string]any{"type": "object", "properties": map[string]any{"code": map[string]any{"type": "string"}}},
	}
	_ = executeCode // sent to the model with every request
	replies := []string{
		`return (await tools.crm.customers()).length`, // a wrong name: the diagnostic suggests the right one
		`const all = await tools.crm.listCustomers(); return all.filter((c) => c.tier === "gold").map((c) => c.name)`,
	}
	for _, code := range replies { // each reply of the model that calls execute_code
		res := rt.Execute(context.Background(), code)
		fmt.Println(res) // the tool result the model reads next
	}
	// Output:
	// {"ok":false,"error":{"kind":"UnknownTool","message":"Unknown tool 'crm.customers'. Did you mean tools.crm.listCustomers?","suggestions":["Use search to find available tools."]},"toolCalls":[]}
	// {"ok":true,"value":["Ada"],"toolCalls":[{"name":"crm.listCustomers"}]}
}
