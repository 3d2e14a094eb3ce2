// Package conformance runs the test262 selection of ../shared/conformance
// in-process: it loads the manifest, assembles each test's program and
// judges its Result exactly as the selection's run.py does, prints the
// per-area table, and keeps the expectations file, the checked-in list of
// tests an engine is known to fail, each with its reason.
package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Test is one line of manifest.jsonl.
type Test struct {
	Path     string    `json:"path"` // under test/
	Area     string    `json:"area"`
	Category string    `json:"category"` // positive, negative-parse or negative-runtime
	Includes []string  `json:"includes"`
	Async    bool      `json:"async"`
	Negative *Negative `json:"negative"`
}

// Negative is what a negative test expects.
type Negative struct {
	Phase string `json:"phase"` // parse or runtime
	Type  string `json:"type"`  // the error constructor's name
}

// expectedType is the error constructor a negative test expects.
func (t Test) expectedType() string {
	if t.Negative == nil {
		return ""
	}
	return t.Negative.Type
}

// Suite is a loaded selection: its folder, its tests in manifest order,
// and the prelude and includes every program starts with.
type Suite struct {
	Dir      string
	Tests    []Test
	prelude  string
	includes map[string]string
}

// Load reads the selection in dir (the folder holding manifest.jsonl,
// prelude.js, includes/ and test/).
func Load(dir string) (*Suite, error) {
	s := &Suite{Dir: dir, includes: map[string]string{}}
	manifest, err := os.ReadFile(filepath.Join(dir, "manifest.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("conformance: %w (is %s the test262 selection folder?)", err, dir)
	}
	sc := bufio.NewScanner(bytes.NewReader(manifest))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var t Test
		if err := json.Unmarshal(line, &t); err != nil {
			return nil, fmt.Errorf("conformance: manifest.jsonl line %d: %v", n, err)
		}
		if t.Path == "" || t.Area == "" {
			return nil, fmt.Errorf("conformance: manifest.jsonl line %d: a test needs a path and an area", n)
		}
		s.Tests = append(s.Tests, t)
	}
	prelude, err := os.ReadFile(filepath.Join(dir, "prelude.js"))
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	s.prelude = string(prelude)
	for _, t := range s.Tests {
		for _, inc := range t.Includes {
			if _, ok := s.includes[inc]; ok {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, "includes", inc))
			if err != nil {
				return nil, fmt.Errorf("conformance: %s: %w", t.Path, err)
			}
			s.includes[inc] = string(b)
		}
	}
	return s, nil
}

// Source is the test file's text.
func (s *Suite) Source(t Test) (string, error) {
	b, err := os.ReadFile(filepath.Join(s.Dir, "test", filepath.FromSlash(t.Path)))
	return string(b), err
}

// Program assembles the test's program byte for byte as run.py does: the
// body of an async function made of the prelude, the includes, the test,
// the wait for $DONE when the test is async, and `return "PASS"`.
func (s *Suite) Program(t Test) (string, error) {
	src, err := s.Source(t)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(s.prelude, "\n") + "\n")
	for _, inc := range t.Includes {
		b.WriteString("// ---- include " + inc + "\n")
		b.WriteString(strings.TrimRight(s.includes[inc], "\n") + "\n")
	}
	b.WriteString("// ---- test262: " + t.Path + "\n")
	b.WriteString(src)
	if !strings.HasSuffix(src, "\n") {
		b.WriteString("\n")
	}
	b.WriteString("// ---- end of test\n;\n")
	if t.Async {
		b.WriteString("await __t262_asyncDone();\n")
	}
	b.WriteString("return \"PASS\";\n")
	return b.String(), nil
}
