package numeric

import "github.com/go-codemode/codemode/internal/snapshot"

// SnapshotTypes registers the types of this package that a saved run's
// heap holds: a Date's time.
func SnapshotTypes(reg *snapshot.Registry) {
	snapshot.Register[*dateSlot](reg, "numeric.dateSlot")
}
