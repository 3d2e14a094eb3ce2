package codemode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
