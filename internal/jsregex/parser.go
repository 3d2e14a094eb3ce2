package jsregex

// The parser follows V8's regexp-parser.cc step by step (the order of its
// checks decides which error a bad pattern gets, and the error message is
// part of what we match), including Annex B for patterns without /u and /v,
// the /v class set syntax, modifiers and duplicate named groups. It works on
// the pattern's UTF-16 code units, reading surrogate pairs as one code point
// in Unicode mode, as V8 does.

import (
	"strings"
	"unicode/utf16"
)

const (
	endMarker   = 1 << 21    // current() past the end
	kInfinity   = 0x7FFFFFFF // V8's RegExpTree::kInfinity
	kMaxCapture = 32767      // V8's limit on capture groups
	maxNesting  = 10000      // groups and classes nested deeper fail like a stack overflow
)

// V8's error messages.
const (
	errStackOverflow         = "Maximum call stack size exceeded"
	errTooLarge              = "Regular expression too large"
	errUnterminatedGroup     = "Unterminated group"
	errUnmatchedParen        = "Unmatched ')'"
	errEscapeAtEnd           = "\\ at end of pattern"
	errInvalidPropertyName   = "Invalid property name"
	errInvalidEscape         = "Invalid escape"
	errInvalidDecimalEscape  = "Invalid decimal escape"
	errInvalidUnicodeEscape  = "Invalid Unicode escape"
	errNothingToRepeat       = "Nothing to repeat"
	errLoneQuantifier        = "Lone quantifier brackets"
	errRangeOutOfOrder       = "numbers out of order in {} quantifier"
	errIncompleteQuantifier  = "Incomplete quantifier"
	errInvalidQuantifier     = "Invalid quantifier"
	errInvalidGroup          = "Invalid group"
	errMultipleFlagDashes    = "Multiple dashes in flag group"
	errRepeatedFlag          = "Repeated flag in flag group"
	errInvalidFlagGroup      = "Invalid flag group"
	errTooManyCaptures       = "Too many captures"
	errInvalidCaptureName    = "Invalid capture group name"
	errDuplicateCaptureName  = "Duplicate capture group name"
	errInvalidNamedReference = "Invalid named reference"
	errInvalidNamedCaptureRf = "Invalid named capture referenced"
	errInvalidClassProperty  = "Invalid property name in character class"
	errInvalidCharacterClass = "Invalid character class"
	errUnterminatedClass     = "Unterminated character class"
	errClassOutOfOrder       = "Range out of order in character class"
	errInvalidSetOperation   = "Invalid set operation in character class"
	errInvalidCharInClass    = "Invalid character in character class"
	errNegatedWithStrings    = "Negated character class may contain strings"
	// Not a V8 message: V8 supports these, we have no data for them.
	errStringPropertyUnsupported = "Properties of strings are not supported"
)

type subexprKind uint8

const (
	subInitial subexprKind = iota
	subCapture
	subPositiveLook
	subNegativeLook
	subGrouping
)

type interval struct{ from, to int }

// pstate is one open group (V8's RegExpParserState).
type pstate struct {
	prev         *pstate
	b            builder
	kind         subexprKind
	behind       bool // lookaround direction of this group and what it holds
	captureIndex int
	name         string
	named        bool
	nonPart      []interval // capture indexes in other alternatives
}

func (s *pstate) insideCapture(index int) bool {
	for p := s; p != nil; p = p.prev {
		if p.kind != subCapture {
			continue
		}
		if index == p.captureIndex {
			return true
		}
		if index > p.captureIndex {
			return false
		}
	}
	return false
}

func (s *pstate) insideNamedCapture(name string) bool {
	for p := s; p != nil; p = p.prev {
		if p.named && p.name == name {
			return true
		}
	}
	return false
}

func (s *pstate) newAlternative(capturesStarted int) {
	if s.captureIndex == capturesStarted {
		return
	}
	from, to := s.captureIndex+1, capturesStarted
	if n := len(s.nonPart); n > 0 && s.nonPart[n-1].to+1 == to {
		s.nonPart[n-1] = interval{min(s.nonPart[n-1].from, from), to}
	} else {
		s.nonPart = append(s.nonPart, interval{from, to})
	}
}

// builder collects the terms and alternatives of one group.
type builder struct {
	fl           modFlags
	terms        []*node
	alts         []*node
	pendingEmpty bool
}

func (b *builder) add(n *node) {
	b.pendingEmpty = false
	b.terms = append(b.terms, n)
}

func (b *builder) addEmpty() { b.pendingEmpty = true }

