package catalog

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-codemode/codemode/tools"
)

// Entry is one tool of a catalog, as Instructions lists it. It has the
// fields of the root package's CatalogEntry, so one converts to the other.
type Entry struct {
	// Path is the dotted path ("github.listIssues").
	Path string `json:"path"`
	// Description is the tool's description.
	Description string `json:"description"`
	// Signature is its signature (see Signature). When empty, the tool's
	// expression stands in for it.
	Signature string `json:"signature"`
}

// RunLimits are the limits a program runs under, as Instructions states
// them. A zero or nil field is no limit and is not mentioned.
type RunLimits struct {
	// Timeout is the wall-clock time of the whole run.
	Timeout time.Duration
	// MaxToolCalls is how many tool calls (search included) a run may
	// make; nil is unlimited, 0 none.
	MaxToolCalls *int
	// MaxOutputBytes bounds the result value and the logs together; nil
	// is unlimited.
	MaxOutputBytes *int
	// MaxMemoryBytes bounds what the program allocates.
	MaxMemoryBytes int64
}

// InstructionsInput is what Instructions describes.
type InstructionsInput struct {
	// Tools is the catalog. It need not be sorted.
	Tools []Entry
	// Namespaces maps namespace paths ("github", "github.issues") to
	// their descriptions; namespaces without one may be left out.
	Namespaces map[string]string
	// Limits are the limits in force.
	Limits RunLimits
	// Search says whether programs have the search(...) built-in.
	Search bool
	// Globals names the globals the host adds beyond the standard
	// library (extension globals such as fetch), so that the text does
	// not deny them; how to use them is the host's to say.
	Globals []string
	// MaxChars bounds the text, in characters (Unicode code points); zero
	// or less is no bound. See Instructions.
	MaxChars int
	// NoTypeScript says that programs must be plain JavaScript (the
	// runtime rejects TypeScript instead of erasing its types).
	NoTypeScript bool
}

// Instructions renders what a host puts in the description of its
// "execute code" tool: how a program is written (the body of an async
// function, what the language has and lacks, how the result comes back),
// how tools are called, the search(...) built-in with its signature (when
// in.Search), the limits in force, then the tools.
//
// The tools are listed in the order of a walk of the tree (a namespace's
// own tools, then its namespaces), in the most detailed form that keeps the whole
// text within in.MaxChars:
//
//  1. every tool's signature, its description as a comment above it,
//     under a comment line for each namespace that has a description;
//  2. one line per tool, its expression and its description (cut to 120
//     characters), saying that search gives the signatures;
//  3. a summary per top-level namespace: its tool count, its description
//     and up to eight tools that represent it (listings and reads first,
//     see representatives), with the namespaces below it that have a
//     description, and a pointer to search. It is tightened until it
//     fits: fewer example tools, no sub-namespaces, shorter then no
//     descriptions, and at last only the first namespaces and a count of
//     the rest.
//
// The text before the tools is never cut, so a budget smaller than it is
// exceeded. With no tools, the text says so and leaves out tool calls and
// search.
func Instructions(in InstructionsInput) string {
	entries := slices.Clone(in.Tools)
	slices.SortStableFunc(entries, treeOrder)
	head := instructionsHead(in, entries)
	if len(entries) == 0 {
		return head
	}
	withTools := func(list string) string { return head + "\n\n" + list }
	full := withTools(fullList(entries, in.Namespaces))
	if in.MaxChars <= 0 || chars(full) <= in.MaxChars {
		return full
	}
	if s := withTools(indexList(entries, in.Namespaces, in.Search)); chars(s) <= in.MaxChars {
		return s
	}
	return withTools(summaryList(entries, in.Namespaces, in.Search, in.MaxChars-chars(head)-2))
}

// treeOrder sorts tools as a walk of the tree: the tools of a namespace
// by name, then its namespaces by name, each with everything below it
// (so that a namespace's own tools never follow a sub-namespace's
// comment).
func treeOrder(a, b Entry) int {
	as, bs := strings.Split(a.Path, "."), strings.Split(b.Path, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		aTool, bTool := i == len(as)-1, i == len(bs)-1
		switch {
		case aTool && !bTool:
			return -1
		case bTool && !aTool:
			return 1
		case as[i] != bs[i] || aTool:
			return strings.Compare(as[i], bs[i])
		}
	}
	return 0
}

