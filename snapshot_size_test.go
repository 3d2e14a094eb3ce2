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

// TestStateSize pins the size of a saved state: a fixed overhead (the
// envelope, the program's source, the run's own state) and a linear cost
// per record the program holds. A change that makes states larger fails
// here; one that makes them smaller should lower the pins.
func TestStateSize(t *testing.T) {
	const (
		maxOverhead  = 1250 // bytes at 0 records: the source (1,442 bytes, 618 deflated), the envelope, the run
		maxPerRecord = 15   // bytes per record (a tool's record and the line made from it), deflated
		maxFixture   = 2048 // the fixture's own size, at 50 records
	)
	size := map[int]int{}
	for _, n := range []int{0, 50, 100, 200, 300} {
		s := restockState(t, n)
		size[n] = len(s)
		info, err := codemode.InspectState(s)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%3d records: %5d bytes %v", n, len(s), info.Sizes)
	}
	if size[0] > maxOverhead {
		t.Errorf("the fixed overhead is %d bytes, over %d", size[0], maxOverhead)
	}
	if size[50] > maxFixture {
		t.Errorf("the fixture's state is %d bytes, over %d", size[50], maxFixture)
	}
	per := float64(size[300]-size[0]) / 300
	if per > maxPerRecord {
		t.Errorf("a record costs %.1f bytes, over %d", per, maxPerRecord)
	}
	// Linear: each hundred records past the first costs what the one
	// before did (the first is cheaper to deflate: it teaches deflate
	// the records' codes).
	second, third := size[200]-size[100], size[300]-size[200]
	if d := float64(third-second) / float64(second); d > 0.1 || d < -0.1 {
		t.Errorf("not linear: the second 100 records cost %d bytes, the third %d", second, third)
	}
}
