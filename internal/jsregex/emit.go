package jsregex

// The emitter writes the pattern tree as a regexp2 pattern, compiled with
// regexp2.ECMAScript (a backreference to a group that did not participate
// matches the empty string) and regexp2.Unicode (for \u{...} escapes). It
// never relies on regexp2's own reading of JavaScript syntax, flags or
// character classes: every character matcher is written as an explicit
// character or range list, and every assertion as an explicit construct:
//
//   - ^ and $ are \A and \z, or with /m lookarounds on \n \r \u2028 \u2029;
//   - \b and \B are lookarounds on JavaScript's word characters (regexp2's
//     \b uses Unicode letters);
//   - . and classes are range lists (negated classes are complemented here);
//   - under /i the input is canonicalized (see casefold.go) and so are the
//     pattern's characters, so that case-sensitive matching on the folded
//     text is exactly JavaScript's case-insensitive matching, backreferences
//     and \b included. Only when modifiers mix case-sensitive and insensitive
//     parts is the raw text matched, against case-closed sets, with regexp2's
//     own case folding for backreferences;
//   - JavaScript resets the captures inside a quantified group at the start
//     of every iteration; regexp2 keeps the last value. Where that can make a
//     difference, the iteration starts with (?(n)(?<-n>)), which pops the
//     group's capture with a .NET balancing group;
//   - /y is \G at the start.

import (
	"sort"
	"strconv"
	"strings"
)

type emitter struct {
	b         strings.Builder
	unicode   bool // u or v: characters are code points
	foldInput bool // the input is canonicalized
	fold      *folder
	max       rune
	clears    map[*node][]int
	behind    bool         // emitting the inside of a lookbehind (regexp2 matches it right to left)
	helper    int          // the last helper group number used
	present   map[int]bool // the groups the tree still has (V8 drops some quantified ones)
	dups      int          // how deep we are in duplicated quantifier bodies
}

// maxDups bounds the nesting of quantifier bodies written twice (see
// quantified), which doubles the output at every level.
const maxDups = 3

// emit translates the tree. Groups keep their JavaScript numbers; helper
// groups are numbered after them. It also returns the groups the tree still
// has.
func emit(root *node, unicodeMode, foldInput, sticky bool, numGroups int) (string, map[int]bool) {
	e := &emitter{unicode: unicodeMode, foldInput: foldInput, fold: foldFor(unicodeMode), max: maxCodeUnit,
		helper: numGroups}
	if unicodeMode {
		e.max = maxCodePoint
	}
	e.clears = captureClears(root)
	e.present = map[int]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		if n.op == opCapture {
			e.present[n.group] = true
		}
		for _, s := range n.subs {
			walk(s)
		}
	}
	walk(root)
	if sticky {
		e.b.WriteString(`\G(?:`)
		e.node(root)
		e.b.WriteString(`)`)
	} else {
		e.node(root)
	}
	return e.b.String(), e.present
}

