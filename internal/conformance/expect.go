package conformance

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Expectations is an expectations file: the tests an engine is known to
// fail, in groups that share a reason.
//
// The file is text. Lines before the first group are its header (blank
// or starting with "#"). A group is one or more "## reason" lines, then
// the test paths that fail for that reason, one a line. After a path,
// "# text" is a note: the first line of the test's error when the file
// was last regenerated (Update rewrites it).
type Expectations struct {
	Header []string
	Groups []*Group
}

// Group is a reason and the tests that fail for it.
type Group struct {
	Reason  []string // the "## " lines, without the "## "
	Entries []Entry
}

// Entry is one expected failure.
type Entry struct {
	Path string
	Note string
}

// ReasonText is the reason on one line.
func (g *Group) ReasonText() string { return strings.Join(g.Reason, " ") }

// ParseExpectations reads an expectations file; name is for errors.
func ParseExpectations(r io.Reader, name string) (*Expectations, error) {
	e := &Expectations{}
	seen := map[string]int{}
	var g *Group
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "##" || strings.HasPrefix(line, "## "):
			if g == nil || len(g.Entries) > 0 {
				g = &Group{}
				e.Groups = append(e.Groups, g)
			}
			g.Reason = append(g.Reason, strings.TrimSpace(strings.TrimPrefix(line, "##")))
		case g == nil && (line == "" || strings.HasPrefix(line, "#")):
			e.Header = append(e.Header, line)
		case line == "":
		case strings.HasPrefix(line, "#"):
			return nil, fmt.Errorf("%s:%d: a comment inside the groups would be lost when the file is regenerated; write it as a \"## \" reason line of its group", name, n)
		case g == nil:
			return nil, fmt.Errorf("%s:%d: %s has no reason: put a \"## reason\" line above it", name, n, line)
		default:
			path, note, _ := strings.Cut(line, "#")
			path = strings.TrimSpace(path)
			if strings.ContainsAny(path, " \t") {
				return nil, fmt.Errorf("%s:%d: %q is not one test path; a note after the path starts with \"#\"", name, n, path)
			}
			if first, dup := seen[path]; dup {
				return nil, fmt.Errorf("%s:%d: %s is listed twice (first on line %d)", name, n, path, first)
			}
			seen[path] = n
			g.Entries = append(g.Entries, Entry{Path: path, Note: strings.TrimSpace(note)})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return e, nil
}

// Reasons maps each listed path to its group's reason.
func (e *Expectations) Reasons() map[string]string {
	m := map[string]string{}
	for _, g := range e.Groups {
		for _, en := range g.Entries {
			m[en.Path] = g.ReasonText()
		}
	}
	return m
}

// Check compares a run with the expectations: the tests that failed but
// are not listed, and the listed tests that passed.
func (e *Expectations) Check(outs []Outcome) (unexpected []Outcome, nowPassing []string) {
	listed := e.Reasons()
	for _, o := range outs {
		_, ok := listed[o.Test.Path]
		switch {
		case !o.Pass && !ok:
			unexpected = append(unexpected, o)
		case o.Pass && ok:
			nowPassing = append(nowPassing, o.Test.Path)
		}
	}
	return unexpected, nowPassing
}

// NotIn lists the listed paths that are not tests of the selection.
func (e *Expectations) NotIn(tests []Test) []string {
	in := map[string]bool{}
	for _, t := range tests {
		in[t.Path] = true
	}
	var out []string
	for _, g := range e.Groups {
		for _, en := range g.Entries {
			if !in[en.Path] {
				out = append(out, en.Path)
			}
		}
	}
	return out
}

// Update makes the expectations for a full run: every failing test,
// under its old group's reason when it was listed, else under the reason
// classify gives it (a group of that reason, new ones after the old).
// Groups left empty go; the header stays. Entries are sorted by path and
// each gets the first line of its error as its note.
func (e *Expectations) Update(outs []Outcome, classify func(Outcome) string) *Expectations {
	byReason := map[string]*Group{}
	var groups []*Group
	group := func(reason []string) *Group {
		key := strings.Join(reason, " ")
		if g := byReason[key]; g != nil {
			return g
		}
		g := &Group{Reason: reason}
		byReason[key] = g
		groups = append(groups, g)
		return g
	}
	old := map[string]*Group{}
	for _, g := range e.Groups {
		group(g.Reason) // keep the old order
		for _, en := range g.Entries {
			old[en.Path] = g
		}
	}
	oldGroups := len(groups)
	failing := make([]Outcome, 0, len(outs))
	for _, o := range outs {
		if !o.Pass {
			failing = append(failing, o)
		}
	}
	sort.Slice(failing, func(i, j int) bool { return failing[i].Test.Path < failing[j].Test.Path })
	for _, o := range failing {
		g := old[o.Test.Path]
		if g == nil {
			g = group([]string{classify(o)})
		} else {
			g = group(g.Reason)
		}
		g.Entries = append(g.Entries, Entry{Path: o.Test.Path, Note: firstLine(o.Detail)})
	}
	// New groups after the old ones: the known reasons, then the
	// untriaged by area.
	added := groups[oldGroups:]
	sort.SliceStable(added, func(i, j int) bool {
		ui, uj := strings.HasPrefix(added[i].ReasonText(), reasonUntriaged), strings.HasPrefix(added[j].ReasonText(), reasonUntriaged)
		if ui != uj {
			return uj
		}
		return added[i].ReasonText() < added[j].ReasonText()
	})
	next := &Expectations{Header: e.Header}
	for _, g := range groups {
		if len(g.Entries) > 0 {
			next.Groups = append(next.Groups, g)
		}
	}
	return next
}

// firstLine is the first line of an error, cut to a readable length.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	s = strings.TrimSpace(s)
	if t := truncate(s, 160); t != s {
		return t + "..."
	}
	return s
}

// WriteTo writes the file.
func (e *Expectations) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	header := e.Header
	for len(header) > 0 && header[len(header)-1] == "" {
		header = header[:len(header)-1]
	}
	for _, h := range header {
		b.WriteString(h + "\n")
	}
	for _, g := range e.Groups {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		for _, r := range g.Reason {
			b.WriteString(strings.TrimRight("## "+r, " ") + "\n")
		}
		for _, en := range g.Entries {
			b.WriteString(en.Path)
			if en.Note != "" {
				b.WriteString("  # " + en.Note)
			}
			b.WriteString("\n")
		}
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}
