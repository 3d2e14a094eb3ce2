package builtin

import "github.com/go-codemode/codemode/internal/snapshot"

// SnapshotTypes registers the types of this package that a saved run's
// heap holds: the per-promise data of the Promise built-ins.
func SnapshotTypes(reg *snapshot.Registry) {
	snapshot.Register[*capHolder](reg, "builtin.capHolder")
	snapshot.Register[*combinator](reg, "builtin.combinator")
	snapshot.Register[*elementData](reg, "builtin.elementData")
}
