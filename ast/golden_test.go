package ast

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// TestGolden parses each program under testdata/golden and compares the
// tree (with positions and resolved storage), the free names and the
// printed source with NAME.golden. Run with -update to rewrite them.
func TestGolden(t *testing.T) {
	inputs, _ := filepath.Glob("testdata/golden/*.js")
	md, _ := filepath.Glob("testdata/golden/*.md")
	inputs = append(inputs, md...)
	if len(inputs) == 0 {
		t.Fatal("no golden inputs")
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			text, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := Parse(string(text))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			var b strings.Builder
			b.WriteString("globals: " + strings.Join(prog.Globals, " ") + "\n\n")
			b.WriteString(Dump(prog.Func, prog.Source))
			b.WriteString("\n\n--- printed ---\n")
			b.WriteString(Print(prog))
			b.WriteString("\n")
			got := b.String()
			golden := strings.TrimSuffix(in, filepath.Ext(in)) + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./ast -run TestGolden -update)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (run with -update and review the diff):\n%s", golden, got)
			}
		})
	}
}