func (b *builder) flushTerms() {
	var alt *node
	switch len(b.terms) {
	case 0:
		alt = &node{op: opEmpty}
	case 1:
		alt = b.terms[0]
	default:
		alt = &node{op: opSeq, subs: b.terms}
	}
	b.alts = append(b.alts, alt)
	b.terms = nil
}

func (b *builder) newAlternative() { b.flushTerms() }

func (b *builder) toRegExp() *node {
	b.flushTerms()
	if len(b.alts) == 1 {
		return b.alts[0]
	}
	return &node{op: opAlt, subs: b.alts}
}

// addQuantifier attaches a quantifier to the last term, as V8's
// AddQuantifierToAtom does.
func (b *builder) addQuantifier(minN, maxN int, greedy, unicodeMode bool) bool {
	if b.pendingEmpty {
		b.pendingEmpty = false
		return true
	}
	atom := b.terms[len(b.terms)-1]
	b.terms = b.terms[:len(b.terms)-1]
	if atom.op == opLook {
		if unicodeMode || atom.behind {
			return false
		}
	}
	if atom.maxMatchZero() {
		if minN != 0 {
			b.terms = append(b.terms, atom)
		}
		return true
	}
	q := &node{op: opQuant, subs: []*node{atom}, min: minN, max: maxN, greedy: greedy}
	if maxN == kInfinity {
		q.max = -1
	}
	b.terms = append(b.terms, q)
	return true
}

// parser is V8's RegExpParserImpl.
type parser struct {
	in      []uint16
	next    int // next_pos_
	cur     rune
	hasMore bool

	topFlags     modFlags
	fl           modFlags // the flags of the group being parsed
	unicode      bool     // /u or /v
	unicodeSets  bool     // /v
	forceUnicode bool

	capturesStarted  int
	captureCount     int
	scanned          bool
	hasNamedCaptures bool
	names            map[string][]int // named capture indexes by name
	groupNames       []string         // by capture index; "" if unnamed
	namedRefs        []*node
	depth            int

	failed      bool
	err         string
	unsupported bool // a property of strings was used
}

func newParser(pattern []uint16, fl modFlags, unicodeMode, unicodeSets bool) *parser {
	p := &parser{in: pattern, hasMore: true, topFlags: fl, fl: fl, unicode: unicodeMode, unicodeSets: unicodeSets,
		names: map[string][]int{}, groupNames: []string{""}}
	p.cur = endMarker
	p.advance()
	return p
}

func (p *parser) unicodeMode() bool { return p.unicode || p.forceUnicode }

func (p *parser) position() int { return p.next - 1 }
func (p *parser) hasNext() bool { return p.next < len(p.in) }

func (p *parser) readNext(update bool) rune {
	pos := p.next
	c0 := p.in[pos]
	r := rune(c0)
	pos++
	if p.unicodeMode() && pos < len(p.in) && utf16.IsSurrogate(r) && r < 0xDC00 {
		if c1 := rune(p.in[pos]); c1 >= 0xDC00 && c1 <= 0xDFFF {
			r = utf16.DecodeRune(r, c1)
			pos++
		}
	}
	if update {
		p.next = pos
	}
	return r
}

func (p *parser) peek() rune {
	if p.hasNext() {
		return p.readNext(false)
	}
	return endMarker
}

func (p *parser) advance() {
	if p.hasNext() {
		p.cur = p.readNext(true)
		return
	}
	p.cur = endMarker
	p.next = len(p.in) + 1
	p.hasMore = false
}

func (p *parser) advanceBy(dist int) {
	p.next += dist - 1
	p.advance()
}

func (p *parser) reset(pos int) {
	p.next = pos
	p.hasMore = pos < len(p.in)
	p.advance()
}

func (p *parser) rewindByOneCodepoint() {
	if !p.hasMore {
		return
	}
	if p.cur > 0xFFFF {
		p.advanceBy(-2)
	} else {
		p.advanceBy(-1)
	}
}

func (p *parser) fail(msg string) {
	if p.failed {
		return
	}
	p.failed = true
	p.err = msg
	p.cur = endMarker
	p.next = len(p.in)
	p.hasMore = false
}

func isDecimal(c rune) bool { return c >= '0' && c <= '9' }

func hexValue(c rune) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// parsePattern parses the whole pattern.
func (p *parser) parsePattern() *node {
	n := p.parseDisjunction()
	if p.failed {
		return nil
	}
	p.patchNamedBackReferences()
	if p.failed {
		return nil
	}
	if p.unsupported {
		p.fail(errStringPropertyUnsupported)
		return nil
	}
	return n
}

