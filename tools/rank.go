package tools

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
)

// The search ranker of the reference (section 3.9): the in-program
// search() uses it, and so does the "Did you mean" of an unknown tool.

// Scored is a tool with its score for a query.
type Scored struct {
	Node  *Node
	Score int
}

// Tokenize splits text into the ranker's lowercase terms: a lower-case
// letter or digit followed by an upper-case letter starts a new word
// (camelCase), and any run of characters that are not letters or digits
// separates words; "*" is dropped. For ASCII this is the reference's
// tokenizer; beyond it, letters and digits of every script count, and
// case is folded the Unicode way (so "Straße" and "STRASSE" meet).
func Tokenize(text string) []string {
	var out []string
	var word []rune
	flush := func() {
		if len(word) > 0 {
			out = append(out, fold(string(word)))
			word = word[:0]
		}
	}
	var prev rune
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) {
				flush()
			}
			word = append(word, r)
		default:
			flush()
		}
		prev = r
	}
	flush()
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
//
// Equal scores are ordered by tieBreak, then by path.
//
// The weights are the reference's, per term (with its singular forms):
// +20 the whole path or its last segment, +12 a word of the path, +8
// inside the path, +4 inside the description, +2 inside the search text.
// An index prepared once per tree answers each of them without visiting
// every tool: maps for whole paths, last segments and words, and one
// string of all search texts scanned once per form (a path and a
// description are part of the search text, so only tools whose text
// contains the form are looked at further).
func (t *Tree) Rank(query, scope string) []Scored {
	if t.over != nil {
		return t.over.rank(query, scope)
	}
	terms := Tokenize(query)
	idx := t.index()
	inScope := func(n *Node) bool {
		return scope == "" || n.Path == scope || strings.HasPrefix(n.Path, scope+".")
	}
	if len(terms) == 0 {
		out := make([]Scored, 0, len(t.tools))
		for _, n := range t.tools {
			if inScope(n) {
				out = append(out, Scored{Node: n})
			}
		}
		return out
	}
	scores := make([]int32, len(t.tools))
	marked := make([]uint32, len(t.tools)) // which term last scored a weight, per tool
	stamp := uint32(0)
	award := func(ids []int32, weight int32) {
		for _, id := range ids {
			if marked[id] != stamp {
				marked[id] = stamp
				scores[id] += weight
			}
		}
	}
	for _, term := range terms {
		fs := forms(term)
		// +20 and +12: each once per term, whichever form matched.
		stamp++
		for _, f := range fs {
			award(idx.byPath[f], 20)
			award(idx.byLast[f], 20)
		}
		stamp++
		for _, f := range fs {
			award(idx.byWord[f], 12)
		}
		// +8, +4, +2 for the tools whose search text holds a form.
		stamp++
		var hits []int32
		for _, f := range fs {
			for _, id := range idx.containing(f) {
				if marked[id] != stamp {
					marked[id] = stamp
					hits = append(hits, id)
				}
			}
		}
		for _, id := range hits {
			ix := &idx.tools[id]
			if anyForm(fs, func(f string) bool { return strings.Contains(ix.path, f) }) {
				scores[id] += 8
			}
			if anyForm(fs, func(f string) bool { return strings.Contains(ix.desc, f) }) {
				scores[id] += 4
			}
			scores[id] += 2
		}
	}
	// Beyond the reference: a query of several words that spells out an
	// input property ("low stock" for lowStock) points at the tool that
	// takes it, as strongly as a path containing a term (+8).
	if len(terms) > 1 {
		stamp++
		award(idx.byParam[strings.Join(terms, "")], 8)
	}
	var ids []int32
	for i, n := range t.tools {
		if scores[i] > 0 && inScope(n) {
			ids = append(ids, int32(i))
		}
	}
	// Tools are in path order already: a stable sort keeps it as the
	// last tie-break.
	slices.SortStableFunc(ids, func(a, b int32) int {
		if scores[a] != scores[b] {
			return int(scores[b] - scores[a])
		}
		return tieBreak(&idx.tools[a], &idx.tools[b])
	})
	out := make([]Scored, len(ids))
	for i, id := range ids {
		out[i] = Scored{t.tools[id], int(scores[id])}
	}
	return out
}

// tieBreak orders tools of equal score, where the reference falls back to
// the path alone: the shorter path first (the more general tool, not a
// longer namesake deeper down), then reads before writes (looking
// something up is what a model searching usually wants first, and it is
// harmless), leaving the path order to the stable sort.
func tieBreak(a, b *indexed) int {
	if a.pathLen != b.pathLen {
		return a.pathLen - b.pathLen
	}
	if a.read != b.read {
		if a.read {
			return -1
		}
		return 1
	}
	return 0
}

// readVerbs are the first words of a tool name that mark it as a read.
var readVerbs = map[string]bool{"get": true, "list": true, "search": true, "find": true}

// isRead reports whether a tool's last path segment starts with a read
// verb as a word of its own: getRepo, list_issues, search, but not
// listen or findings.
func isRead(path string) bool {
	last := path[strings.LastIndexByte(path, '.')+1:]
	words := Tokenize(last)
	return len(words) > 0 && readVerbs[words[0]]
}

