// Package scripttest loads the script conformance suite under
// testdata/scripts: programs with the exact Result each must produce. Both
// engines run the same suite through it, so a case is written once.
//
// A suite file is txtar: a comment, then sections "-- NAME --" with their
// contents. Cases are pairs of sections NAME.js (the program) and
// NAME.json (the expected Result, one line of JSON).
package scripttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Case is one program and the Result it must produce.
type Case struct {
	File     string          // the suite file, e.g. "array.txtar"
	Name     string          // the case name, unique within its file
	Line     int             // the line of the program's section header
	Program  string          // the program text
	Expected json.RawMessage // the expected Result
	// Tools, when the case declares them (a NAME.tools.json section), is
	// a JSON object from tool path to a ToolSpec.
	Tools map[string]ToolSpec
	// Limits, when declared (NAME.limits.json), are the run's limits.
	Limits *Limits
}

// ToolSpec declares a test tool: what it does when called.
type ToolSpec struct {
	Description string          `json:"description"`
	Output      json.RawMessage `json:"output,omitempty"` // its output JSON Schema; none: the program receives undefined
	Result      json.RawMessage `json:"result,omitempty"` // return this value
	Echo        bool            `json:"echo,omitempty"`   // return the input
	Error       string          `json:"error,omitempty"`  // fail with this message
	DelayMs     int             `json:"delayMs,omitempty"`
}

// Limits are a case's limits, named as the reference names them.
type Limits struct {
	TimeoutMs      int   `json:"timeoutMs,omitempty"`
	MaxToolCalls   *int  `json:"maxToolCalls,omitempty"`
	MaxOutputBytes *int  `json:"maxOutputBytes,omitempty"`
	MaxMemoryBytes int64 `json:"maxMemoryBytes,omitempty"`
}

// ID names the case for test output: "array/map_basic".
func (c *Case) ID() string { return strings.TrimSuffix(c.File, ".txtar") + "/" + c.Name }

// Load reads every *.txtar file in dir and returns its cases in file
// order. It fails on any malformed file: an unpaired section, a repeated
// name, or an expectation that is not a JSON object.
func Load(dir string) ([]*Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("scripttest: no .txtar files in %s", dir)
	}
	sort.Strings(files)
	var all []*Case
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		cases, err := Parse(filepath.Base(f), data)
		if err != nil {
			return nil, err
		}
		all = append(all, cases...)
	}
	return all, nil
}

type section struct {
	name string
	line int
	body []byte
}

// Parse splits one suite file into cases.
func Parse(file string, data []byte) ([]*Case, error) {
	var sections []*section
	lines := bytes.SplitAfter(data, []byte("\n"))
	for i, line := range lines {
		trimmed := bytes.TrimRight(line, "\r\n")
		if name, ok := sectionHeader(trimmed); ok {
			sections = append(sections, &section{name: name, line: i + 1})
			continue
		}
		if len(sections) > 0 {
			s := sections[len(sections)-1]
			s.body = append(s.body, line...)
		}
	}
	var cases []*Case
	seen := map[string]bool{}
	for i := 0; i < len(sections); i++ {
		s := sections[i]
		name, isProgram := strings.CutSuffix(s.name, ".js")
		if !isProgram {
			return nil, fmt.Errorf("%s:%d: section %q is not a NAME.js program", file, s.line, s.name)
		}
		if seen[name] {
			return nil, fmt.Errorf("%s:%d: case %q appears twice", file, s.line, name)
		}
		seen[name] = true
		c := &Case{File: file, Name: name, Line: s.line, Program: string(s.body)}
		// Optional declarations between the program and its Result.
		for i+1 < len(sections) {
			next := sections[i+1]
			switch next.name {
			case name + ".tools.json":
				if err := strictJSON(next.body, &c.Tools); err != nil {
					return nil, fmt.Errorf("%s:%d: %s.tools.json: %v", file, next.line, name, err)
				}
			case name + ".limits.json":
				c.Limits = &Limits{}
				if err := strictJSON(next.body, c.Limits); err != nil {
					return nil, fmt.Errorf("%s:%d: %s.limits.json: %v", file, next.line, name, err)
				}
			default:
				goto result
			}
			i++
		}
	result:
		if i+1 >= len(sections) || sections[i+1].name != name+".json" {
			return nil, fmt.Errorf("%s:%d: program %q has no %s.json section after it", file, s.line, name, name)
		}
		want := bytes.TrimSpace(sections[i+1].body)
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(want, &probe); err != nil {
			return nil, fmt.Errorf("%s:%d: %s.json is not a JSON object: %v", file, sections[i+1].line, name, err)
		}
		if _, ok := probe["ok"]; !ok {
			return nil, fmt.Errorf("%s:%d: %s.json has no \"ok\" key", file, sections[i+1].line, name)
		}
		c.Expected = want
		cases = append(cases, c)
		i++
	}
	return cases, nil
}

// strictJSON decodes data into v, refusing unknown fields.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// sectionHeader recognizes "-- NAME --".
func sectionHeader(line []byte) (string, bool) {
	if !bytes.HasPrefix(line, []byte("-- ")) || !bytes.HasSuffix(line, []byte(" --")) || len(line) < 7 {
		return "", false
	}
	name := strings.TrimSpace(string(line[3 : len(line)-3]))
	return name, name != ""
}
