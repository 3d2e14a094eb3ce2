package tools

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
)

// The search ranker of the reference (section 3.9): the in-program
// search() uses it, and so does the "Did you mean" of an unknown tool.

// Scored is a tool with its score for a query.
type Scored struct {
	Node  *Node
	Score int
}

var camelRE = regexp.MustCompile(`([a-z0-9])([A-Z])`)
var nonWordRE = regexp.MustCompile(`[^a-z0-9]+`)

// Tokenize splits text into the ranker's lowercase terms: camelCase and
// any non-alphanumeric run separate words; "*" is dropped.
func Tokenize(text string) []string {
	text = strings.ToLower(camelRE.ReplaceAllString(text, "$1 $2"))
	var out []string
	for _, w := range nonWordRE.Split(text, -1) {
		if w != "" && w != "*" {
			out = append(out, w)
		}
	}
	return out
}

// forms are a term and its naive singulars.
func forms(t string) []string {
	f := []string{t}
	if strings.HasSuffix(t, "es") && len(t) > 3 {
		f = append(f, t[:len(t)-2])
	}
	if strings.HasSuffix(t, "s") && len(t) > 2 {
		f = append(f, t[:len(t)-1])
	}
	return f
}

// Rank scores the tools under scope ("" for all; a namespace path keeps
// that path and what is below it) for query, best first, ties by path.
// With no terms every tool in scope is returned with score 0.
func (t *Tree) Rank(query, scope string) []Scored {
	terms := Tokenize(query)
	var out []Scored
	for _, n := range t.tools {
		if scope != "" && n.Path != scope && !strings.HasPrefix(n.Path, scope+".") {
			continue
		}
		s := score(n, terms)
		if s > 0 || len(terms) == 0 {
			out = append(out, Scored{n, s})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Node.Path < out[j].Node.Path
	})
	return out
}

func score(n *Node, terms []string) int {
	path := strings.ToLower(n.Path)
	words := map[string]bool{}
	for _, w := range Tokenize(n.Path) {
		words[w] = true
	}
	desc := strings.ToLower(n.Tool.Description)
	text := searchText(n)
	total := 0
	for _, term := range terms {
		fs := forms(term)
		any := func(pred func(f string) bool) bool {
			for _, f := range fs {
				if pred(f) {
					return true
				}
			}
			return false
		}
		if any(func(f string) bool { return f == path || strings.HasSuffix(path, "."+f) }) {
			total += 20
		}
		if any(func(f string) bool { return words[f] }) {
			total += 12
		}
		if any(func(f string) bool { return strings.Contains(path, f) }) {
			total += 8
		}
		if any(func(f string) bool { return strings.Contains(desc, f) }) {
			total += 4
		}
		if any(func(f string) bool { return strings.Contains(text, f) }) {
			total += 2
		}
	}
	return total
}

// searchText is what a term may match last: the path, the description,
// the enclosing namespaces' descriptions and the input's property names
// and descriptions.
func searchText(n *Node) string {
	parts := []string{n.Path, n.Tool.Description}
	for p := n.parent; p != nil; p = p.parent {
		if p.Description != "" {
			parts = append(parts, p.Description)
		}
	}
	var schema struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	if len(n.Tool.Input) > 0 && json.Unmarshal(n.Tool.Input, &schema) == nil {
		names := make([]string, 0, len(schema.Properties))
		for k := range schema.Properties {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			parts = append(parts, k)
			if d := schema.Properties[k].Description; d != "" {
				parts = append(parts, d)
			}
		}
	}
	return strings.ToLower(strings.Join(parts, " "))
}

// Closest suggests the tool a program probably meant by an unknown path:
// the best-ranked tool for the path's words, within the same top-level
// namespace when that namespace exists. ok is false when nothing scores.
func (t *Tree) Closest(segs []string) (*Node, bool) {
	scope := ""
	if len(segs) > 1 && t.root.children[segs[0]] != nil {
		scope = segs[0]
	}
	query := strings.Join(segs, ".")
	terms := Tokenize(query)
	// A suggestion needs a whole word of its path in common with the
	// unknown one: letters that merely occur somewhere are no resemblance.
	for _, s := range t.Rank(query, scope) {
		words := map[string]bool{}
		for _, w := range Tokenize(s.Node.Path) {
			words[w] = true
		}
		for _, term := range terms {
			for _, f := range forms(term) {
				if words[f] {
					return s.Node, true
				}
			}
		}
	}
	return nil, false
}