func (p *parser) parseDisjunction() *node {
	state := &pstate{kind: subInitial, b: builder{fl: p.topFlags}}
	for {
		b := &state.b
		switch p.cur {
		case endMarker:
			if p.failed {
				return nil
			}
			if state.prev != nil {
				p.fail(errUnterminatedGroup)
				return nil
			}
			return b.toRegExp()
		case ')':
			if state.prev == nil {
				p.fail(errUnmatchedParen)
				return nil
			}
			p.advance()
			body := b.toRegExp()
			switch state.kind {
			case subCapture:
				if state.named {
					p.createNamedCapture(state)
					if p.failed {
						return nil
					}
				}
				body = &node{op: opCapture, group: state.captureIndex, subs: []*node{body}}
			case subGrouping:
				body = &node{op: opGroup, subs: []*node{body}, fl: b.fl}
			default:
				body = &node{op: opLook, subs: []*node{body}, behind: state.behind, negate: state.kind == subNegativeLook}
			}
			state = state.prev
			p.depth--
			// V8 leaves its parser flags as the group set them; that leaks
			// a modifier's /i into what follows (and V8 also loses it after
			// a '|' inside the group). We scope modifiers as the spec does.
			p.fl = state.b.fl
			state.b.add(body)
		case '|':
			p.advance()
			state.newAlternative(p.capturesStarted)
			b.newAlternative()
			continue
		case '*', '+', '?':
			p.fail(errNothingToRepeat)
			return nil
		case '^':
			p.advance()
			b.add(&node{op: opAssert, assert: assertStart, fl: b.fl})
			continue
		case '$':
			p.advance()
			b.add(&node{op: opAssert, assert: assertEnd, fl: b.fl})
			continue
		case '.':
			p.advance()
			var s charSet
			if b.fl.dotAll {
				s = span(0, maxCodePoint)
			} else {
				s = complement(lineTerminators, maxCodePoint)
			}
			b.add(&node{op: opClass, set: s, caseless: true, fl: b.fl})
		case '(':
			if p.depth >= maxNesting {
				p.fail(errStackOverflow)
				return nil
			}
			st := p.parseOpenParenthesis(state)
			if p.failed {
				return nil
			}
			p.depth++
			state = st
			p.fl = state.b.fl
			continue
		case '[':
			n := p.parseCharacterClass(b)
			if p.failed {
				return nil
			}
			b.add(n)
		case '\\':
			switch p.peek() {
			case endMarker:
				p.fail(errEscapeAtEnd)
				return nil
			case '1', '2', '3', '4', '5', '6', '7', '8', '9':
				index, ok := p.parseBackReferenceIndex()
				if p.failed {
					return nil
				}
				if ok {
					if state.insideCapture(index) {
						b.addEmpty()
					} else {
						b.add(&node{op: opBackref, refs: []int{index}, fl: b.fl})
					}
					break
				}
				if p.unicodeMode() {
					p.fail(errInvalidEscape)
					return nil
				}
				if first := p.peek(); first == '8' || first == '9' {
					b.add(&node{op: opChar, c: first, fl: b.fl})
					p.advanceBy(2)
					break
				}
				p.advance()
				b.add(&node{op: opChar, c: p.parseOctalLiteral(), fl: b.fl})
			case '0':
				p.advance()
				if p.unicodeMode() && isDecimal(p.peek()) {
					p.fail(errInvalidDecimalEscape)
					return nil
				}
				b.add(&node{op: opChar, c: p.parseOctalLiteral(), fl: b.fl})
			case 'b':
				p.advanceBy(2)
				b.add(&node{op: opAssert, assert: assertBoundary, fl: b.fl})
				continue
			case 'B':
				p.advanceBy(2)
				b.add(&node{op: opAssert, assert: assertNotBoundary, fl: b.fl})
				continue
			case 'd', 'D', 's', 'S', 'w', 'W', 'p', 'P':
				next := p.peek()
				vs, ok := p.tryParseCharacterClassEscape(next, false)
				if p.failed {
					return nil
				}
				if ok {
					n := &node{op: opClass, set: vs.cs, fl: b.fl}
					if p.unicodeSets {
						n.strs = vs.strings()
					}
					if vs.cat != "" {
						n.cats = []string{vs.cat}
					}
					b.add(n)
				} else {
					p.advanceBy(2)
					b.add(&node{op: opChar, c: next, fl: b.fl})
				}
			case 'k':
				hasNamed := p.hasNamedCapturesScan(false)
				if p.failed {
					return nil
				}
				if p.unicodeMode() || hasNamed {
					p.advanceBy(2)
					p.parseNamedBackReference(state)
					if p.failed {
						return nil
					}
					break
				}
				fallthrough
			default:
				c, _ := p.parseCharacterEscape(false)
				if p.failed {
					return nil
				}
				b.add(&node{op: opChar, c: c, fl: b.fl})
			}
		case '{':
			if _, _, ok := p.parseIntervalQuantifier(); ok {
				p.fail(errNothingToRepeat)
				return nil
			}
			fallthrough
		case '}', ']':
			if p.unicodeMode() {
				p.fail(errLoneQuantifier)
				return nil
			}
			fallthrough
		default:
			b.add(&node{op: opChar, c: p.cur, fl: b.fl})
			p.advance()
		}

		var minN, maxN int
		switch p.cur {
		case '*':
			minN, maxN = 0, kInfinity
			p.advance()
		case '+':
			minN, maxN = 1, kInfinity
			p.advance()
		case '?':
			minN, maxN = 0, 1
			p.advance()
		case '{':
			var ok bool
			minN, maxN, ok = p.parseIntervalQuantifier()
			if ok {
				if maxN < minN {
					p.fail(errRangeOutOfOrder)
					return nil
				}
				break
			}
			if p.unicodeMode() {
				p.fail(errIncompleteQuantifier)
				return nil
			}
			continue
		default:
			continue
		}
		greedy := true
		if p.cur == '?' {
			greedy = false
			p.advance()
		}
		if !state.b.addQuantifier(minN, maxN, greedy, p.unicodeMode()) {
			p.fail(errInvalidQuantifier)
			return nil
		}
	}
}

