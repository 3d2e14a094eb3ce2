package jsregex

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// ErrTimeout is returned by Exec when the deadline passes before the match
// ends.
var ErrTimeout = errors.New("jsregex: regular expression match timed out")

// Error is a pattern or flags error. Its message is V8's:
//
//	Invalid regular expression: /PATTERN/FLAGS: REASON
//	Invalid flags supplied to RegExp constructor 'FLAGS'
type Error struct {
	Pattern string // the pattern as given to Compile
	Flags   string // the flags as given to Compile
	Reason  string // V8's reason, e.g. "Unterminated group"
	// BadFlags tells an invalid flags string (then Reason is empty).
	BadFlags bool
	// Unsupported tells a pattern that V8 accepts but this package cannot
	// run (properties of strings such as \p{RGI_Emoji}).
	Unsupported bool
}

func (e *Error) Error() string {
	if e.BadFlags {
		return "Invalid flags supplied to RegExp constructor '" + e.Flags + "'"
	}
	return "Invalid regular expression: /" + e.Pattern + "/" + e.Flags + ": " + e.Reason
}

// Regexp is a compiled JavaScript regular expression. It is safe for
// concurrent use.
type Regexp struct {
	pattern    string
	flags      string // canonical
	source     string
	hasIndices bool
	global     bool
	ignoreCase bool
	multiline  bool
	dotAll     bool
	unicode    bool // u
	sets       bool // v
	sticky     bool

	foldInput  bool
	translated string
	groupNames []string     // by group number; [0] is ""
	present    map[int]bool // the groups in the translation (V8 drops some)
	names      []string     // distinct names, in order of first appearance
	nameGroups [][]int      // the groups of each name

	mu   sync.Mutex
	free []*regexp2.Regexp
}

const regexp2Options = regexp2.ECMAScript | regexp2.Unicode

// maxTranslated bounds the size of a translation (character classes under
// /i and \p{...} can be long); past it Compile fails as V8 does for
// patterns too large to compile.
const maxTranslated = 8 << 20

// Compile compiles a JavaScript regular expression: pattern is the source
// text between the slashes of a literal (or the first argument of the
// RegExp constructor) and flags any of "dgimsuvy". Errors are *Error, with
// V8's message; the flags in it are the ones given (V8 reports a literal's
// flags as written and the constructor's in canonical order).
func Compile(pattern, flags string) (re *Regexp, err error) {
	re = &Regexp{pattern: pattern}
	seen, ok := parseFlags(flags)
	if !ok {
		return nil, &Error{Pattern: pattern, Flags: flags, BadFlags: true}
	}
	re.hasIndices, re.global, re.ignoreCase = seen['d'], seen['g'], seen['i']
	re.multiline, re.dotAll, re.unicode = seen['m'], seen['s'], seen['u']
	re.sets, re.sticky = seen['v'], seen['y']
	for _, c := range "dgimsuvy" {
		if seen[c] {
			re.flags += string(c)
		}
	}
	re.source = escapeSource(pattern)

	defer func() {
		if r := recover(); r != nil {
			re, err = nil, &Error{Pattern: pattern, Flags: flags, Reason: fmt.Sprint("internal error: ", r), Unsupported: true}
		}
	}()
	unicodeMode := re.unicode || re.sets
	p := newParser(toUnits(pattern), modFlags{ignoreCase: re.ignoreCase, multiline: re.multiline, dotAll: re.dotAll},
		unicodeMode, re.sets)
	root := p.parsePattern()
	if p.failed {
		return nil, &Error{Pattern: pattern, Flags: flags, Reason: p.err,
			Unsupported: p.err == errStringPropertyUnsupported}
	}
	re.groupNames = p.groupNames
	for i, name := range p.groupNames {
		if name == "" {
			continue
		}
		found := -1
		for k, n := range re.names {
			if n == name {
				found = k
			}
		}
		if found < 0 {
			re.names = append(re.names, name)
			re.nameGroups = append(re.nameGroups, nil)
			found = len(re.names) - 1
		}
		re.nameGroups[found] = append(re.nameGroups[found], i)
	}
	re.foldInput = re.ignoreCase && allCaseInsensitive(root)
	re.translated, re.present = emit(root, unicodeMode, re.foldInput, re.sticky, len(p.groupNames)-1)
	if len(re.translated) > maxTranslated {
		return nil, &Error{Pattern: pattern, Flags: flags, Reason: errTooLarge}
	}
	r2, cerr := regexp2.Compile(re.translated, regexp2Options)
	if cerr != nil {
		return nil, &Error{Pattern: pattern, Flags: flags, Reason: "cannot be compiled: " + cerr.Error(), Unsupported: true}
	}
	re.free = append(re.free, r2)
	return re, nil
}

