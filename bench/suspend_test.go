package bench

import (
	"context"
	"testing"

	"github.com/go-codemode/codemode"
)

// TestRestockSuspends checks the suspend table's fixture: the order is
// held, and the resumed run ends with the same value as the plain run.
func TestRestockSuspends(t *testing.T) {
	ctx := context.Background()
	src, err := RestockProgram()
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := InventoryRuntime(false)
	held, _ := InventoryRuntime(true)
	want := plain.Execute(ctx, src)
	out, err := held.Program(src).Run(ctx)
	if err != nil || !out.IsSuspended() || len(out.Suspended.Pending) != 1 || out.Suspended.Pending[0].Path != "inventory.order" {
		t.Fatalf("not held: %v %+v", err, out)
	}
	res, err := held.Resume(out.Suspended.State, codemode.Approve(out.Suspended.Pending[0].Key)).Run(ctx)
	if err != nil || string(res.Result.Value) != string(want.Value) || !want.OK {
		t.Fatalf("resumed %v %s, want %s", err, res.Result, want)
	}
}
