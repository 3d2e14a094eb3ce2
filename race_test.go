//go:build race

package codemode_test

// raceEnabled: the race detector makes the engine several times slower,
// so the long suites run a sample under it.
const raceEnabled = true
