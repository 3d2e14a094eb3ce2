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