func (p *parser) parseOpenParenthesis(state *pstate) *pstate {
	behind := state.behind
	named := false
	name := ""
	kind := subCapture
	fl := state.b.fl
	parsingModifiers := false
	polarity := true
	var modifiers modFlags
	anyModifier := false
	p.advance()
	if p.cur == '?' {
		for {
			next := p.peek()
			switch next {
			case '-':
				p.advance()
				parsingModifiers = true
				if !polarity {
					p.fail(errMultipleFlagDashes)
					return nil
				}
				polarity = false
			case 'm', 'i', 's':
				p.advance()
				parsingModifiers = true
				var seen *bool
				var target *bool
				switch next {
				case 'i':
					seen, target = &modifiers.ignoreCase, &fl.ignoreCase
				case 'm':
					seen, target = &modifiers.multiline, &fl.multiline
				default:
					seen, target = &modifiers.dotAll, &fl.dotAll
				}
				if *seen {
					p.fail(errRepeatedFlag)
					return nil
				}
				*seen = true
				anyModifier = true
				*target = polarity
			case ':':
				p.advanceBy(2)
				parsingModifiers = false
				kind = subGrouping
			case '=':
				p.advanceBy(2)
				if parsingModifiers {
					p.fail(errInvalidGroup)
					return nil
				}
				behind = false
				kind = subPositiveLook
			case '!':
				p.advanceBy(2)
				if parsingModifiers {
					p.fail(errInvalidGroup)
					return nil
				}
				behind = false
				kind = subNegativeLook
			case '<':
				p.advance()
				if parsingModifiers {
					p.fail(errInvalidGroup)
					return nil
				}
				if p.peek() == '=' {
					p.advanceBy(2)
					behind = true
					kind = subPositiveLook
					break
				} else if p.peek() == '!' {
					p.advanceBy(2)
					behind = true
					kind = subNegativeLook
					break
				}
				named = true
				p.hasNamedCaptures = true
				p.advance()
			default:
				p.fail(errInvalidGroup)
				return nil
			}
			if !parsingModifiers {
				break
			}
		}
	}
	if !polarity && !anyModifier {
		p.fail(errInvalidFlagGroup)
		return nil
	}
	if kind == subCapture {
		if p.capturesStarted >= kMaxCapture {
			p.fail(errTooManyCaptures)
			return nil
		}
		p.capturesStarted++
		p.groupNames = append(p.groupNames, "")
		if named {
			name = p.parseCaptureGroupName()
			if p.failed {
				return nil
			}
		}
	}
	st := &pstate{prev: state, kind: kind, behind: behind, captureIndex: p.capturesStarted,
		name: name, named: named, b: builder{fl: fl}}
	st.nonPart = append(st.nonPart, state.nonPart...)
	return st
}

