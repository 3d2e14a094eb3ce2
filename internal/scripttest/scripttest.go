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
		cases = append(cases, &Case{File: file, Name: name, Line: s.line, Program: string(s.body), Expected: want})
		i++
	}
	return cases, nil
}

// sectionHeader recognizes "-- NAME --".
func sectionHeader(line []byte) (string, bool) {
	if !bytes.HasPrefix(line, []byte("-- ")) || !bytes.HasSuffix(line, []byte(" --")) || len(line) < 7 {
		return "", false
	}
	name := strings.TrimSpace(string(line[3 : len(line)-3]))
	return name, name != ""
}
