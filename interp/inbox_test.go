package interp_test

import (
	"context"
	"sync"
	"testing"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/builtin"
	"github.com/go-codemode/codemode/interp"
	"github.com/go-codemode/codemode/value"
)

func newTestRun(t *testing.T) *interp.Run {
	prog, err := ast.Parse("1")
	if err != nil {
		t.Fatal(err)
	}
	code, err := interp.Compile(prog)
	if err != nil {
		t.Fatal(err)
	}
	return interp.NewRun(context.Background(), code, interp.Options{Library: builtin.New()})
}

// TestPostNeverBlocks: host outcomes posted while the run is busy queue
// without bound (Post returns at once), and the run applies them all, in
// the order they were posted. Posting on the run's own goroutine would
// hang here if the inbox were bounded.
func TestPostNeverBlocks(t *testing.T) {
	run := newTestRun(t)
	defer run.Close()
	const n = 1000
	var got []int
	for i := range n {
		run.Begin()
		run.Post(func(*value.Realm) { got = append(got, i) })
	}
	if fail := run.Drain(); fail != nil {
		t.Fatal(fail)
	}
	if len(got) != n {
		t.Fatalf("applied %d outcomes, want %d", len(got), n)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("outcome %d applied at position %d: outcomes must apply in the order posted", v, i)
		}
	}
}

// TestPostFromManyGoroutines: outcomes posted concurrently all arrive,
// each once, through Settle's waiting as well as Drain.
func TestPostFromManyGoroutines(t *testing.T) {
	run := newTestRun(t)
	defer run.Close()
	const n = 500
	r := run.Realm()
	p := r.NewPromise()
	count := 0
	for range n {
		run.Begin()
	}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			run.Post(func(r *value.Realm) {
				count++
				if count == n {
					r.ResolvePromise(p, value.Number(n))
				}
			})
		})
	}
	if fail := run.Settle(p); fail != nil {
		t.Fatal(fail)
	}
	wg.Wait()
	if fail := run.Drain(); fail != nil {
		t.Fatal(fail)
	}
	if count != n {
		t.Errorf("applied %d outcomes, want %d", count, n)
	}
}

// TestPostAfterClose: an outcome posted after Close is dropped, and Post
// still returns at once.
func TestPostAfterClose(t *testing.T) {
	run := newTestRun(t)
	run.Begin()
	run.Close()
	applied := false
	run.Post(func(*value.Realm) { applied = true })
	if fail := run.Drain(); fail != nil {
		t.Fatal(fail)
	}
	if applied {
		t.Error("an outcome posted after Close was applied")
	}
}