// scanForCaptures counts the capture groups of the whole pattern, as V8's
// ScanForCaptures does.
func (p *parser) scanForCaptures(inClass bool) {
	saved := p.position()
	count := p.capturesStarted
	if inClass {
		for p.cur != endMarker {
			c := p.cur
			p.advance()
			if c == '\\' {
				p.advance()
			} else if c == ']' {
				break
			}
		}
	}
	for p.cur != endMarker {
		n := p.cur
		p.advance()
		switch n {
		case '\\':
			p.advance()
		case '[':
			level := 0
			for p.cur != endMarker {
				c := p.cur
				p.advance()
				if c == '\\' {
					p.advance()
				} else if c == '[' {
					if p.unicodeSets {
						level++
					}
				} else if c == ']' {
					if level == 0 {
						break
					}
					level--
				}
			}
		case '(':
			if p.cur == '?' {
				p.advance()
				if p.cur != '<' {
					break
				}
				p.advance()
				if p.cur == '=' || p.cur == '!' {
					break
				}
				p.hasNamedCaptures = true
			}
			count++
		}
	}
	p.captureCount = count
	p.scanned = true
	p.reset(saved)
}

func (p *parser) hasNamedCapturesScan(inClass bool) bool {
	if p.hasNamedCaptures || p.scanned {
		return p.hasNamedCaptures
	}
	p.scanForCaptures(inClass)
	return p.hasNamedCaptures
}

func (p *parser) parseBackReferenceIndex() (int, bool) {
	start := p.position()
	value := int(p.peek() - '0')
	p.advanceBy(2)
	for isDecimal(p.cur) {
		value = 10*value + int(p.cur-'0')
		if value > kMaxCapture {
			p.reset(start)
			return 0, false
		}
		p.advance()
	}
	if value > p.capturesStarted {
		if !p.scanned {
			p.scanForCaptures(false)
		}
		if value > p.captureCount {
			p.reset(start)
			return 0, false
		}
	}
	return value, true
}

func (p *parser) parseCaptureGroupName() string {
	p.rewindByOneCodepoint()
	var name []rune
	p.forceUnicode = true
	atStart := true
	for {
		p.advance()
		c := p.cur
		if c == '\\' && p.peek() == 'u' {
			p.advanceBy(2)
			v, ok := p.parseUnicodeEscape()
			if !ok {
				p.forceUnicode = false
				p.fail(errInvalidUnicodeEscape)
				return ""
			}
			c = v
			p.rewindByOneCodepoint()
		}
		if c == '\\' {
			p.forceUnicode = false
			p.fail(errInvalidCaptureName)
			return ""
		}
		if atStart {
			if !isIdentifierStart(c) {
				p.forceUnicode = false
				p.fail(errInvalidCaptureName)
				return ""
			}
			name = append(name, c)
			atStart = false
		} else {
			if c == '>' {
				break
			} else if isIdentifierPart(c) {
				name = append(name, c)
			} else {
				p.forceUnicode = false
				p.fail(errInvalidCaptureName)
				return ""
			}
		}
	}
	p.forceUnicode = false
	p.advance()
	return string(name)
}

func (p *parser) createNamedCapture(state *pstate) {
	name, index := state.name, state.captureIndex
	p.groupNames[index] = name
	if prev, ok := p.names[name]; ok {
		for _, named := range prev {
			duplicate := true
			for _, iv := range state.nonPart {
				if named >= iv.from && named <= iv.to {
					duplicate = false
					break
				}
				if named <= iv.from {
					break
				}
			}
			if duplicate {
				p.fail(errDuplicateCaptureName)
				return
			}
		}
	}
	if state.prev != nil && state.prev.insideNamedCapture(name) {
		p.fail(errDuplicateCaptureName)
		return
	}
	p.names[name] = append(p.names[name], index)
}

func (p *parser) parseNamedBackReference(state *pstate) {
	if p.cur != '<' {
		p.fail(errInvalidNamedReference)
		return
	}
	p.advance()
	name := p.parseCaptureGroupName()
	if p.failed {
		return
	}
	b := &state.b
	if state.insideNamedCapture(name) {
		b.addEmpty()
		return
	}
	n := &node{op: opBackref, name: name, fl: b.fl}
	b.add(n)
	p.namedRefs = append(p.namedRefs, n)
}

func (p *parser) patchNamedBackReferences() {
	if len(p.namedRefs) == 0 {
		return
	}
	if len(p.names) == 0 {
		p.fail(errInvalidNamedCaptureRf)
		return
	}
	for _, n := range p.namedRefs {
		idx, ok := p.names[n.name]
		if !ok {
			p.fail(errInvalidNamedCaptureRf)
			return
		}
		n.refs = idx
	}
}

