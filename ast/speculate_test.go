package ast

import "testing"

// The TypeScript readings that need speculation depend on the lexer's
// layout (see templateLevelsOffset): this fails when a new version of
// tdewolff/parse changes it.
func TestSpeculationAvailable(t *testing.T) {
	if speculationErr != nil {
		t.Fatal(speculationErr)
	}
}
