package ast

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCorpusParses parses every realistic code-mode program in
// testdata/corpus; each must parse and resolve without error.
func TestCorpusParses(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.js")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("corpus has %d programs, want at least 100", len(files))
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(string(text)); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
	}
}