// parseIntervalQuantifier parses {n}, {n,} or {n,m}; on failure it leaves
// the position unchanged.
func (p *parser) parseIntervalQuantifier() (int, int, bool) {
	start := p.position()
	p.advance()
	if !isDecimal(p.cur) {
		p.reset(start)
		return 0, 0, false
	}
	readNumber := func() int {
		v := 0
		for isDecimal(p.cur) {
			d := int(p.cur - '0')
			if v > (kInfinity-d)/10 {
				for isDecimal(p.cur) {
					p.advance()
				}
				return kInfinity
			}
			v = 10*v + d
			p.advance()
		}
		return v
	}
	minN := readNumber()
	var maxN int
	switch p.cur {
	case '}':
		maxN = minN
		p.advance()
	case ',':
		p.advance()
		if p.cur == '}' {
			maxN = kInfinity
			p.advance()
			break
		}
		maxN = readNumber()
		if p.cur != '}' {
			p.reset(start)
			return 0, 0, false
		}
		p.advance()
	default:
		p.reset(start)
		return 0, 0, false
	}
	return minN, maxN, true
}

func (p *parser) parseOctalLiteral() rune {
	value := p.cur - '0'
	p.advance()
	if p.cur >= '0' && p.cur <= '7' {
		value = value*8 + p.cur - '0'
		p.advance()
		if value < 32 && p.cur >= '0' && p.cur <= '7' {
			value = value*8 + p.cur - '0'
			p.advance()
		}
	}
	return value
}

func (p *parser) parseHexEscape(length int) (rune, bool) {
	start := p.position()
	var val rune
	for i := 0; i < length; i++ {
		d := hexValue(p.cur)
		if d < 0 {
			p.reset(start)
			return 0, false
		}
		val = val*16 + rune(d)
		p.advance()
	}
	return val, true
}

func (p *parser) parseUnlimitedLengthHexNumber(maxValue rune) (rune, bool) {
	var x rune
	d := hexValue(p.cur)
	if d < 0 {
		return 0, false
	}
	for d >= 0 {
		x = x*16 + rune(d)
		if x > maxValue {
			return 0, false
		}
		p.advance()
		d = hexValue(p.cur)
	}
	return x, true
}

// parseUnicodeEscape parses what follows \u.
func (p *parser) parseUnicodeEscape() (rune, bool) {
	if p.cur == '{' && p.unicodeMode() {
		start := p.position()
		p.advance()
		if v, ok := p.parseUnlimitedLengthHexNumber(maxCodePoint); ok && p.cur == '}' {
			p.advance()
			return v, true
		}
		p.reset(start)
		return 0, false
	}
	v, ok := p.parseHexEscape(4)
	if ok && p.unicodeMode() && v >= 0xD800 && v <= 0xDBFF && p.cur == '\\' {
		start := p.position()
		if p.peek() == 'u' {
			p.advanceBy(2)
			if trail, ok2 := p.parseHexEscape(4); ok2 && trail >= 0xDC00 && trail <= 0xDFFF {
				return utf16.DecodeRune(v, trail), true
			}
		}
		p.reset(start)
	}
	return v, ok
}

func isSyntaxCharacterOrSlash(c rune) bool {
	return strings.ContainsRune(`^$\.*+?()[]{}|/`, c)
}

func isClassSetSyntaxCharacter(c rune) bool {
	return strings.ContainsRune(`()[]{}/-\|`, c)
}

func isClassSetReservedPunctuator(c rune) bool {
	return strings.ContainsRune("&-!#%,:;<=>@`~", c)
}

func (p *parser) isClassSetReservedDoublePunctuator(c rune) bool {
	if strings.ContainsRune("&!#$%*+,.:;<=>?@^`~", c) {
		return p.peek() == c
	}
	return false
}