// instructionsHead is everything before the list of tools.
func instructionsHead(in InstructionsInput, entries []Entry) string {
	var paras []string
	if len(entries) > 0 {
		paras = append(paras, "Runs a JavaScript program that calls the tools below and returns its result as JSON, with its logs.")
	} else {
		paras = append(paras, "Runs a JavaScript program and returns its result as JSON, with its logs.")
	}
	paras = append(paras,
		"Write the body of an async function, without a wrapper or a markdown fence: `await` works at the top level, "+
			"and `return` gives the result (without a return, the value of the last expression statement is the result). "+
			"The result comes back as JSON: undefined becomes null, a Date its ISO string, functions are left out, "+
			"and a Map must be converted first (`Object.fromEntries(map)`).",
		languageParagraph(in.Globals, in.NoTypeScript))
	if len(entries) == 0 {
		paras = append(paras, "There are no tools: the program computes with the built-ins alone.")
	} else {
		paras = append(paras, callingParagraph(entries))
		if in.Search {
			paras = append(paras, searchParagraph(entries))
		}
	}
	if l := limitsParagraph(in.Limits, in.Search && len(entries) > 0); l != "" {
		paras = append(paras, l)
	}
	return strings.Join(paras, "\n\n")
}

// missing are the names models reach for that programs do not have: the
// text shown and the global that would provide it.
var missing = []struct{ text, global string }{
	{"eval", "eval"},
	{"new Function", "Function"},
	{"with", ""},
	{"BigInt", "BigInt"},
	{"Proxy", "Proxy"},
	{"Reflect", "Reflect"},
	{"Intl", "Intl"},
	{"fetch", "fetch"},
	{"process", "process"},
}

// languageParagraph says what the language has and lacks; globals are the
// host's additions, which it must not deny.
func languageParagraph(globals []string, noTypeScript bool) string {
	var b strings.Builder
	if noTypeScript {
		b.WriteString("Write plain JavaScript, not TypeScript. ")
	} else {
		b.WriteString("Write JavaScript. TypeScript types (annotations, `as`, `satisfies`, generics, interfaces, type aliases) are accepted and erased; " +
			"TypeScript with run-time meaning (enum, namespace, parameter properties, decorators) is not: use plain objects and classes. ")
	}
	b.WriteString("Functions, classes, destructuring, generators, async/await, try/catch, " +
		"regular expressions and the standard built-ins (Object, Array, String, Number, Math, JSON, Date, RegExp, Map, Set, Promise, URL) work. " +
		"There are no timers: setTimeout, setInterval and the like do not exist. Nor do ")
	var lacks []string
	for _, m := range missing {
		if m.global == "" || !slices.Contains(globals, m.global) {
			lacks = append(lacks, m.text)
		}
	}
	lacks = append(lacks, "packages")
	b.WriteString(strings.Join(lacks[:len(lacks)-1], ", ") + " or " + lacks[len(lacks)-1] + ". ")
	if len(globals) > 0 {
		g := slices.Clone(globals)
		slices.Sort(g)
		b.WriteString("The host adds these globals: " + strings.Join(slices.Compact(g), ", ") + ". ")
	}
	b.WriteString("`console.log` (and `console.error`, `console.warn`, ...) writes to the logs, not to the result.")
	return b.String()
}