// rankIndex is what ranking needs, prepared once per tree.
type rankIndex struct {
	tools  []indexed
	byPath map[string][]int32 // folded whole path
	byLast map[string][]int32 // folded last segment
	byWord map[string][]int32 // each word of the path
	// byParam: each input property name, folded, letters and digits only
	// ("lowStock", "low_stock" → "lowstock"), for queries that spell one
	// out in words.
	byParam map[string][]int32
	// The search texts as a vocabulary: a term (letters and digits only)
	// occurs in a text exactly when it occurs in one of the text's
	// alphanumeric runs, so substring search looks at distinct runs, found
	// through their trigrams, instead of every text.
	vocab     []string
	vocabTool [][]int32          // the tools whose text has each run
	trigrams  map[string][]int32 // trigram → runs that contain it
}

// indexed is one tool's folded texts.
type indexed struct {
	path, desc, text string
	pathLen          int  // characters in the path, for the tie-break
	read             bool // the name starts with a read verb (isRead)
}

// containing lists the tools whose search text contains f.
func (ix *rankIndex) containing(f string) []int32 {
	var runs []int32
	if len(f) >= 3 {
		// Candidates: the runs holding f's rarest trigram.
		var best []int32
		for i := 0; i+3 <= len(f); i++ {
			p, ok := ix.trigrams[f[i:i+3]]
			if !ok {
				return nil
			}
			if best == nil || len(p) < len(best) {
				best = p
			}
		}
		for _, w := range best {
			if strings.Contains(ix.vocab[w], f) {
				runs = append(runs, w)
			}
		}
	} else {
		for w, run := range ix.vocab {
			if strings.Contains(run, f) {
				runs = append(runs, int32(w))
			}
		}
	}
	var out []int32
	for _, w := range runs {
		out = append(out, ix.vocabTool[w]...)
	}
	return out // may repeat a tool; callers dedupe
}

// alnumRuns splits folded text into its runs of letters and digits.
func alnumRuns(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// index prepares every tool for ranking, once per tree.
func (t *Tree) index() *rankIndex {
	t.indexOnce.Do(func() {
		ix := &rankIndex{tools: make([]indexed, len(t.tools)), byPath: map[string][]int32{},
			byLast: map[string][]int32{}, byWord: map[string][]int32{}, byParam: map[string][]int32{}, trigrams: map[string][]int32{}}
		runID := map[string]int32{}
		for i, n := range t.tools {
			id := int32(i)
			it := indexed{path: fold(n.Path), desc: fold(n.Tool.Description), text: searchText(n),
				pathLen: utf8.RuneCountInString(n.Path), read: isRead(n.Path)}
			ix.tools[i] = it
			ix.byPath[it.path] = append(ix.byPath[it.path], id)
			if dot := strings.LastIndexByte(it.path, '.'); dot >= 0 {
				last := it.path[dot+1:]
				ix.byLast[last] = append(ix.byLast[last], id)
			}
			for _, name := range paramNames(n) {
				if k := strings.Join(alnumRuns(fold(name)), ""); k != "" {
					ix.byParam[k] = append(ix.byParam[k], id)
				}
			}
			seen := map[string]bool{}
			for _, w := range Tokenize(n.Path) {
				if !seen[w] {
					seen[w] = true
					ix.byWord[w] = append(ix.byWord[w], id)
				}
			}
			for _, run := range alnumRuns(it.text) {
				w, ok := runID[run]
				if !ok {
					w = int32(len(ix.vocab))
					runID[run] = w
					ix.vocab = append(ix.vocab, run)
					ix.vocabTool = append(ix.vocabTool, nil)
					grams := map[string]bool{}
					for j := 0; j+3 <= len(run); j++ {
						if g := run[j : j+3]; !grams[g] {
							grams[g] = true
							ix.trigrams[g] = append(ix.trigrams[g], w)
						}
					}
				}
				if tl := ix.vocabTool[w]; len(tl) == 0 || tl[len(tl)-1] != id {
					ix.vocabTool[w] = append(tl, id)
				}
			}
		}
		t.rank = ix
	})
	return t.rank
}

func anyForm(fs []string, pred func(string) bool) bool {
	for _, f := range fs {
		if pred(f) {
			return true
		}
	}
	return false
}

// fold folds case for matching: lower case for ASCII, Unicode case
// folding otherwise.
func fold(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return cases.Fold().String(s)
		}
	}
	return strings.ToLower(s)
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
	props := inputProperties(n)
	for _, k := range sortedKeys(props) {
		parts = append(parts, k)
		if d := props[k]; d != "" {
			parts = append(parts, d)
		}
	}
	return fold(strings.Join(parts, " "))
}

// inputProperties maps the input schema's property names to their
// descriptions.
func inputProperties(n *Node) map[string]string {
	var schema struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	if len(n.Tool.Input) == 0 || json.Unmarshal(n.Tool.Input, &schema) != nil {
		return nil
	}
	out := make(map[string]string, len(schema.Properties))
	for k, p := range schema.Properties {
		out[k] = p.Description
	}
	return out
}

// paramNames lists the input's property names, sorted.
func paramNames(n *Node) []string { return sortedKeys(inputProperties(n)) }

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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
