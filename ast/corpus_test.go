package ast

import (
	"os"
	"path/filepath"
	"testing"
)

func corpusFiles(t testing.TB) []string {
	files, err := filepath.Glob("testdata/corpus/*.js")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("corpus has %d programs, want at least 100", len(files))
	}
	return files
}

// TestCorpusRoundTrip parses every realistic code-mode program in
// testdata/corpus, prints it back, and parses the output again: the two
// trees must be the same (positions aside) and printing must be stable.
func TestCorpusRoundTrip(t *testing.T) {
	for _, f := range corpusFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := Parse(string(text))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			printed := Print(prog)
			again, err := Parse(printed)
			if err != nil {
				t.Fatalf("parse of printed source: %v\n%s", err, printed)
			}
			if got, want := Dump(again.Func, nil), Dump(prog.Func, nil); got != want {
				t.Fatalf("printed source parses to a different tree\nprinted:\n%s", printed)
			}
			if reprinted := Print(again); reprinted != printed {
				t.Fatalf("printing is not stable:\n%s\n---\n%s", printed, reprinted)
			}
			if len(prog.Globals) == 0 {
				t.Errorf("no free names found; a code-mode program uses at least one host global")
			}
		})
	}
}