// parseFlags reports which flags a flags string sets; ok is false when it
// has an unknown or repeated flag, or both u and v.
func parseFlags(flags string) (seen [128]bool, ok bool) {
	for i := 0; i < len(flags); i++ {
		c := flags[i]
		if c >= 128 || seen[c] || !strings.ContainsRune("dgimsuvy", rune(c)) {
			return seen, false
		}
		seen[c] = true
	}
	return seen, !(seen['u'] && seen['v'])
}

// Validate reports the error Compile would report for a pattern and its
// flags, without compiling it: the early errors of a regular expression
// literal. It parses the pattern only, so it is cheap; a pattern that V8
// accepts but this package cannot run (Error.Unsupported) is not an error
// here, since that is known only when the literal is evaluated.
func Validate(pattern, flags string) (err error) {
	seen, ok := parseFlags(flags)
	if !ok {
		return &Error{Pattern: pattern, Flags: flags, BadFlags: true}
	}
	defer func() {
		if r := recover(); r != nil {
			err = nil // an internal error is reported by Compile, at run time
		}
	}()
	p := newParser(toUnits(pattern), modFlags{ignoreCase: seen['i'], multiline: seen['m'], dotAll: seen['s']},
		seen['u'] || seen['v'], seen['v'])
	p.parsePattern()
	if p.failed && p.err != errStringPropertyUnsupported {
		return &Error{Pattern: pattern, Flags: flags, Reason: p.err}
	}
	return nil
}

// allCaseInsensitive reports whether every part of the tree that depends on
// case is case-insensitive (no modifier turns /i off).
func allCaseInsensitive(n *node) bool {
	switch n.op {
	case opChar, opBackref:
		if !n.fl.ignoreCase {
			return false
		}
	case opClass:
		if !n.caseless && !n.fl.ignoreCase {
			return false
		}
	case opAssert:
		if (n.assert == assertBoundary || n.assert == assertNotBoundary) && !n.fl.ignoreCase {
			return false
		}
	}
	for _, s := range n.subs {
		if !allCaseInsensitive(s) {
			return false
		}
	}
	return true
}

// toUnits converts a pattern to UTF-16 code units. Surrogates encoded on
// their own in the UTF-8 (WTF-8, as a JavaScript string with lone surrogates
// would be) become those code units; invalid bytes become U+FFFD.
func toUnits(s string) []uint16 {
	out := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			out = append(out, uint16(s[i]))
			i++
			continue
		}
		if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
			out = append(out, uint16(0xD000|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F)))
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r > 0xFFFF {
			a, b := utf16.EncodeRune(r)
			out = append(out, uint16(a), uint16(b))
		} else {
			out = append(out, uint16(r))
		}
	}
	return out
}