// parseCharacterEscape parses \ and a CharacterEscape (V8's
// ParseCharacterEscape); the bool tells a \u escape.
func (p *parser) parseCharacterEscape(inClass bool) (rune, bool) {
	p.advance()
	c := p.cur
	switch c {
	case 'f':
		p.advance()
		return '\f', false
	case 'n':
		p.advance()
		return '\n', false
	case 'r':
		p.advance()
		return '\r', false
	case 't':
		p.advance()
		return '\t', false
	case 'v':
		p.advance()
		return '\v', false
	case 'c':
		control := p.peek()
		letter := control &^ ('A' ^ 'a')
		if letter >= 'A' && letter <= 'Z' {
			p.advanceBy(2)
			return control & 0x1F, false
		}
		if p.unicodeMode() {
			p.fail(errInvalidUnicodeEscape)
			return 0, false
		}
		if inClass && (isDecimal(control) || control == '_') {
			p.advanceBy(2)
			return control & 0x1F, false
		}
		return '\\', false
	case '0':
		if !isDecimal(p.peek()) {
			p.advance()
			return 0, false
		}
		fallthrough
	case '1', '2', '3', '4', '5', '6', '7':
		if p.unicodeMode() {
			p.fail(errInvalidDecimalEscape)
			return 0, false
		}
		return p.parseOctalLiteral(), false
	case 'x':
		p.advance()
		if v, ok := p.parseHexEscape(2); ok {
			return v, false
		}
		if p.unicodeMode() {
			p.fail(errInvalidEscape)
			return 0, false
		}
		return 'x', false
	case 'u':
		p.advance()
		if v, ok := p.parseUnicodeEscape(); ok {
			return v, true
		}
		if p.unicodeMode() {
			p.fail(errInvalidUnicodeEscape)
			return 0, false
		}
		return 'u', false
	}
	if p.unicodeSets && inClass && isClassSetReservedPunctuator(c) {
		p.advance()
		return c, false
	}
	if p.unicodeMode() {
		if !isSyntaxCharacterOrSlash(c) {
			p.fail(errInvalidEscape)
			return 0, false
		}
		p.advance()
		return c, false
	}
	if c == 'c' {
		p.fail(errInvalidEscape)
		return 0, false
	}
	p.advance()
	if c == 'k' && p.hasNamedCapturesScan(inClass) {
		p.fail(errInvalidEscape)
		return 0, false
	}
	return c, false
}

// lineTerminators are \n \r \u2028 \u2029.
var lineTerminators = charSet{{'\n', '\n'}, {'\r', '\r'}, {0x2028, 0x2029}}

// whiteSpace is JavaScript's WhiteSpace and LineTerminator: \s.
var whiteSpace = normalize([]rng{{'\t', '\r'}, {' ', ' '}, {0xA0, 0xA0}, {0x1680, 0x1680},
	{0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000},
	{0xFEFF, 0xFEFF}})

var (
	digits    = charSet{{'0', '9'}}
	wordChars = charSet{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	// wordCharsUI adds the characters that fold into \w under /u with /i:
	// U+017F (long s) and U+212A (Kelvin sign).
	wordCharsUI = union(wordChars, charSet{{0x017F, 0x017F}, {0x212A, 0x212A}})
)

// tryParseCharacterClassEscape parses \d \D \s \S \w \W and, in Unicode
// mode, \p{...} \P{...}. It reports false (and consumes nothing) for
// anything else.
func (p *parser) tryParseCharacterClassEscape(next rune, inClass bool) (vset, bool) {
	icase := p.fl.ignoreCase
	fold := p.unicodeSets && icase
	var s charSet
	switch next {
	case 'd', 'D':
		s = digits
	case 's', 'S':
		s = whiteSpace
	case 'w', 'W':
		s = wordChars
		if p.unicodeMode() && icase {
			s = wordCharsUI
		}
	case 'p', 'P':
		if !p.unicodeMode() {
			return vset{}, false
		}
		negate := next == 'P'
		p.advanceBy(2)
		set, res, table := p.parseProperty()
		if res == propOfStrings && negate {
			res = propInvalid
		}
		switch res {
		case propInvalid:
			if inClass {
				p.fail(errInvalidClassProperty)
			} else {
				p.fail(errInvalidPropertyName)
			}
			return vset{}, true
		case propOfStrings:
			// V8 accepts it; we go on parsing (for V8's errors) and fail at
			// the end. The placeholder string makes the class "may contain
			// strings", as the property does.
			p.unsupported = true
			return vset{strs: map[string]bool{"\x00\x00\x00\x00\x00\x00": true}}, true
		}
		if fold {
			set = foldFor(true).closure(set)
			table = ""
		}
		if negate {
			set = complement(set, maxCodePoint)
		}
		vs := vset{cs: set}
		if table != "" && !p.unicodeSets {
			vs.cat = `\p{` + table + `}`
			if negate {
				vs.cat = `\P{` + table + `}`
			}
		}
		return vs, true
	default:
		return vset{}, false
	}
	if fold {
		s = foldFor(true).closure(s)
	}
	if next == 'D' || next == 'S' || next == 'W' {
		max := rune(maxCodeUnit)
		if p.unicodeMode() {
			max = maxCodePoint
		}
		s = complement(s, max)
	}
	p.advanceBy(2)
	return vset{cs: s}, true
}

// parseProperty parses {name} or {name=value} after \p and looks it up.
func (p *parser) parseProperty() (charSet, propertyResult, string) {
	if p.cur != '{' {
		return nil, propInvalid, ""
	}
	var n1, n2 []byte
	hasValue := false
	isNameChar := func(c rune) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
	}
	for p.advance(); p.cur != '}' && p.cur != '='; p.advance() {
		if !isNameChar(p.cur) || !p.hasNext() {
			return nil, propInvalid, ""
		}
		n1 = append(n1, byte(p.cur))
	}
	if p.cur == '=' {
		hasValue = true
		for p.advance(); p.cur != '}'; p.advance() {
			if !isNameChar(p.cur) || !p.hasNext() {
				return nil, propInvalid, ""
			}
			n2 = append(n2, byte(p.cur))
		}
	}
	p.advance()
	return lookupProperty(string(n1), string(n2), hasValue, p.unicodeSets)
}