// callingParagraph says how tools are called, with the catalog's own
// names in the examples.
func callingParagraph(entries []Entry) string {
	example := expression(entries[0].Path)
	for _, e := range entries {
		if expr := expression(e.Path); !strings.Contains(expr, "[") {
			example = expr
			break
		}
	}
	lines := []string{
		"Calling tools:",
		"- Call a tool with `await` and exactly one input object, as its signature shows: `const r = await " +
			example + "({ ... })`. A signature with `()` takes no input.",
	}
	for _, e := range entries {
		if expr := expression(e.Path); strings.Contains(expr, "[") {
			lines = append(lines, "- A name that is not an identifier takes bracket notation: `"+expr+"({ ... })`.")
			break
		}
	}
	lines = append(lines,
		"- A call starts when it is made: start independent calls together and await them with `Promise.all`. "+
			"Await every call you start; calls still running when the program ends are cancelled.",
		"- A failing call throws an Error whose message says why; catch it (`try`/`catch`, `Promise.allSettled`) to carry on without it.")
	return strings.Join(lines, "\n")
}

// searchParagraph describes the search(...) built-in, with its signature.
func searchParagraph(entries []Entry) string {
	example := entries[0].Path
	return "Finding tools: `search({ query, namespace, limit, offset })` ranks the tools by the words of their paths and descriptions, best first. " +
		"An exact path (\"" + example + "\") returns that tool alone, and an empty query lists them all. " +
		"`namespace` keeps to the tools under one namespace; `limit` (default 10) and `offset` page through the results, " +
		"`next.offset` being the next page's (`next` is null on the last). " +
		"search is synchronous: call it without `await`.\n" + SearchSignature()
}

// limitsParagraph states the limits in force, or nothing when there are
// none.
func limitsParagraph(l RunLimits, search bool) string {
	var may []string
	if l.Timeout > 0 {
		may = append(may, "run for "+duration(l.Timeout))
	}
	if l.MaxToolCalls != nil {
		calls := "make no tool calls"
		if n := *l.MaxToolCalls; n > 0 {
			calls = "make at most " + plural(n, "tool call", "tool calls")
		}
		if search {
			calls += " (search included)"
		}
		may = append(may, calls)
	}
	if l.MaxMemoryBytes > 0 {
		may = append(may, "allocate "+byteCount(l.MaxMemoryBytes)+" of memory")
	}
	var s []string
	if len(may) > 0 {
		list := may[0]
		if len(may) > 1 {
			list = strings.Join(may[:len(may)-1], ", ") + " and " + may[len(may)-1]
		}
		s = append(s, "Limits: the program may "+list+".")
	}
	if l.MaxOutputBytes != nil {
		lead := "Limits: the"
		if len(s) > 0 {
			lead = "The"
		}
		s = append(s, lead+" result value and the logs together are cut at "+byteCount(int64(*l.MaxOutputBytes))+": return what matters, not raw data.")
	}
	return strings.Join(s, " ")
}

