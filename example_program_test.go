package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// A ToolBefore hook holds a call for a person's decision: the run is
// saved to bytes, and resumed (here in a second Runtime, as another
// process would) once the call is approved.
func ExampleRuntime_Program() {
	refund := &tools.Tool{Description: "Refund an order", Output: json.RawMessage(`{"type":"object"}`),
		Func: func(_ context.Context, in json.RawMessage) (any, error) {
			var a struct{ Order int }
			_ = json.Unmarshal(in, &a)
			return map[string]any{"order": a.Order, "refunded": true}, nil
		}}
	opts := codemode.Options{
		Tools: map[string]any{"payments.refund": refund},
		Hooks: codemode.Hooks{ToolBefore: func(_ context.Context, call codemode.ToolCallInfo) error {
			if call.Name == "payments.refund" {
				return codemode.ErrSuspend // a person decides
			}
			return nil
		}},
	}
	rt, _ := codemode.New(opts)
	out, err := rt.Program(`const r = await tools.payments.refund({ order: 7 }); return r.refunded`).Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	p := out.Suspended.Pending[0]
	fmt.Println("waiting:", p.Key, p.Path, string(p.Input))

	later, _ := codemode.New(opts)
	res, err := later.Resume(out.Suspended.State, codemode.Approve(p.Key)).Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Result)
	// Output:
	// waiting: call-1 payments.refund {"order":7}
	// {"ok":true,"value":true,"toolCalls":[{"name":"payments.refund"}]}
}
