//go:build race

package builtin_test

// raceEnabled: the race detector makes a run several times slower, and
// one step of a bomb (a GC of a large heap, a regexp compile) with it.
const raceEnabled = true
