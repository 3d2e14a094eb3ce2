package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// RestockProgram reads the typical suspended run of the issue
// (../testdata/snapshot/restock.js): a 42-line program that makes three
// tool calls, holds 50 records and waits for approval of a fourth.
func RestockProgram() (string, error) {
	for _, d := range []string{"../testdata/snapshot", "testdata/snapshot", "../../testdata/snapshot"} {
		if b, err := os.ReadFile(filepath.Join(d, "restock.js")); err == nil {
			return string(b), nil
		}
	}
	return "", fmt.Errorf("bench: testdata/snapshot/restock.js not found")
}

// InventoryRuntime serves RestockProgram with 50 records. With hold, the
// order waits for approval (codemode.ErrSuspend); without, it runs.
func InventoryRuntime(hold bool) (*codemode.Runtime, error) {
	obj := json.RawMessage(`{"type":"object"}`)
	tool := func(v any) *tools.Tool {
		return &tools.Tool{Description: "inventory", Output: obj,
			Func: func(context.Context, json.RawMessage) (any, error) { return v, nil }}
	}
	low := make([]any, 50)
	prices := map[string]any{}
	for i := range low {
		low[i] = map[string]any{"id": i + 1, "qty": i % 10, "supplier": i%5 + 1}
		prices[fmt.Sprint(i+1)] = 3 + i%7
	}
	suppliers := make([]any, 5)
	for i := range suppliers {
		suppliers[i] = map[string]any{"id": i + 1, "name": fmt.Sprintf("Supplier %d", i+1)}
	}
	return codemode.New(codemode.Options{
		Engine: codemode.EngineVM,
		Tools: map[string]any{"inventory": map[string]any{
			"lowStock": tool(low), "suppliers": tool(suppliers), "prices": tool(prices),
			"order": tool(map[string]any{"id": "PO-1"}),
		}},
		Hooks: codemode.Hooks{ToolBefore: func(_ context.Context, info codemode.ToolCallInfo) error {
			if hold && info.Name == "inventory.order" {
				return codemode.ErrSuspend
			}
			return nil
		}},
	})
}