// escapeSource is V8's EscapeRegExpSource: what RegExp.prototype.source
// returns. It works on bytes so that WTF-8 lone surrogates pass through.
func escapeSource(pattern string) string {
	if pattern == "" {
		return "(?:)"
	}
	// lineTerminator returns the escape of the line terminator at i and
	// its length in bytes, or "", 0.
	lineTerminator := func(i int) (string, int) {
		switch {
		case pattern[i] == '\n':
			return `\n`, 1
		case pattern[i] == '\r':
			return `\r`, 1
		case strings.HasPrefix(pattern[i:], "\u2028"):
			return `\u2028`, 3
		case strings.HasPrefix(pattern[i:], "\u2029"):
			return `\u2029`, 3
		}
		return "", 0
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(pattern); {
		c := pattern[i]
		if esc, n := lineTerminator(i); n > 0 {
			b.WriteString(esc)
			i += n
			continue
		}
		switch c {
		case '\\':
			if i+1 < len(pattern) {
				if _, n := lineTerminator(i + 1); n > 0 {
					i++ // the line terminator gets escaped on its own
					continue
				}
				_, size := utf8.DecodeRuneInString(pattern[i+1:])
				b.WriteString(pattern[i : i+1+size])
				i += 1 + size
				continue
			}
		case '/':
			if !inClass {
				b.WriteString(`\/`)
				i++
				continue
			}
		case '[':
			inClass = true
		case ']':
			inClass = false
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// Size estimates what the compiled expression holds in memory, in bytes:
// the pattern, its translation and regexp2's program, which measured
// (runtime.MemStats over hundreds of compiles) at about 1 KiB plus 3 to
// 10 bytes per character of the translation.
func (re *Regexp) Size() int {
	return 1024 + 10*len(re.translated) + 2*len(re.pattern)
}

// Pattern returns the pattern as given to Compile.
func (re *Regexp) Pattern() string { return re.pattern }

// Source returns what RegExp.prototype.source returns: the pattern with
// unescaped slashes and line terminators escaped, "(?:)" when empty.
func (re *Regexp) Source() string { return re.source }

// Flags returns the flags in the order RegExp.prototype.flags lists them:
// "dgimsuvy".
func (re *Regexp) Flags() string { return re.flags }

// HasIndices, Global, IgnoreCase, Multiline, DotAll, Unicode, UnicodeSets
// and Sticky report the flags d, g, i, m, s, u, v and y.
func (re *Regexp) HasIndices() bool { return re.hasIndices }

// Global reports the g flag.
func (re *Regexp) Global() bool { return re.global }

// IgnoreCase reports the i flag.
func (re *Regexp) IgnoreCase() bool { return re.ignoreCase }

// Multiline reports the m flag.
func (re *Regexp) Multiline() bool { return re.multiline }

// DotAll reports the s flag.
func (re *Regexp) DotAll() bool { return re.dotAll }

// Unicode reports the u flag.
func (re *Regexp) Unicode() bool { return re.unicode }

// UnicodeSets reports the v flag.
func (re *Regexp) UnicodeSets() bool { return re.sets }

// Sticky reports the y flag.
func (re *Regexp) Sticky() bool { return re.sticky }

// NumGroups returns the number of capturing groups.
func (re *Regexp) NumGroups() int { return len(re.groupNames) - 1 }

// GroupNames returns the name of each group by number ("" for unnamed
// groups and for element 0, the whole match), like regexp.SubexpNames. With
// duplicate named groups a name appears more than once.
func (re *Regexp) GroupNames() []string { return append([]string(nil), re.groupNames...) }

// Names returns the distinct group names in order of first appearance: the
// keys of a match's groups object. It is empty when the pattern has no named
// groups (then groups is undefined).
func (re *Regexp) Names() []string { return append([]string(nil), re.names...) }

// Translated returns the regexp2 pattern the expression was translated to,
// for debugging.
func (re *Regexp) Translated() string { return re.translated }

// Match is the result of a successful Exec.
type Match struct {
	// Indices holds the start and end (UTF-16 indexes into the input) of
	// the whole match and of each group: Indices[2*i], Indices[2*i+1] for
	// group i. Both are -1 for a group that did not participate.
	Indices []int
	re      *Regexp
}

// GroupNames returns the name of each group by number, as
// Regexp.GroupNames does.
func (m *Match) GroupNames() []string { return m.re.GroupNames() }

// Index returns the start of the match (the match object's index).
func (m *Match) Index() int { return m.Indices[0] }

// End returns the end of the match: the next lastIndex for /g and /y.
func (m *Match) End() int { return m.Indices[1] }

// Group returns the span of group i; ok is false when it did not
// participate.
func (m *Match) Group(i int) (start, end int, ok bool) {
	start, end = m.Indices[2*i], m.Indices[2*i+1]
	return start, end, start >= 0
}

// NamedGroup is one entry of a match's groups object.
type NamedGroup struct {
	Name       string
	Start, End int // -1 when no group of that name participated
}

// NamedGroups returns the groups object in property order: for each
// distinct name, the span of the group of that name that participated (with
// duplicate names at most one does), or -1, -1. It is nil when the pattern
// has no named groups.
func (m *Match) NamedGroups() []NamedGroup {
	re := m.re
	if len(re.names) == 0 {
		return nil
	}
	out := make([]NamedGroup, len(re.names))
	for i, name := range re.names {
		out[i] = NamedGroup{Name: name, Start: -1, End: -1}
		for _, g := range re.nameGroups[i] {
			if s, e, ok := m.Group(g); ok {
				out[i].Start, out[i].End = s, e
				break
			}
		}
	}
	return out
}

// Input is a string prepared for matching. Exec converts its input on every
// call; code that matches one string many times (a /g loop: replace,
// matchAll, split) should make one Input and call ExecInput. An Input is
// safe for concurrent use; the slice it was made from must not change.
type Input struct {
	units []uint16

	mu         sync.Mutex
	unitRunes  []rune
	unitFolded []rune
	cpRunes    []rune
	cpFolded   []rune
	cpStart    []int // UTF-16 index of each code point, then len(units); nil without surrogate pairs
	cpDone     bool
}

// NewInput prepares a UTF-16 string for matching.
func NewInput(units []uint16) *Input { return &Input{units: units} }

// Len returns the length of the input in UTF-16 code units.
func (in *Input) Len() int { return len(in.units) }

func (in *Input) codeUnits() []rune {
	if in.unitRunes == nil {
		rs := make([]rune, len(in.units))
		for i, u := range in.units {
			rs[i] = rune(u)
		}
		in.unitRunes = rs
	}
	return in.unitRunes
}

func (in *Input) codePoints() []rune {
	if !in.cpDone {
		in.cpDone = true
		pairs := false
		for i := 0; i+1 < len(in.units); i++ {
			if in.units[i] >= 0xD800 && in.units[i] <= 0xDBFF && in.units[i+1] >= 0xDC00 && in.units[i+1] <= 0xDFFF {
				pairs = true
				break
			}
		}
		if !pairs {
			in.cpRunes = in.codeUnits()
			return in.cpRunes
		}
		rs := make([]rune, 0, len(in.units))
		starts := make([]int, 0, len(in.units)+1)
		for i := 0; i < len(in.units); i++ {
			u := rune(in.units[i])
			starts = append(starts, i)
			if u >= 0xD800 && u <= 0xDBFF && i+1 < len(in.units) {
				if t := rune(in.units[i+1]); t >= 0xDC00 && t <= 0xDFFF {
					rs = append(rs, utf16.DecodeRune(u, t))
					i++
					continue
				}
			}
			rs = append(rs, u)
		}
		in.cpRunes = rs
		in.cpStart = append(starts, len(in.units))
	}
	return in.cpRunes
}

// runes returns the text regexp2 matches for one kind of pattern.
func (in *Input) runes(unicodeMode, folded bool) []rune {
	in.mu.Lock()
	defer in.mu.Unlock()
	var src []rune
	var dst *[]rune
	if unicodeMode {
		src, dst = in.codePoints(), &in.cpFolded
	} else {
		src, dst = in.codeUnits(), &in.unitFolded
	}
	if !folded {
		return src
	}
	if *dst == nil {
		f := foldFor(unicodeMode)
		out := make([]rune, len(src))
		for i, c := range src {
			if c < 128 {
				if c >= 'a' && c <= 'z' {
					c -= 'a' - 'A'
				}
				out[i] = c
				continue
			}
			out[i] = f.canon(c)
		}
		*dst = out
	}
	return *dst
}

// toRuneIndex converts a UTF-16 index to an index into codePoints(); an
// index inside a surrogate pair moves back to the pair's start, as V8 does.
func (in *Input) toRuneIndex(i int) int {
	if in.cpStart == nil {
		return i
	}
	return sort.Search(len(in.cpStart), func(k int) bool { return in.cpStart[k] > i }) - 1
}

func (in *Input) toUnitIndex(i int) int {
	if in.cpStart == nil {
		return i
	}
	return in.cpStart[i]
}

func (re *Regexp) get() *regexp2.Regexp {
	re.mu.Lock()
	if n := len(re.free); n > 0 {
		r := re.free[n-1]
		re.free = re.free[:n-1]
		re.mu.Unlock()
		return r
	}
	re.mu.Unlock()
	// The translation compiled once, so it compiles again.
	return regexp2.MustCompile(re.translated, regexp2Options)
}

func (re *Regexp) put(r *regexp2.Regexp) {
	re.mu.Lock()
	re.free = append(re.free, r)
	re.mu.Unlock()
}

// Exec matches the expression against input (UTF-16 code units), from
// lastIndex: only there with the y flag, else at the first position from
// there on. It returns nil, nil when there is no match (and when lastIndex
// is past the end). The flags g and d change nothing here: lastIndex
// bookkeeping and advancing past empty matches are the caller's. A zero
// deadline means no time limit; otherwise the match stops with ErrTimeout
// (approximately, regexp2 checks a clock that ticks every 100ms) once the
// deadline passes, and at once if it has passed already.
func (re *Regexp) Exec(input []uint16, lastIndex int, deadline time.Time) (*Match, error) {
	return re.ExecInput(NewInput(input), lastIndex, deadline)
}

// ExecInput is Exec on a prepared Input.
func (re *Regexp) ExecInput(in *Input, lastIndex int, deadline time.Time) (m *Match, err error) {
	if lastIndex < 0 {
		lastIndex = 0
	}
	if lastIndex > len(in.units) {
		return nil, nil
	}
	timeout := regexp2.DefaultMatchTimeout
	if !deadline.IsZero() {
		timeout = time.Until(deadline)
		if timeout <= 0 {
			return nil, ErrTimeout
		}
	}
	unicodeMode := re.unicode || re.sets
	text := in.runes(unicodeMode, re.foldInput)
	start := lastIndex
	if unicodeMode {
		start = in.toRuneIndex(lastIndex)
	}
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("jsregex: internal error matching /%s/%s: %v", re.pattern, re.flags, r)
		}
	}()
	r2 := re.get()
	r2.MatchTimeout = timeout
	res, err := r2.FindRunesMatchStartingAt(text, start)
	re.put(r2)
	if err != nil {
		if !deadline.IsZero() {
			return nil, ErrTimeout
		}
		return nil, err
	}
	if res == nil {
		return nil, nil
	}
	n := len(re.groupNames)
	m = &Match{Indices: make([]int, 2*n), re: re}
	for i := 0; i < n; i++ {
		var g *regexp2.Group
		if i == 0 || re.present[i] {
			g = res.GroupByNumber(i)
		}
		if g == nil || len(g.Captures) == 0 {
			m.Indices[2*i], m.Indices[2*i+1] = -1, -1
			continue
		}
		s, e := g.Index, g.Index+g.Length
		if unicodeMode {
			s, e = in.toUnitIndex(s), in.toUnitIndex(e)
		}
		m.Indices[2*i], m.Indices[2*i+1] = s, e
	}
	return m, nil
}
