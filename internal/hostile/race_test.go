//go:build race

package hostile_test

// raceEnabled: the children run with the race detector, which makes them
// several times slower and puts its shadow memory in their RSS.
const raceEnabled = true
