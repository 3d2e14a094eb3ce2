package hostile_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// hcase is one hostile program and what it must give.
type hcase struct {
	File    string // the corpus file, relative to the test's directory
	Class   string // the file's base name without .txtar
	Name    string
	Line    int
	Program string
	Spec    spec
}

// ID names the case as known-failures.txt and -run do: "class/name".
func (c *hcase) ID() string { return c.Class + "/" + c.Name }

// spec is a case's NAME.json section.
type spec struct {
	Limits struct {
		TimeoutMs      int   `json:"timeoutMs"`
		MaxMemoryBytes int64 `json:"maxMemoryBytes"`
		MaxOutputBytes *int  `json:"maxOutputBytes"`
		MaxToolCalls   *int  `json:"maxToolCalls"`
	} `json:"limits"`
	// Tools are the runner's tools the program may call (see toolSet).
	Tools []string `json:"tools"`
	// Expect lists the acceptable outcomes: "ok" or a diagnostic kind.
	Expect []string `json:"expect"`
	// Message must be part of the error message when the run fails.
	Message string `json:"message"`
	// Value is the exact value when the run succeeds.
	Value json.RawMessage `json:"value"`
	// Truncated is the Result's truncated flag when the run succeeds.
	Truncated *bool `json:"truncated"`
	// ToolCalls is the exact toolCalls list.
	ToolCalls *[]string `json:"toolCalls"`
	// PastMs bounds Execute's wall time past the timeout (default 400).
	PastMs int `json:"pastMs"`
	// MaxGoMiB bounds the child's Go memory (default twice the budget
	// plus 64 MiB; 512 MiB without a budget).
	MaxGoMiB int `json:"maxGoMiB"`
	// Heavy cases are skipped with -short.
	Heavy bool `json:"heavy"`
	// Expand replaces each Marker in the program with its Text repeated
	// Count times, for programs too big to check in.
	Expand []struct {
		Marker string `json:"marker"`
		Text   string `json:"text"`
		Count  int    `json:"count"`
	} `json:"expand"`
	// LingerMs is how long the child watches for tool starts and hook
	// calls after Execute returned (default 300 when the case has tools).
	LingerMs int `json:"lingerMs"`
}

// loadCorpus reads every *.txtar file of dir.
func loadCorpus(dir string) ([]*hcase, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	var all []*hcase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		cases, err := parseFile(f, data)
		if err != nil {
			return nil, err
		}
		all = append(all, cases...)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no cases in %s", dir)
	}
	return all, nil
}

// findCase loads the one case a child runs ("file#name").
func findCase(ref string) (*hcase, error) {
	file, name, ok := strings.Cut(ref, "#")
	if !ok {
		return nil, fmt.Errorf("bad case reference %q", ref)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	cases, err := parseFile(file, data)
	if err != nil {
		return nil, err
	}
	for _, c := range cases {
		if c.Name == name {
			return c, nil
		}
	}
	return nil, fmt.Errorf("%s has no case %q", file, name)
}

type section struct {
	name string
	line int
	body []byte
}

// parseFile reads the script-suite format: a comment, then pairs of
// "-- NAME.js --" (the program) and "-- NAME.json --" (its spec).
func parseFile(file string, data []byte) ([]*hcase, error) {
	var sections []*section
	for i, line := range bytes.SplitAfter(data, []byte("\n")) {
		trimmed := bytes.TrimRight(line, "\r\n")
		if bytes.HasPrefix(trimmed, []byte("-- ")) && bytes.HasSuffix(trimmed, []byte(" --")) && len(trimmed) > 6 {
			sections = append(sections, &section{name: strings.TrimSpace(string(trimmed[3 : len(trimmed)-3])), line: i + 1})
			continue
		}
		if len(sections) > 0 {
			s := sections[len(sections)-1]
			s.body = append(s.body, line...)
		}
	}
	if len(sections)%2 != 0 {
		return nil, fmt.Errorf("%s: sections must come in NAME.js, NAME.json pairs", file)
	}
	class := strings.TrimSuffix(filepath.Base(file), ".txtar")
	seen := map[string]bool{}
	var cases []*hcase
	for i := 0; i < len(sections); i += 2 {
		js, sp := sections[i], sections[i+1]
		name, ok := strings.CutSuffix(js.name, ".js")
		if !ok || sp.name != name+".json" {
			return nil, fmt.Errorf("%s:%d: want NAME.js then NAME.json, got %q and %q", file, js.line, js.name, sp.name)
		}
		if seen[name] {
			return nil, fmt.Errorf("%s:%d: case %q appears twice", file, js.line, name)
		}
		seen[name] = true
		c := &hcase{File: file, Class: class, Name: name, Line: js.line, Program: string(js.body)}
		dec := json.NewDecoder(bytes.NewReader(sp.body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c.Spec); err != nil {
			return nil, fmt.Errorf("%s:%d: %s.json: %v", file, sp.line, name, err)
		}
		if err := c.validate(); err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %v", file, js.line, name, err)
		}
		for _, e := range c.Spec.Expand {
			c.Program = strings.Replace(c.Program, e.Marker, strings.Repeat(e.Text, e.Count), 1)
		}
		cases = append(cases, c)
	}
	return cases, nil
}

func (c *hcase) validate() error {
	s := c.Spec
	if s.Limits.TimeoutMs <= 0 {
		return fmt.Errorf("every case needs limits.timeoutMs, so that a failure ends")
	}
	if len(s.Expect) == 0 {
		return fmt.Errorf("expect lists no outcome")
	}
	for _, name := range s.Tools {
		if _, ok := toolSet[name]; !ok {
			return fmt.Errorf("unknown runner tool %q", name)
		}
	}
	for _, e := range s.Expand {
		if e.Marker == "" || !strings.Contains(c.Program, e.Marker) || e.Count <= 0 {
			return fmt.Errorf("expand: each marker must appear in the program and its count be positive")
		}
	}
	return nil
}
