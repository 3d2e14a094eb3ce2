package value_test

import (
	"strings"
	"testing"

	"github.com/go-codemode/codemode/builtin"
	"github.com/go-codemode/codemode/internal/snapshot"
	"github.com/go-codemode/codemode/value"
)

// TestHostileProtoChains: a state whose prototype chains form a cycle
// is refused when read (a lookup would loop for ever), however long the
// cycle and wherever it starts.
func TestHostileProtoChains(t *testing.T) {
	lib := builtin.New()
	reg := snapshot.NewRegistry()
	value.SnapshotTypes(reg, lib)
	for _, n := range []int{1, 2, 3, 40} {
		objs := make([]*value.Object, n)
		for i := range objs {
			objs[i] = value.NewObject(nil)
		}
		for i := range objs {
			objs[i].Proto = objs[(i+1)%n]
		}
		// The cycle hangs off a chain that starts elsewhere, too.
		head := value.NewObject(objs[0])
		root := struct{ Head, First *value.Object }{head, objs[0]}
		data, err := snapshot.NewEncoder(reg).Encode(&root)
		if err != nil {
			t.Fatal(err)
		}
		var out struct{ Head, First *value.Object }
		err = snapshot.NewDecoder(reg, data).Decode(&out)
		if err == nil || !strings.Contains(err.Error(), "cycle") {
			t.Fatalf("a cycle of %d: %v", n, err)
		}
	}
}

// TestRestoredHeapIsRecounted: reading a state counts what its objects,
// arrays and strings cost at Charge's sizes, whatever count the state
// claims, and Recount ends a run whose restored heap is past its budget.
func TestRestoredHeapIsRecounted(t *testing.T) {
	lib := builtin.New()
	reg := snapshot.NewRegistry()
	value.SnapshotTypes(reg, lib)
	elems := make([]value.Value, 1000)
	for i := range elems {
		elems[i] = value.Str(value.NewString(strings.Repeat("x", 100) + string(rune('a'+i%26)) + strings.Repeat("y", i%7)))
	}
	root := struct{ A *value.Object }{value.NewArray(nil, elems)}
	data, err := snapshot.NewEncoder(reg).Encode(&root)
	if err != nil {
		t.Fatal(err)
	}
	var out struct{ A *value.Object }
	d := snapshot.NewDecoder(reg, data)
	if err := d.Decode(&out); err != nil {
		t.Fatal(err)
	}
	// 1,000 slots of 24 bytes and the strings' characters at least.
	got := value.RestoredBytes(d)
	if got < 1000*24+1000*(48+100) {
		t.Fatalf("the restored heap counts %d bytes", got)
	}
	r := value.NewRealm(value.NewLibrary(), nil)
	r.Budget = got - 1
	if intr := r.Recount(got); intr == nil || intr.Kind != "MemoryLimitExceeded" || r.Allocated() != got {
		t.Fatalf("past the budget: %v, count %d", intr, r.Allocated())
	}
	r = value.NewRealm(value.NewLibrary(), nil)
	r.Budget = 10 * got
	r.Charge(int(2 * got))
	if intr := r.Recount(got); intr != nil || r.Allocated() != 2*got {
		t.Fatalf("a larger saved count is kept: %v, count %d", intr, r.Allocated())
	}
}