// duration writes a timeout in words: 30 seconds, 2 minutes, 1.5 seconds,
// 500 ms.
func duration(d time.Duration) string {
	switch {
	case d%time.Minute == 0:
		return plural(int(d/time.Minute), "minute", "minutes")
	case d%time.Second == 0:
		return plural(int(d/time.Second), "second", "seconds")
	case d >= time.Second:
		return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " seconds"
	case d%time.Millisecond == 0:
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	return d.String()
}

// byteCount writes a size exactly, in the largest unit that divides it:
// 256 MiB, 100 kB, 1000 bytes... 1024 bytes is 1 KiB.
func byteCount(n int64) string {
	units := []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1e9, "GB"}, {1 << 20, "MiB"}, {1e6, "MB"}, {1 << 10, "KiB"}, {1e3, "kB"}}
	for _, u := range units {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + " " + u.name
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// expression is a dotted path as a program writes it.
func expression(path string) string { return tools.Expression(strings.Split(path, ".")) }

// namespaceHeaders returns the comment lines that open the namespaces e
// enters coming after prev ("" for the first tool): one per enclosing
// namespace with a description.
func namespaceHeaders(prev, path string, ns map[string]string) []string {
	var out []string
	segs := strings.Split(path, ".")
	for d := 1; d < len(segs); d++ {
		prefix := strings.Join(segs[:d], ".")
		if prev != "" && strings.HasPrefix(prev, prefix+".") {
			continue // still inside it
		}
		desc := oneLine(ns[prefix])
		if desc != "" {
			out = append(out, "// "+expression(prefix)+": "+desc)
		}
	}
	return out
}

// oneLine joins a text's lines and collapses its white space.
func oneLine(s string) string { return strings.Join(strings.FieldsFunc(s, isJSSpace), " ") }

// docComment renders a description as a JSDoc comment: /** one line */ or
// a block.
func docComment(desc string) string {
	desc = commentSafe(strings.TrimSpace(desc))
	if desc == "" {
		return ""
	}
	lines := strings.Split(desc, "\n")
	if len(lines) == 1 {
		return "/** " + desc + " */\n"
	}
	var b strings.Builder
	b.WriteString("/**\n")
	for _, l := range lines {
		l = strings.TrimRightFunc(l, isJSSpace)
		if l == "" {
			b.WriteString(" *\n")
		} else {
			b.WriteString(" * " + l + "\n")
		}
	}
	b.WriteString(" */\n")
	return b.String()
}

// fullList is the first form: every signature with its description.
func fullList(entries []Entry, ns map[string]string) string {
	var b strings.Builder
	b.WriteString("Tools:")
	prev := ""
	for _, e := range entries {
		for _, h := range namespaceHeaders(prev, e.Path, ns) {
			b.WriteString("\n\n" + h)
		}
		b.WriteString("\n\n" + docComment(e.Description))
		sig := e.Signature
		if sig == "" {
			sig = expression(e.Path)
		}
		b.WriteString(sig)
		prev = e.Path
	}
	return b.String()
}

// indexDescription is how long a description may be in the index.
const indexDescription = 120

// indexList is the second form: a line per tool, without signatures.
func indexList(entries []Entry, ns map[string]string, search bool) string {
	var b strings.Builder
	b.WriteString("Tools: " + strconv.Itoa(len(entries)) + ", too many to show their signatures here.")
	if search {
		b.WriteString(" Read a tool's signature before calling it: `search({ query: \"" + entries[0].Path +
			"\" }).items[0].signature`. A first program can return the signatures you need, the next one call the tools.")
	}
	b.WriteString("\n")
	prev := ""
	for _, e := range entries {
		for _, h := range namespaceHeaders(prev, e.Path, ns) {
			b.WriteString("\n" + h)
		}
		b.WriteString("\n" + expression(e.Path))
		if d, _ := shorten(oneLine(e.Description), indexDescription); d != "" {
			b.WriteString(": " + d)
		}
		prev = e.Path
	}
	return b.String()
}

// nsGroup is a top-level namespace in the summary ("" for the tools at
// the top level).
type nsGroup struct {
	path  string
	desc  string
	tools []Entry
	subs  []nsSub
}

// nsSub is a namespace below a top-level one that has a description.
type nsSub struct {
	path, desc string
	count      int
}

func groupTools(entries []Entry, ns map[string]string) []*nsGroup {
	var groups []*nsGroup
	byPath := map[string]*nsGroup{}
	for _, e := range entries {
		segs := strings.Split(e.Path, ".")
		top := ""
		if len(segs) > 1 {
			top = segs[0]
		}
		g := byPath[top]
		if g == nil {
			g = &nsGroup{path: top, desc: oneLine(ns[top])}
			byPath[top] = g
			groups = append(groups, g)
		}
		g.tools = append(g.tools, e)
	}
	for _, g := range groups {
		if g.path == "" {
			continue
		}
		counts := map[string]int{}
		for _, e := range g.tools {
			segs := strings.Split(e.Path, ".")
			for d := 2; d < len(segs); d++ {
				counts[strings.Join(segs[:d], ".")]++
			}
		}
		for p, n := range counts {
			if d := oneLine(ns[p]); d != "" {
				g.subs = append(g.subs, nsSub{p, d, n})
			}
		}
		slices.SortFunc(g.subs, func(a, b nsSub) int { return strings.Compare(a.path, b.path) })
	}
	return groups // in tree order: the top-level tools, then the namespaces by name
}

// summaryCuts are the settings of one summary.
type summaryCuts struct {
	examples int  // tools named per namespace
	subs     bool // list sub-namespaces with descriptions
	desc     int  // description length (0: none)
	groups   int  // namespaces shown (-1: all)
}

// summaryList is the third form: the namespaces, within budget
// characters if it can.
func summaryList(entries []Entry, ns map[string]string, search bool, budget int) string {
	groups := groupTools(entries, ns)
	steps := []summaryCuts{
		{8, true, 200, -1}, // a namespace or two within a roomy budget
		{5, true, 200, -1},
		{3, true, 200, -1},
		{3, false, 200, -1},
		{3, false, 100, -1},
		{1, false, 100, -1},
		{1, false, 50, -1},
		{0, false, 50, -1},
		{0, false, 0, -1},
	}
	var s string
	for _, c := range steps {
		if s = renderSummary(groups, len(entries), search, c); chars(s) <= budget {
			return s
		}
	}
	// Only the first namespaces: the most that fit (the top-level tools,
	// which come first, are always shown).
	last := steps[len(steps)-1]
	least := 0
	if groups[0].path == "" {
		least = 1
	}
	best := ""
	for lo, hi := least, len(groups)-1; lo <= hi; {
		mid := (lo + hi) / 2
		c := last
		c.groups = mid
		if t := renderSummary(groups, len(entries), search, c); chars(t) <= budget {
			best, lo = t, mid+1
		} else {
			hi = mid - 1
		}
	}
	if best == "" {
		last.groups = least
		best = renderSummary(groups, len(entries), search, last)
	}
	return best
}

func renderSummary(groups []*nsGroup, total int, search bool, c summaryCuts) string {
	namespaces := 0
	for _, g := range groups {
		if g.path != "" {
			namespaces++
		}
	}
	var b strings.Builder
	b.WriteString("Tools: " + strconv.Itoa(total))
	if namespaces > 0 {
		b.WriteString(" in " + plural(namespaces, "namespace", "namespaces"))
	}
	b.WriteString(", too many to list here.")
	if search {
		b.WriteString(" Find the ones you need with search and read their signatures before calling them: " +
			"a first program can `return search({ query: \"...\" }).items`, the next one call the tools.")
	}
	b.WriteString("\n")
	shown := groups
	if c.groups >= 0 && c.groups < len(groups) {
		shown = groups[:c.groups]
	}
	for _, g := range shown {
		b.WriteString("\n- ")
		if g.path == "" {
			b.WriteString("top-level tools (" + strconv.Itoa(len(g.tools)) + ")")
		} else {
			b.WriteString(expression(g.path) + " (" + plural(len(g.tools), "tool", "tools") + ")")
		}
		d := cutDescription(g.desc, c.desc)
		if d != "" {
			b.WriteString(": " + d)
		}
		if c.examples > 0 {
			var names []string
			for _, e := range representatives(g.tools, c.examples) {
				names = append(names, expression(e.Path))
			}
			if len(g.tools) > c.examples {
				names = append(names, "…")
			}
			switch {
			case d == "":
				b.WriteString(": ")
			case strings.HasSuffix(d, ".") || strings.HasSuffix(d, "…"):
				b.WriteString(" ")
			default:
				b.WriteString(". ")
			}
			b.WriteString(strings.Join(names, ", "))
		}
		if c.subs {
			for _, s := range g.subs {
				b.WriteString("\n  - " + expression(s.path) + " (" + plural(s.count, "tool", "tools") + ")")
				if d := cutDescription(s.desc, c.desc); d != "" {
					b.WriteString(": " + d)
				}
			}
		}
	}
	if rest := groups[len(shown):]; len(rest) > 0 {
		n := 0
		for _, g := range rest {
			n += len(g.tools)
		}
		b.WriteString("\n- … " + plural(len(rest), "more namespace", "more namespaces") + " with " + plural(n, "tool", "tools"))
	}
	return b.String()
}

// cutDescription shortens a one-line description to n characters (none
// when n is 0).
func cutDescription(d string, n int) string {
	if n <= 0 {
		return ""
	}
	s, _ := shorten(d, n)
	return s
}

// representatives picks n tools that show what a namespace offers, in the
// order a model would try them: listings and searches (they need no id),
// then other reads, other calls, creations, updates and deletions last;
// shallow paths and short names first. While it can, each pick adds a
// verb, a resource (the name without its verb) and a sub-namespace not
// shown yet. The first tools by name would often be all alike (an OpenAPI
// namespace's cancel* or delete* calls).
func representatives(entries []Entry, n int) []Entry {
	if n <= 0 {
		return nil
	}
	ranked := slices.Clone(entries)
	keys := make(map[string]toolKey, len(ranked))
	for _, e := range ranked {
		keys[e.Path] = keyOf(e.Path)
	}
	slices.SortStableFunc(ranked, func(a, b Entry) int { return keys[a.Path].compare(keys[b.Path]) })
	picked := make([]bool, len(ranked))
	var out []Entry
	verbs, resources, subs := map[string]bool{}, map[string]bool{}, map[string]bool{}
	// Pass 0 wants all three new, pass 1 a new resource and sub-namespace,
	// pass 2 takes the rest in rank order.
	for pass := 0; pass < 3 && len(out) < n; pass++ {
		for i, e := range ranked {
			if len(out) == n {
				break
			}
			k := keys[e.Path]
			seen := resources[k.resource] || (k.sub != "" && subs[k.sub])
			if picked[i] || (pass < 2 && seen) || (pass == 0 && verbs[k.verb]) {
				continue
			}
			picked[i] = true
			verbs[k.verb], resources[k.resource], subs[k.sub] = true, true, true
			out = append(out, e)
		}
	}
	return out
}

// toolKey is what representatives ranks a tool by.
type toolKey struct {
	class    int    // verbClass of its verb
	verb     string // its name's first word, lower case
	depth    int    // path segments
	leaf     string // the tool's own name
	resource string // the name without its verb, lower case, singular
	sub      string // the namespace below the top-level one ("" if none)
	path     string
}

func keyOf(path string) toolKey {
	segs := strings.Split(path, ".")
	leaf := segs[len(segs)-1]
	verb, rest := splitVerb(leaf)
	k := toolKey{class: verbClass(verb), verb: verb, depth: len(segs), leaf: leaf, path: path}
	k.resource = strings.TrimSuffix(strings.ToLower(strings.Trim(rest, "_-")), "s")
	if len(segs) > 2 {
		k.sub = segs[1]
	}
	return k
}

func (a toolKey) compare(b toolKey) int {
	if c := a.class - b.class; c != 0 {
		return c
	}
	if c := a.depth - b.depth; c != 0 {
		return c
	}
	if c := len(a.leaf) - len(b.leaf); c != 0 {
		return c
	}
	return strings.Compare(a.path, b.path)
}

// splitVerb splits a tool name at the end of its first word: listIssues,
// list_issues, list-issues and ListIssues all give "list" and "Issues"
// (with the separator).
func splitVerb(name string) (verb, rest string) {
	for i, r := range name {
		if i == 0 {
			continue
		}
		if r == '_' || r == '-' || r == '.' || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return strings.ToLower(name[:i]), name[i:]
		}
	}
	return strings.ToLower(name), ""
}

// verbClasses order tools by what their first word says they do; a word
// not listed ranks between reads and creations.
var verbClasses = map[string]int{
	"list": 0, "search": 0, "find": 0, "query": 0,
	"get": 1, "read": 1, "fetch": 1, "retrieve": 1, "describe": 1, "lookup": 1, "show": 1, "count": 1, "download": 1,
	"create": 3, "add": 3, "post": 3, "insert": 3, "upload": 3, "new": 3,
	"update": 4, "patch": 4, "set": 4, "edit": 4, "modify": 4, "put": 4, "replace": 4, "rename": 4,
	"delete": 5, "remove": 5, "destroy": 5, "purge": 5, "cancel": 5, "revoke": 5,
}

func verbClass(verb string) int {
	if c, ok := verbClasses[verb]; ok {
		return c
	}
	return 2
}
