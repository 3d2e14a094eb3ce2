package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// inventoryRuntime serves testdata/snapshot/restock.js: n low-stock
// records, five suppliers and their prices; every order is held for
// approval.
func inventoryRuntime(t testing.TB, n int, hold bool) *codemode.Runtime {
	t.Helper()
	obj := json.RawMessage(`{"type":"object"}`)
	tool := func(f func(json.RawMessage) any) *tools.Tool {
		return &tools.Tool{Description: "inventory", Output: obj,
			Func: func(_ context.Context, in json.RawMessage) (any, error) { return f(in), nil }}
	}
	low := make([]any, n)
	prices := map[string]any{}
	for i := range low {
		low[i] = map[string]any{"id": i + 1, "qty": i % 10, "supplier": i%5 + 1}
		prices[fmt.Sprint(i+1)] = 3 + i%7
	}
	suppliers := make([]any, 5)
	for i := range suppliers {
		suppliers[i] = map[string]any{"id": i + 1, "name": fmt.Sprintf("Supplier %d", i+1)}
	}
	rt, err := codemode.New(codemode.Options{
		Tools: map[string]any{"inventory": map[string]any{
			"lowStock":  tool(func(json.RawMessage) any { return low }),
			"suppliers": tool(func(json.RawMessage) any { return suppliers }),
			"prices":    tool(func(json.RawMessage) any { return prices }),
			"order":     tool(func(json.RawMessage) any { return map[string]any{"id": "PO-1"} }),
		}},
		Hooks: codemode.Hooks{ToolBefore: func(_ context.Context, info codemode.ToolCallInfo) error {
			if hold && info.Name == "inventory.order" {
				return codemode.ErrSuspend
			}
			return nil
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

func restockState(t testing.TB, n int) []byte {
	src, err := os.ReadFile("testdata/snapshot/restock.js")
	if err != nil {
		t.Fatal(err)
	}
	out, err := inventoryRuntime(t, n, true).Program(string(src)).Run(context.Background())
	if err != nil || !out.IsSuspended() {
		t.Fatalf("the fixture did not suspend: %v %s", err, out.Result)
	}
	return out.Suspended.State
}

func TestStateSize(t *testing.T) {
	for _, n := range []int{0, 50, 100, 200} {
		s := restockState(t, n)
		info, _ := codemode.InspectState(s)
		t.Logf("%d records: %d bytes %v", n, len(s), info.Sizes)
	}
}