func (e *emitter) node(n *node) {
	switch n.op {
	case opEmpty:
	case opChar:
		e.char(n.c, n.fl.ignoreCase)
	case opClass:
		e.class(n)
	case opSeq:
		for _, s := range n.subs {
			e.node(s)
		}
	case opAlt:
		e.b.WriteString("(?:")
		for i, s := range n.subs {
			if i > 0 {
				e.b.WriteByte('|')
			}
			e.node(s)
		}
		e.b.WriteByte(')')
	case opCapture:
		e.b.WriteString("(?<" + strconv.Itoa(n.group) + ">")
		e.node(n.subs[0])
		e.b.WriteByte(')')
	case opGroup:
		e.b.WriteString("(?:")
		e.node(n.subs[0])
		e.b.WriteByte(')')
	case opLook:
		switch {
		case n.behind && n.negate:
			e.b.WriteString("(?<!")
		case n.behind:
			e.b.WriteString("(?<=")
		case n.negate:
			e.b.WriteString("(?!")
		default:
			e.b.WriteString("(?=")
		}
		saved := e.behind
		e.behind = n.behind
		e.node(n.subs[0])
		e.behind = saved
		e.b.WriteByte(')')
	case opBackref:
		e.b.WriteString("(?:")
		for _, g := range n.refs {
			if !e.present[g] {
				continue // never set: matches the empty string
			}
			if n.fl.ignoreCase && !e.foldInput {
				e.b.WriteString(`(?i:\` + strconv.Itoa(g) + `)`)
			} else {
				e.b.WriteString(`\` + strconv.Itoa(g))
			}
		}
		e.b.WriteByte(')')
	case opAssert:
		e.assert(n)
	case opQuant:
		e.quantified(n)
	}
}

// quantified writes a quantifier. JavaScript rejects an iteration that
// matches the empty string once the minimum count is reached; regexp2 takes
// it and stops looping. That changes the result only when the body can
// match the empty string and then either sets captures or could have
// matched something non-empty later in its backtracking order; for those
// bodies every optional iteration checks that it moved: at the start it
// captures the rest of the input (the text before it, inside a lookbehind)
// in a helper group, and at the end it asserts that the helper no longer
// matches there. The iterations up to the minimum, where empty matches are
// allowed, are written as a separate copy of the body.
func (e *emitter) quantified(n *node) {
	x := n.subs[0]
	if !(nullable(x) && needsEmptyCheck(x)) || (n.min > 0 && e.dups >= maxDups) {
		e.loop(n, x, false, n.min, n.max)
		return
	}
	if n.min == 0 {
		e.loop(n, x, true, 0, n.max)
		return
	}
	e.dups++
	// Inside a lookbehind regexp2 runs a sequence right to left, so the
	// loop that runs first is written last.
	rest := func() {
		if n.max < 0 {
			e.loop(n, x, true, 0, -1)
		} else if n.max > n.min {
			e.loop(n, x, true, 0, n.max-n.min)
		}
	}
	if e.behind {
		rest()
	}
	e.loop(n, x, false, n.min, n.min)
	if !e.behind {
		rest()
	}
	e.dups--
}

// loop writes x{minN,maxN} (maxN < 0: unbounded) with the capture resets of
// quantifier n, and with the empty-iteration check when nonEmpty is set.
// An iteration runs: the resets, the capture of the rest of the input, x,
// the check. Inside a lookbehind, where regexp2 runs sequences right to
// left, that order is written backwards.
func (e *emitter) loop(n, x *node, nonEmpty bool, minN, maxN int) {
	clears := e.clears[n]
	simple := len(clears) == 0 && !nonEmpty && (x.op == opChar || x.op == opClass && len(x.strs) == 0)
	if simple {
		e.node(x)
		e.quantifier(minN, maxN, n.greedy)
		return
	}
	var h string
	if nonEmpty {
		e.helper++
		h = strconv.Itoa(e.helper)
	}
	writeClears := func() {
		for _, g := range clears {
			s := strconv.Itoa(g)
			e.b.WriteString("(?(" + s + ")(?<-" + s + ">))")
		}
	}
	e.b.WriteString("(?:")
	if !e.behind {
		writeClears()
		if nonEmpty {
			e.b.WriteString(`(?=(?<` + h + `>[\s\S]*))`)
		}
		e.node(x)
		if nonEmpty {
			e.b.WriteString(`(?!\` + h + `)`)
		}
	} else {
		if nonEmpty {
			e.b.WriteString(`(?<!\` + h + `)`)
		}
		e.node(x)
		if nonEmpty {
			e.b.WriteString(`(?<=(?<` + h + `>[\s\S]*))`)
		}
		writeClears()
	}
	e.b.WriteByte(')')
	e.quantifier(minN, maxN, n.greedy)
}

// nullable reports whether n can match the empty string.
func nullable(n *node) bool {
	return memo(&n.canBeEmpty, func() bool { return computeNullable(n) })
}

func computeNullable(n *node) bool {
	switch n.op {
	case opChar, opClass:
		return n.op == opClass && hasEmptyString(n)
	case opSeq:
		for _, s := range n.subs {
			if !nullable(s) {
				return false
			}
		}
		return true
	case opAlt:
		for _, s := range n.subs {
			if nullable(s) {
				return true
			}
		}
		return false
	case opCapture, opGroup:
		return nullable(n.subs[0])
	case opQuant:
		return n.min == 0 || nullable(n.subs[0])
	}
	return true // empty, assertions, lookarounds, backreferences
}

func hasEmptyString(n *node) bool {
	for _, s := range n.strs {
		if len(s) == 0 {
			return true
		}
	}
	return false
}

// needsEmptyCheck reports whether an empty iteration of n can differ from
// no iteration: n sets captures, or may match empty before trying
// something longer (a lazy quantifier, an alternative that can be empty
// before the last one).
func needsEmptyCheck(n *node) bool {
	return memo(&n.emptyMatters, func() bool { return computeNeedsEmptyCheck(n) })
}

func computeNeedsEmptyCheck(n *node) bool {
	switch n.op {
	case opCapture:
		return true
	case opQuant:
		if !n.greedy {
			return true
		}
	case opAlt:
		for _, s := range n.subs[:len(n.subs)-1] {
			if nullable(s) {
				return true
			}
		}
	case opClass:
		if hasEmptyString(n) {
			return true
		}
	}
	for _, s := range n.subs {
		if needsEmptyCheck(s) {
			return true
		}
	}
	return false
}

func (e *emitter) quantifier(minN, maxN int, greedy bool) {
	switch {
	case minN == 0 && maxN < 0:
		e.b.WriteByte('*')
	case minN == 1 && maxN < 0:
		e.b.WriteByte('+')
	case minN == 0 && maxN == 1:
		e.b.WriteByte('?')
	case maxN < 0:
		e.b.WriteString("{" + strconv.Itoa(minN) + ",}")
	case minN == maxN:
		e.b.WriteString("{" + strconv.Itoa(minN) + "}")
	default:
		e.b.WriteString("{" + strconv.Itoa(minN) + "," + strconv.Itoa(maxN) + "}")
	}
	if !greedy {
		e.b.WriteByte('?')
	}
}

// lit writes one character as a regexp2 atom.
func (e *emitter) lit(c rune) {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		e.b.WriteRune(c)
	case c <= 0xFFFF:
		const hex = "0123456789ABCDEF"
		e.b.WriteString(`\u`)
		e.b.WriteByte(hex[c>>12&15])
		e.b.WriteByte(hex[c>>8&15])
		e.b.WriteByte(hex[c>>4&15])
		e.b.WriteByte(hex[c&15])
	default:
		e.b.WriteString(`\u{` + strconv.FormatInt(int64(c), 16) + `}`)
	}
}

// char writes a matcher for one pattern character.
func (e *emitter) char(c rune, icase bool) {
	if !icase {
		e.lit(c)
		return
	}
	if e.foldInput {
		e.lit(e.fold.canon(c))
		return
	}
	e.set(e.fold.closure(single(c)))
}

// set writes a matcher for one character of s: a literal, a class, or a
// negated class when the complement is the shorter list (regexp2 scans a
// class's ranges one by one, and sorts them as it parses).
func (e *emitter) set(s charSet) {
	s = clip(s, e.max)
	switch {
	case len(s) == 0:
		e.b.WriteString("(?:(?!))")
	case len(s) == 1 && s[0].lo == s[0].hi:
		e.lit(s[0].lo)
	default:
		e.b.WriteByte('[')
		if c := complement(s, e.max); len(c) < len(s) {
			if len(c) == 0 {
				// Everything: [^] would not parse.
				e.ranges(s)
			} else {
				e.b.WriteByte('^')
				e.ranges(c)
			}
		} else {
			e.ranges(s)
		}
		e.b.WriteByte(']')
	}
}

// ranges writes the inside of a class.
func (e *emitter) ranges(s charSet) {
	for _, r := range s {
		e.lit(r.lo)
		if r.hi > r.lo {
			if r.hi > r.lo+1 {
				e.b.WriteByte('-')
			}
			e.lit(r.hi)
		}
	}
}

// caseSet applies case-insensitivity to the set of a class: on folded input
// the canonical forms of its characters, on raw input every character that
// matches one of them.
func (e *emitter) caseSet(s charSet) charSet {
	if e.foldInput {
		return e.fold.canonSet(s)
	}
	return e.fold.closure(s)
}

func (e *emitter) class(n *node) {
	icase := n.fl.ignoreCase && !n.caseless
	if len(n.cats) > 0 && len(n.strs) == 0 {
		// [\p{L}\p{N}_]: regexp2's property escapes plus the rest. Under
		// /i the closure of the set works on folded and on raw input alike
		// (it holds every character equivalent to a member).
		rest := n.catRest
		if icase {
			rest = union(rest, subtract(e.fold.closure(n.set), n.set))
		}
		e.b.WriteByte('[')
		if n.invert {
			e.b.WriteByte('^')
		}
		for _, c := range n.cats {
			e.b.WriteString(c)
		}
		e.ranges(clip(rest, e.max))
		e.b.WriteByte(']')
		return
	}
	s := n.set
	if icase {
		s = e.caseSet(s)
	}
	if n.invert {
		s = complement(s, e.max)
	}
	if len(n.strs) == 0 {
		e.set(s)
		return
	}
	e.b.WriteString("(?:")
	empty := false
	for _, str := range n.strs {
		if len(str) == 0 {
			empty = true
			continue
		}
		for _, c := range str {
			e.char(c, n.fl.ignoreCase)
		}
		e.b.WriteByte('|')
	}
	e.set(s)
	if empty {
		e.b.WriteByte('|')
	}
	e.b.WriteByte(')')
}

// wordSet returns the characters \b treats as word characters.
func (e *emitter) wordSet(icase bool) charSet {
	w := wordChars
	if !icase {
		return w
	}
	if e.unicode {
		w = wordCharsUI
	}
	if e.foldInput {
		return e.fold.canonSet(w)
	}
	return w
}

func (e *emitter) assert(n *node) {
	const notTerminator = `[^\n\r\u2028\u2029]`
	switch n.assert {
	case assertStart:
		if n.fl.multiline {
			e.b.WriteString(`(?<!` + notTerminator + `)`)
		} else {
			e.b.WriteString(`\A`)
		}
	case assertEnd:
		if n.fl.multiline {
			e.b.WriteString(`(?!` + notTerminator + `)`)
		} else {
			e.b.WriteString(`\z`)
		}
	case assertBoundary, assertNotBoundary:
		t := &emitter{unicode: e.unicode, fold: e.fold, max: e.max}
		t.set(e.wordSet(n.fl.ignoreCase))
		ws := t.b.String()
		if n.assert == assertBoundary {
			e.b.WriteString(`(?:(?<=` + ws + `)(?!` + ws + `)|(?<!` + ws + `)(?=` + ws + `))`)
		} else {
			e.b.WriteString(`(?:(?<=` + ws + `)(?=` + ws + `)|(?<!` + ws + `)(?!` + ws + `))`)
		}
	}
}

// captureClears decides which groups each quantifier must reset at the start
// of an iteration. A group needs it when some quantifier around it (that can
// iterate more than once) may finish an iteration without setting it, or
// holds a backreference to it; then every such quantifier around the group
// resets it, which keeps regexp2's capture stack at most one deep, so that
// one pop unsets the group.
//
// A group is set by every match of a quantifier's body unless, on the way
// down from the quantifier to the group, there is an alternation, an
// optional quantifier or a negative lookaround (a group occurs once in the
// tree).
func captureClears(root *node) map[*node][]int {
	type groupInfo struct {
		loops    []*node // the quantifiers around the group, outermost first
		optional int     // loops[:optional] may finish an iteration without it
		tooMany  bool
	}
	groups := map[int]*groupInfo{}
	refLoops := map[int]map[*node]bool{} // quantifiers around backreferences, by group
	var loops []*node
	var walk func(n *node, optional int)
	walk = func(n *node, optional int) {
		switch n.op {
		case opCapture:
			if len(loops) > 0 {
				gi := &groupInfo{optional: optional}
				if len(loops) > maxClears {
					gi.tooMany = true
				} else {
					gi.loops = append([]*node(nil), loops...)
				}
				groups[n.group] = gi
			}
		case opBackref:
			if len(loops) <= maxClears {
				for _, g := range n.refs {
					if refLoops[g] == nil {
						refLoops[g] = map[*node]bool{}
					}
					for _, q := range loops {
						refLoops[g][q] = true
					}
				}
			}
		case opAlt:
			if len(n.subs) > 1 {
				optional = len(loops)
			}
		case opLook:
			if n.negate {
				optional = len(loops)
			}
		case opQuant:
			if n.min == 0 {
				optional = len(loops)
			}
			if n.max < 0 || n.max > 1 {
				loops = append(loops, n)
				for _, s := range n.subs {
					walk(s, optional)
				}
				loops = loops[:len(loops)-1]
				return
			}
		}
		for _, s := range n.subs {
			walk(s, optional)
		}
	}
	walk(root, 0)
	if len(groups) == 0 {
		return nil
	}
	numbers := make([]int, 0, len(groups))
	for g := range groups {
		numbers = append(numbers, g)
	}
	sort.Ints(numbers)
	out := map[*node][]int{}
	budget := maxClears
	for _, g := range numbers {
		gi := groups[g]
		if gi.tooMany || len(gi.loops) > budget {
			continue
		}
		need := gi.optional > 0
		for _, q := range gi.loops {
			if refLoops[g][q] {
				need = true
			}
		}
		if !need {
			continue
		}
		budget -= len(gi.loops)
		for _, q := range gi.loops {
			out[q] = append(out[q], g)
		}
	}
	return out
}

// maxClears bounds the number of resets written (each group pays one per
// quantifier around it, which is quadratic in the nesting); past it groups
// keep regexp2's semantics (the last iteration that set them wins).
const maxClears = 2000
