package catalog

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.ts from the current output")

// goldenCase is one testdata/golden/NAME.json file; NAME.ts holds the
// expected text (plus a final newline).
type goldenCase struct {
	// Kind is "pretty" (Render), "compact" (Compact), "signature"
	// (SignatureWithOptions) or "search" (SearchSignature).
	Kind    string          `json:"kind"`
	Schema  json.RawMessage `json:"schema"`
	Path    []string        `json:"path"`
	Input   json.RawMessage `json:"input"`
	Output  json.RawMessage `json:"output"`
	Options Options         `json:"options"`
}

func (c goldenCase) render(t *testing.T) string {
	switch c.Kind {
	case "pretty":
		return Render(c.Schema, c.Options)
	case "compact":
		return Compact(c.Schema, c.Options)
	case "signature":
		return SignatureWithOptions(c.Path, c.Input, c.Output, c.Options)
	case "search":
		return SearchSignature()
	}
	t.Fatalf("unknown kind %q", c.Kind)
	return ""
}

// TestGolden checks every verbatim rendered example of the reference
// (section 3.10 and its signature tests) and our own budget examples.
// Run with -update to rewrite the .ts files from the current output.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var c goldenCase
			if err := json.Unmarshal(data, &c); err != nil {
				t.Fatal(err)
			}
			got := c.render(t) + "\n"
			want := strings.TrimSuffix(file, ".json") + ".ts"
			if *update {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			exp, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(exp) {
				t.Errorf("%s:\n--- got\n%s--- want\n%s", name, got, exp)
			}
		})
	}
}

// TestReferenceCorpus replays schemas rendered by the reference itself
// (see testdata/reference/README.md).
func TestReferenceCorpus(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "reference", "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for i, line := range lines {
		var c struct{ Schema, Pretty, Compact string }
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if got := Render(json.RawMessage(c.Schema), Options{}); got != c.Pretty {
			t.Errorf("line %d pretty: %s\n--- got\n%s\n--- want\n%s", i+1, c.Schema, got, c.Pretty)
		}
		if got := Compact(json.RawMessage(c.Schema), Options{}); got != c.Compact {
			t.Errorf("line %d compact: %s\n--- got\n%s\n--- want\n%s", i+1, c.Schema, got, c.Compact)
		}
	}
	if len(lines) < 100 {
		t.Errorf("only %d cases", len(lines))
	}
}