// parseCharacterClass parses [...] into a class node.
func (p *parser) parseCharacterClass(b *builder) *node {
	if p.depth >= maxNesting {
		p.fail(errStackOverflow)
		return nil
	}
	if !p.unicodeSets {
		p.advance()
		negated := false
		if p.cur == '^' {
			negated = true
			p.advance()
		}
		n := &node{op: opClass, invert: negated, fl: b.fl}
		if p.cur == ']' {
			p.advance()
			return n
		}
		n.set, n.cats, n.catRest = p.parseClassRanges()
		if p.failed {
			return nil
		}
		if !p.hasMore {
			p.fail(errUnterminatedClass)
			return nil
		}
		p.advance()
		return n
	}
	vs, _ := p.parseClassSet()
	if p.failed {
		return nil
	}
	return &node{op: opClass, set: vs.cs, strs: vs.strings(), fl: b.fl}
}

// parseClassRanges parses the inside of a class without /v. It returns the
// set, and the regexp2 property escapes of the class (\p{...} that are
// exactly one Go table) with the set of the rest.
func (p *parser) parseClassRanges() (charSet, []string, charSet) {
	var rs []rng
	var extra, rest charSet
	var cats []string
	addClass := func(vs vset) {
		extra = union(extra, vs.cs)
		if vs.cat != "" {
			cats = append(cats, vs.cat)
		} else {
			rest = union(rest, vs.cs)
		}
	}
	for p.hasMore && p.cur != ']' {
		c1, cls1, isClass1 := p.parseClassEscape()
		if p.failed {
			return nil, nil, nil
		}
		if isClass1 {
			addClass(cls1)
		}
		if p.cur == '-' {
			p.advance()
			if !p.hasMore {
				break
			} else if p.cur == ']' {
				if !isClass1 {
					rs = append(rs, rng{c1, c1})
				}
				rs = append(rs, rng{'-', '-'})
				break
			}
			c2, cls2, isClass2 := p.parseClassEscape()
			if p.failed {
				return nil, nil, nil
			}
			if isClass2 {
				addClass(cls2)
			}
			if isClass1 || isClass2 {
				if p.unicodeMode() {
					p.fail(errInvalidCharacterClass)
					return nil, nil, nil
				}
				if !isClass1 {
					rs = append(rs, rng{c1, c1})
				}
				rs = append(rs, rng{'-', '-'})
				if !isClass2 {
					rs = append(rs, rng{c2, c2})
				}
				continue
			}
			if c1 > c2 {
				p.fail(errClassOutOfOrder)
				return nil, nil, nil
			}
			rs = append(rs, rng{c1, c2})
		} else if !isClass1 {
			rs = append(rs, rng{c1, c1})
		}
	}
	chars := normalize(rs)
	return union(chars, extra), cats, union(chars, rest)
}

// parseClassEscape parses one ClassAtom without /v: a character, or a class
// escape (then the set and true).
func (p *parser) parseClassEscape() (rune, vset, bool) {
	if p.cur != '\\' {
		c := p.cur
		p.advance()
		return c, vset{}, false
	}
	next := p.peek()
	switch next {
	case 'b':
		p.advanceBy(2)
		return '\b', vset{}, false
	case '-':
		if p.unicodeMode() {
			p.advanceBy(2)
			return '-', vset{}, false
		}
	case endMarker:
		p.fail(errEscapeAtEnd)
		return 0, vset{}, false
	}
	if vs, ok := p.tryParseCharacterClassEscape(next, true); ok {
		return 0, vs, true
	}
	c, _ := p.parseCharacterEscape(true)
	return c, vset{}, false
}
