package value

// This file holds the algorithms of String.prototype's methods (and of
// String.fromCharCode and String.fromCodePoint) over *String, with
// JavaScript's exact semantics on UTF-16 code units. Argument coercion is
// the caller's: the functions take integers already made by
// ToIntegerOrInfinity, where +Infinity is math.MaxInt and -Infinity is
// math.MinInt (any int is accepted; out-of-range values are clamped as each
// method specifies). The results were checked against V8 (node 26, ICU 78,
// Unicode 17) with testdata/gen_strmethods.js.

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
)

// isJSSpace reports whether the code unit is WhiteSpace or LineTerminator
// (TAB, VT, FF, SP, NBSP, ZWNBSP U+FEFF, the "Zs" category, LF, CR, U+2028
// and U+2029): what trim removes. U+0085, U+180E and U+200B are not.
func isJSSpace(u uint16) bool {
	switch u {
	case '\t', '\n', '\v', '\f', '\r', ' ',
		0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= u && u <= 0x200A
}

// Trim is String.prototype.trim: s without leading and trailing white space
// and line terminators. It returns s itself when there are none.
func (s *String) Trim() *String { return s.trim(true, true) }

// TrimStart is String.prototype.trimStart: s without leading white space
// and line terminators.
func (s *String) TrimStart() *String { return s.trim(true, false) }

// TrimEnd is String.prototype.trimEnd: s without trailing white space and
// line terminators.
func (s *String) TrimEnd() *String { return s.trim(false, true) }

func (s *String) trim(start, end bool) *String {
	i, j := 0, s.length
	for start && i < j && isJSSpace(s.At(i)) {
		i++
	}
	for end && j > i && isJSSpace(s.At(j-1)) {
		j--
	}
	return s.Slice(i, j)
}

// builder accumulates code units into a new string: as bytes while every
// unit is ASCII, then as []uint16. done makes the form String requires.
type builder struct {
	ascii  []byte
	wide   []uint16
	isWide bool
}

func newBuilder(capacity int) builder { return builder{ascii: make([]byte, 0, capacity)} }

func (b *builder) len() int { return len(b.ascii) + len(b.wide) }

// widen switches b to code units.
func (b *builder) widen() {
	if !b.isWide {
		w := make([]uint16, len(b.ascii), max(2*len(b.ascii), cap(b.ascii), 8))
		for i, c := range b.ascii {
			w[i] = uint16(c)
		}
		b.wide, b.ascii, b.isWide = w, nil, true
	}
}

// unit appends one code unit.
func (b *builder) unit(u uint16) {
	if !b.isWide && u < 0x80 {
		b.ascii = append(b.ascii, byte(u))
		return
	}
	b.widen()
	b.wide = append(b.wide, u)
}

// rune appends a code point (a surrogate appends itself).
func (b *builder) rune(r rune) {
	if r < 0x10000 {
		b.unit(uint16(r))
		return
	}
	hi, lo := utf16.EncodeRune(r)
	b.unit(uint16(hi))
	b.unit(uint16(lo))
}

// add appends the code units [i, j) of s.
func (b *builder) add(s *String, i, j int) {
	s.flatten()
	switch {
	case !s.isWide && !b.isWide:
		b.ascii = append(b.ascii, s.ascii[i:j]...)
	case !s.isWide:
		for k := i; k < j; k++ {
			b.wide = append(b.wide, uint16(s.ascii[k]))
		}
	default:
		b.widen()
		b.wide = append(b.wide, s.wide[i:j]...)
	}
}

func (b *builder) done() *String {
	if !b.isWide {
		return &String{ascii: string(b.ascii), length: len(b.ascii)}
	}
	for _, u := range b.wide {
		if u >= 0x80 {
			return &String{wide: b.wide, isWide: true, length: len(b.wide)}
		}
	}
	return FromUTF16(b.wide) // all ASCII after all
}

// asciiChars are the one-unit ASCII strings, shared (flat strings are
// never modified).
var asciiChars = func() (t [128]*String) {
	for i := range t {
		t[i] = &String{ascii: string(rune(i)), length: 1}
	}
	return t
}()

// unitString is the one-unit string at i (0 <= i < Len()).
func (s *String) unitString(i int) *String {
	if u := s.At(i); u < 0x80 {
		return asciiChars[u]
	}
	return &String{wide: s.wide[i : i+1 : i+1], isWide: true, length: 1}
}

// ToUpperCase is String.prototype.toUpperCase: the full Unicode default
// case mapping, as V8 does it with ICU's root locale. One code point may
// become several ("ß" is "SS", "ﬁ" is "FI", "ᾳ" is "ΑΙ"); lone surrogates
// are kept. No language rules apply (no Turkish dotted I).
func (s *String) ToUpperCase() *String {
	s.flatten()
	if !s.isWide {
		return asciiCase(s, 'a', 'z')
	}
	return s.mapCase(true)
}

// ToLowerCase is String.prototype.toLowerCase: the full Unicode default
// case mapping, as V8 does it with ICU's root locale. "İ" becomes "i̇"
// (i and U+0307), and a capital sigma becomes "ς" where it ends a word
// (the Final_Sigma rule: after a cased letter and before none, skipping
// case-ignorable characters both ways), "σ" elsewhere.
func (s *String) ToLowerCase() *String {
	s.flatten()
	if !s.isWide {
		return asciiCase(s, 'A', 'Z')
	}
	return s.mapCase(false)
}

// asciiCase flips the case of the ASCII letters in [lo, hi]; s itself if
// there are none.
func asciiCase(s *String, lo, hi byte) *String {
	i := 0
	for i < len(s.ascii) && (s.ascii[i] < lo || s.ascii[i] > hi) {
		i++
	}
	if i == len(s.ascii) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s.ascii))
	b.WriteString(s.ascii[:i])
	for ; i < len(s.ascii); i++ {
		c := s.ascii[i]
		if lo <= c && c <= hi {
			c ^= 0x20
		}
		b.WriteByte(c)
	}
	return &String{ascii: b.String(), length: len(s.ascii)}
}

func (s *String) mapCase(upper bool) *String {
	w := s.wide
	b := builder{wide: make([]uint16, 0, len(w)+8), isWide: true}
	for i := 0; i < len(w); {
		u := w[i]
		if u < 0x80 {
			if upper && 'a' <= u && u <= 'z' || !upper && 'A' <= u && u <= 'Z' {
				u ^= 0x20
			}
			b.unit(u)
			i++
			continue
		}
		r, n := runeAt(w, i)
		i += n
		switch {
		case utf16.IsSurrogate(r):
			b.unit(u) // lone
		case upper:
			appendUpper(&b, r)
		case r == 0x3A3: // Σ
			if casedBefore(w, i-1) && !casedAfter(w, i) {
				b.unit(0x3C2)
			} else {
				b.unit(0x3C3)
			}
		case r == 0x130: // İ
			b.unit('i')
			b.unit(0x307)
		default:
			l := unicode.ToLower(r)
			if l == r {
				l = addedCase(r, false)
			}
			b.rune(l)
		}
	}
	return b.done()
}

// runeAt decodes the code point at w[i]: a surrogate pair, or one unit
// (a lone surrogate is itself). It returns the point and its unit count.
func runeAt(w []uint16, i int) (rune, int) {
	r := rune(w[i])
	if 0xD800 <= r && r < 0xDC00 && i+1 < len(w) && 0xDC00 <= w[i+1] && w[i+1] < 0xE000 {
		return utf16.DecodeRune(r, rune(w[i+1])), 2
	}
	return r, 1
}

// runeBefore decodes the code point that ends just before w[i].
func runeBefore(w []uint16, i int) (rune, int) {
	r := rune(w[i-1])
	if 0xDC00 <= r && r < 0xE000 && i >= 2 && 0xD800 <= w[i-2] && w[i-2] < 0xDC00 {
		return utf16.DecodeRune(rune(w[i-2]), r), 2
	}
	return r, 1
}

// upperFull holds the unconditional one-to-many upper-case mappings of
// SpecialCasing.txt, but for U+1F80..U+1FAF, which appendUpper computes.
var upperFull = map[rune]string{
	0xDF: "SS", 0x149: "\u02BCN", 0x1F0: "J\u030C", 0x390: "\u0399\u0308\u0301",
	0x3B0: "\u03A5\u0308\u0301", 0x587: "\u0535\u0552", 0x1E96: "H\u0331", 0x1E97: "T\u0308",
	0x1E98: "W\u030A", 0x1E99: "Y\u030A", 0x1E9A: "A\u02BE", 0x1F50: "\u03A5\u0313",
	0x1F52: "\u03A5\u0313\u0300", 0x1F54: "\u03A5\u0313\u0301", 0x1F56: "\u03A5\u0313\u0342",
	0x1FB2: "\u1FBA\u0399", 0x1FB3: "\u0391\u0399", 0x1FB4: "\u0386\u0399", 0x1FB6: "\u0391\u0342",
	0x1FB7: "\u0391\u0342\u0399", 0x1FBC: "\u0391\u0399", 0x1FC2: "\u1FCA\u0399", 0x1FC3: "\u0397\u0399",
	0x1FC4: "\u0389\u0399", 0x1FC6: "\u0397\u0342", 0x1FC7: "\u0397\u0342\u0399", 0x1FCC: "\u0397\u0399",
	0x1FD2: "\u0399\u0308\u0300", 0x1FD3: "\u0399\u0308\u0301", 0x1FD6: "\u0399\u0342", 0x1FD7: "\u0399\u0308\u0342",
	0x1FE2: "\u03A5\u0308\u0300", 0x1FE3: "\u03A5\u0308\u0301", 0x1FE4: "\u03A1\u0313", 0x1FE6: "\u03A5\u0342",
	0x1FE7: "\u03A5\u0308\u0342", 0x1FF2: "\u1FFA\u0399", 0x1FF3: "\u03A9\u0399", 0x1FF4: "\u038F\u0399",
	0x1FF6: "\u03A9\u0342", 0x1FF7: "\u03A9\u0342\u0399", 0x1FFC: "\u03A9\u0399",
	0xFB00: "FF", 0xFB01: "FI", 0xFB02: "FL", 0xFB03: "FFI", 0xFB04: "FFL", 0xFB05: "ST", 0xFB06: "ST",
	0xFB13: "\u0544\u0546", 0xFB14: "\u0544\u0535", 0xFB15: "\u0544\u053B", 0xFB16: "\u054E\u0546", 0xFB17: "\u0544\u053D",
}

// appendUpper appends the full upper-case mapping of r (not a surrogate).
func appendUpper(b *builder, r rune) {
	switch {
	case 0x1F80 <= r && r <= 0x1FAF:
		// Greek with ypogegrammeni or prosgegrammeni: the capital
		// with psili or dasia, then capital iota ("ᾀ" and "ᾈ" are "ἈΙ").
		b.rune([...]rune{0x1F08, 0x1F28, 0x1F68}[(r-0x1F80)>>4] + r&7)
		b.unit(0x399)
		return
	case r == 0xDF || r == 0x149 || r == 0x1F0 || r == 0x390 || r == 0x3B0 || r == 0x587,
		0x1E96 <= r && r <= 0x1E9A, 0x1F50 <= r && r <= 0x1FFC, 0xFB00 <= r && r <= 0xFB17:
		if full, ok := upperFull[r]; ok {
			for _, c := range full {
				b.rune(c)
			}
			return
		}
	}
	u := unicode.ToUpper(r)
	if u == r {
		u = addedCase(r, true)
	}
	b.rune(u)
}

// caseAdded holds the case pairs of Unicode 16 and 17, which Go's tables
// (Unicode 15) lack: n consecutive pairs from upper and lower.
var caseAdded = [...]struct{ upper, lower, n rune }{
	{0x1C89, 0x1C8A, 1}, {0xA7CB, 0x0264, 1}, {0xA7CC, 0xA7CD, 1}, {0xA7CE, 0xA7CF, 1},
	{0xA7D2, 0xA7D3, 1}, {0xA7D4, 0xA7D5, 1}, {0xA7DA, 0xA7DB, 1}, {0xA7DC, 0x019B, 1},
	{0x10D50, 0x10D70, 22}, {0x16EA0, 0x16EBB, 25},
}

// addedCase maps r by caseAdded, to upper or lower case; r if it has no
// entry there.
func addedCase(r rune, upper bool) rune {
	if !(r == 0x19B || r == 0x264 || r == 0x1C89 || r == 0x1C8A || 0xA7CB <= r && r <= 0xA7DC || 0x10D50 <= r && r <= 0x16ED3) {
		return r
	}
	for _, c := range caseAdded {
		from, to := c.lower, c.upper
		if !upper {
			from, to = to, from
		}
		if from <= r && r < from+c.n {
			return to + r - from
		}
	}
	return r
}

// The Cased and Case_Ignorable code points Unicode 16 and 17 added or
// changed, over what Go's tables (Unicode 15) give.
var (
	casedAdded     = [][2]rune{{0x1C89, 0x1C8A}, {0xA7CB, 0xA7CF}, {0xA7D2, 0xA7D2}, {0xA7D4, 0xA7D4}, {0xA7DA, 0xA7DC}, {0xA7F1, 0xA7F1}, {0x10D50, 0x10D65}, {0x10D70, 0x10D85}, {0x16EA0, 0x16EB8}, {0x16EBB, 0x16ED3}}
	ignorableAdded = [][2]rune{{0x0897, 0x0897}, {0x1ACF, 0x1ADD}, {0x1AE0, 0x1AEB}, {0xA7F1, 0xA7F1}, {0x10D4E, 0x10D4E},
		{0x10D69, 0x10D6D}, {0x10D6F, 0x10D6F}, {0x10EC5, 0x10EC5}, {0x10EFA, 0x10EFC}, {0x113BB, 0x113C0}, {0x113CE, 0x113CE},
		{0x113D0, 0x113D0}, {0x113D2, 0x113D2}, {0x113E1, 0x113E2}, {0x11B60, 0x11B60}, {0x11B62, 0x11B64}, {0x11B66, 0x11B66},
		{0x11DD9, 0x11DD9}, {0x11F5A, 0x11F5A}, {0x1611E, 0x16129}, {0x1612D, 0x1612F}, {0x16D40, 0x16D42}, {0x16D6B, 0x16D6C},
		{0x16FF2, 0x16FF3}, {0x1E5EE, 0x1E5EF}, {0x1E6E3, 0x1E6E3}, {0x1E6E6, 0x1E6E6}, {0x1E6EE, 0x1E6EF}, {0x1E6F5, 0x1E6F5},
		{0x1E6FF, 0x1E6FF}}
)

func inRanges(ranges [][2]rune, r rune) bool {
	for _, rg := range ranges {
		if rg[0] <= r && r <= rg[1] {
			return true
		}
	}
	return false
}

// isCased is Unicode's Cased property: Lowercase, Uppercase or Lt.
func isCased(r rune) bool {
	if r < 0x80 {
		return 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z'
	}
	if r == 0x295 { // Ll in Unicode 15, Lo since 16
		return false
	}
	return unicode.IsLower(r) || unicode.IsUpper(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r) ||
		r >= 0x1C89 && inRanges(casedAdded, r)
}

// isCaseIgnorable is Unicode's Case_Ignorable property: Mn, Me, Cf, Lm, Sk,
// or Word_Break MidLetter, MidNumLet or Single_Quote.
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	case 0x1171E: // Mn in Unicode 15, Mc since 16
		return false
	}
	if r < 0x80 {
		return false
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk) ||
		r >= 0x897 && inRanges(ignorableAdded, r)
}

// casedBefore reports whether the first code point before w[i] that is not
// case-ignorable is cased. (As ICU does, a point that is both is skipped.)
func casedBefore(w []uint16, i int) bool {
	for i > 0 {
		r, n := runeBefore(w, i)
		i -= n
		if !isCaseIgnorable(r) {
			return isCased(r)
		}
	}
	return false
}

// casedAfter reports whether the first code point from w[i] on that is not
// case-ignorable is cased.
func casedAfter(w []uint16, i int) bool {
	for i < len(w) {
		r, n := runeAt(w, i)
		i += n
		if !isCaseIgnorable(r) {
			return isCased(r)
		}
	}
	return false
}

// PadStart is String.prototype.padStart: s preceded by as much of filler,
// repeated and cut, as makes it targetLength long. It returns s when
// targetLength <= Len() or filler is empty, and ok=false (a RangeError)
// when the result would be longer than MaxStringLength.
func (s *String) PadStart(targetLength int, filler *String) (*String, bool) {
	return s.pad(targetLength, filler, true)
}

// PadEnd is String.prototype.padEnd: s followed by as much of filler,
// repeated and cut, as makes it targetLength long; see PadStart.
func (s *String) PadEnd(targetLength int, filler *String) (*String, bool) {
	return s.pad(targetLength, filler, false)
}

func (s *String) pad(target int, filler *String, atStart bool) (*String, bool) {
	if target <= s.length || filler.length == 0 {
		return s, true
	}
	if target > MaxStringLength {
		return nil, false
	}
	b := newBuilder(target)
	if !atStart {
		b.add(s, 0, s.length)
	}
	for n := target - s.length; n > 0; n -= filler.length {
		b.add(filler, 0, min(n, filler.length))
	}
	if atStart {
		b.add(s, 0, s.length)
	}
	return b.done(), true
}

// Repeat is String.prototype.repeat for a count the caller has checked
// (0 <= count, finite). It returns ok=false (a RangeError) when the result
// would be longer than MaxStringLength; the empty string repeats to itself
// any number of times.
func (s *String) Repeat(count int) (*String, bool) {
	switch {
	case count <= 0 || s.length == 0:
		return Empty, true
	case count == 1:
		return s, true
	case count > MaxStringLength/s.length:
		return nil, false
	}
	s.flatten()
	if !s.isWide {
		return &String{ascii: strings.Repeat(s.ascii, count), length: s.length * count}, true
	}
	w := make([]uint16, s.length*count)
	n := copy(w, s.wide)
	for n < len(w) {
		n += copy(w[n:], w[:n])
	}
	return &String{wide: w, isWide: true, length: len(w)}, true
}

// index is StringIndexOf: the first index >= from (0 <= from) where sub
// occurs in s, or -1; an empty sub occurs at every index up to Len().
func (s *String) index(sub *String, from int) int {
	if from > s.length {
		return -1
	}
	if sub.length == 0 {
		return from
	}
	s.flatten()
	sub.flatten()
	switch {
	case !s.isWide && !sub.isWide:
		if i := strings.Index(s.ascii[from:], sub.ascii); i >= 0 {
			return from + i
		}
		return -1
	case !s.isWide:
		return -1 // sub has a non-ASCII unit
	}
	w, first, last := s.wide, sub.At(0), s.length-sub.length
	for i := from; i <= last; i++ {
		if w[i] == first && s.matchAt(i, sub) {
			return i
		}
	}
	return -1
}

// matchAt reports whether sub occurs in s at index i (0 <= i, i+sub.Len()
// <= s.Len(); s flat).
func (s *String) matchAt(i int, sub *String) bool {
	sub.flatten()
	switch {
	case !s.isWide && !sub.isWide:
		return s.ascii[i:i+sub.length] == sub.ascii
	case s.isWide && sub.isWide:
		return slices.Equal(s.wide[i:i+sub.length], sub.wide)
	}
	for j := 0; j < sub.length; j++ {
		if s.At(i+j) != sub.At(j) {
			return false
		}
	}
	return true
}

// SplitLen is how many pieces Split(sep, limit) makes, found without
// making them, so that a caller can charge them first.
func (s *String) SplitLen(sep *String, limit int) int {
	if limit < 0 {
		limit = math.MaxInt
	}
	if limit == 0 {
		return 0
	}
	s.flatten()
	sep.flatten()
	switch {
	case sep.length == 0:
		return min(limit, s.length)
	case s.length == 0:
		return 1
	case !s.isWide && !sep.isWide:
		return min(strings.Count(s.ascii, sep.ascii)+1, limit)
	}
	n, p := 0, 0
	for q := s.index(sep, 0); q >= 0 && n < limit; q = s.index(sep, p) {
		n++
		p = q + sep.length
	}
	return min(n+1, limit)
}

// Split is String.prototype.split with a string separator. limit is the
// limit after ToUint32 (2^32-1 for undefined; a negative limit also means
// none). An empty separator splits s into its code units; an empty s
// gives [""] for a non-empty separator and [] for an empty one.
func (s *String) Split(sep *String, limit int) []*String {
	if limit < 0 {
		limit = math.MaxInt
	}
	if limit == 0 {
		return []*String{}
	}
	s.flatten()
	sep.flatten()
	if sep.length == 0 {
		out := make([]*String, min(limit, s.length))
		for i := range out {
			out[i] = s.unitString(i)
		}
		return out
	}
	if s.length == 0 {
		return []*String{s}
	}
	if !s.isWide && !sep.isWide {
		// Count the pieces, to allocate them together.
		block := make([]String, min(strings.Count(s.ascii, sep.ascii)+1, limit))
		out := make([]*String, len(block))
		p := 0
		for i := range block {
			q := strings.Index(s.ascii[p:], sep.ascii)
			if q < 0 {
				q = len(s.ascii) - p
			}
			block[i] = String{ascii: s.ascii[p : p+q], length: q}
			out[i] = &block[i]
			p += q + sep.length
		}
		return out
	}
	var out []*String
	p := 0
	for q := s.index(sep, 0); q >= 0 && len(out) < limit; q = s.index(sep, p) {
		out = append(out, s.Slice(p, q))
		p = q + sep.length
	}
	if len(out) < limit {
		out = append(out, s.Slice(p, s.length))
	}
	return out
}

// clamp returns n limited to [lo, hi].
func clamp(n, lo, hi int) int { return max(lo, min(n, hi)) }

// LastIndexOf is String.prototype.lastIndexOf: the last index <= from
// where sub occurs, or -1. The caller passes math.MaxInt for an undefined
// or NaN position.
func (s *String) LastIndexOf(sub *String, from int) int {
	if sub.length > s.length {
		return -1
	}
	i := min(clamp(from, 0, s.length), s.length-sub.length)
	s.flatten()
	sub.flatten()
	if !s.isWide && !sub.isWide {
		return strings.LastIndex(s.ascii[:i+sub.length], sub.ascii)
	}
	for ; i >= 0; i-- {
		if s.matchAt(i, sub) {
			return i
		}
	}
	return -1
}

// Includes is String.prototype.includes: whether sub occurs at an index
// >= pos.
func (s *String) Includes(sub *String, pos int) bool {
	return s.index(sub, clamp(pos, 0, s.length)) >= 0
}

// StartsWith is String.prototype.startsWith: whether sub occurs at pos
// (clamped to [0, Len()]).
func (s *String) StartsWith(sub *String, pos int) bool {
	i := clamp(pos, 0, s.length)
	if i+sub.length > s.length {
		return false
	}
	s.flatten()
	return s.matchAt(i, sub)
}

// EndsWith is String.prototype.endsWith: whether sub ends at endPos
// (clamped to [0, Len()]; the caller passes Len() or math.MaxInt for
// undefined).
func (s *String) EndsWith(sub *String, endPos int) bool {
	i := clamp(endPos, 0, s.length) - sub.length
	if i < 0 {
		return false
	}
	s.flatten()
	return s.matchAt(i, sub)
}

// relIndex resolves a relative index as slice does: a negative n counts
// from the end; the result is in [0, length].
func relIndex(n, length int) int {
	if n < 0 {
		return max(length+n, 0)
	}
	return min(n, length)
}

// SliceJS is String.prototype.slice: the code units [start, end), where a
// negative offset counts from the end; empty when start >= end. The caller
// passes math.MaxInt for an undefined end.
func (s *String) SliceJS(start, end int) *String {
	i, j := relIndex(start, s.length), relIndex(end, s.length)
	if i >= j {
		return Empty
	}
	return s.Slice(i, j)
}

// Substring is String.prototype.substring: both offsets clamped to
// [0, Len()], then swapped if start > end.
func (s *String) Substring(start, end int) *String {
	i, j := clamp(start, 0, s.length), clamp(end, 0, s.length)
	if i > j {
		i, j = j, i
	}
	return s.Slice(i, j)
}

// Substr is String.prototype.substr: length code units from start, where
// a negative start counts from the end. The caller passes math.MaxInt for
// an undefined length.
func (s *String) Substr(start, length int) *String {
	i := relIndex(start, s.length)
	n := clamp(length, 0, s.length-i)
	if n == 0 {
		return Empty
	}
	return s.Slice(i, i+n)
}

// AtIndex is String.prototype.at: the one-unit string at index, a negative
// index counting from the end; ok=false (undefined) out of range. (At is
// the raw code unit accessor.)
func (s *String) AtIndex(index int) (*String, bool) {
	if index < 0 {
		index += s.length
	}
	if index < 0 || index >= s.length {
		return nil, false
	}
	return s.unitString(index), true
}

// CharAt is String.prototype.charAt: the one-unit string at pos, or the
// empty string out of range (negative positions do not count from the end).
func (s *String) CharAt(pos int) *String {
	if pos < 0 || pos >= s.length {
		return Empty
	}
	return s.unitString(pos)
}

// CharCodeAt is String.prototype.charCodeAt: the code unit at pos; ok=false
// (NaN) out of range.
func (s *String) CharCodeAt(pos int) (uint16, bool) {
	if pos < 0 || pos >= s.length {
		return 0, false
	}
	return s.At(pos), true
}

// CodePointAt is String.prototype.codePointAt: the code point that starts
// at pos (a surrogate pair's, or the code unit itself when it is not a
// leading surrogate followed by a trailing one); ok=false (undefined) out
// of range.
func (s *String) CodePointAt(pos int) (rune, bool) {
	if pos < 0 || pos >= s.length {
		return 0, false
	}
	s.flatten()
	if !s.isWide {
		return rune(s.ascii[pos]), true
	}
	r, _ := runeAt(s.wide, pos)
	return r, true
}

// loneSurrogate returns the index of the first lone surrogate in w, or -1.
func loneSurrogate(w []uint16) int {
	for i := 0; i < len(w); i++ {
		if utf16.IsSurrogate(rune(w[i])) {
			if _, n := runeAt(w, i); n == 1 {
				return i
			}
			i++
		}
	}
	return -1
}

// IsWellFormed is String.prototype.isWellFormed: whether s holds no lone
// surrogate.
func (s *String) IsWellFormed() bool {
	s.flatten()
	return !s.isWide || loneSurrogate(s.wide) < 0
}

// ToWellFormed is String.prototype.toWellFormed: s with every lone
// surrogate replaced by U+FFFD; s itself if there is none.
func (s *String) ToWellFormed() *String {
	s.flatten()
	if !s.isWide {
		return s
	}
	i := loneSurrogate(s.wide)
	if i < 0 {
		return s
	}
	w := append([]uint16(nil), s.wide...)
	for ; i < len(w); i++ {
		if utf16.IsSurrogate(rune(w[i])) {
			if _, n := runeAt(w, i); n == 2 {
				i++
			} else {
				w[i] = 0xFFFD
			}
		}
	}
	return &String{wide: w, isWide: true, length: len(w)}
}

// ReplaceFirstString is String.prototype.replace with a string pattern and
// a replacement string: the first occurrence of pattern replaced by
// replacement with GetSubstitution's patterns expanded ("$$" is "$", "$&"
// the match, "$`" what precedes it, "$'" what follows it; "$1", "$<" and a
// "$" before anything else stay as they are, as a string pattern has no
// captures). It returns s when pattern does not occur, and ok=false (a
// RangeError) when the result would be longer than MaxStringLength.
func (s *String) ReplaceFirstString(pattern, replacement *String) (*String, bool) {
	return s.replace(pattern, replacement, false)
}

// ReplaceAllString is String.prototype.replaceAll with a string pattern
// and a replacement string: every occurrence, found left to right without
// overlap, replaced as ReplaceFirstString does. An empty pattern matches
// before every code unit and at the end.
func (s *String) ReplaceAllString(pattern, replacement *String) (*String, bool) {
	return s.replace(pattern, replacement, true)
}

func (s *String) replace(pattern, repl *String, all bool) (*String, bool) {
	s.flatten()
	pattern.flatten()
	repl.flatten()
	q := s.index(pattern, 0)
	if q < 0 {
		return s, true
	}
	b := newBuilder(s.length + repl.length)
	p := 0 // the end of the last match
	for q >= 0 {
		if b.len()+q-p > MaxStringLength {
			return nil, false
		}
		b.add(s, p, q)
		if !substitute(&b, s, q, q+pattern.length, repl) {
			return nil, false
		}
		p = q + pattern.length
		if !all {
			break
		}
		q = s.index(pattern, q+max(pattern.length, 1))
	}
	if b.len()+s.length-p > MaxStringLength {
		return nil, false
	}
	b.add(s, p, s.length)
	return b.done(), true
}

// substitute appends GetSubstitution(matched = s[i:j], str = s,
// position = i, no captures, replacement template repl) to b; false when
// the result would pass MaxStringLength.
func substitute(b *builder, s *String, i, j int, repl *String) bool {
	part := func(t *String, from, to int) bool {
		if b.len()+to-from > MaxStringLength {
			return false
		}
		b.add(t, from, to)
		return true
	}
	n, lit := repl.length, 0 // repl[lit:k] is literal text not yet added
	for k := 0; k+1 < n; k++ {
		if repl.At(k) != '$' {
			continue
		}
		var ok bool
		switch repl.At(k + 1) {
		case '$':
			ok = part(repl, lit, k+1) // one "$"
		case '&':
			ok = part(repl, lit, k) && part(s, i, j)
		case '`':
			ok = part(repl, lit, k) && part(s, 0, i)
		case '\'':
			ok = part(repl, lit, k) && part(s, j, s.length)
		default:
			continue
		}
		if !ok {
			return false
		}
		k++
		lit = k + 1
	}
	return part(repl, lit, n)
}

// FromCharCode is String.fromCharCode for code units the caller has made
// with ToUint16.
func FromCharCode(units ...uint16) *String {
	return FromUTF16(append([]uint16(nil), units...))
}

// FromCodePoint is String.fromCodePoint for integers the caller has made
// (a non-integer is the caller's RangeError): ok=false (a RangeError) when
// one is negative or above 0x10FFFF. Surrogate code points become lone
// surrogates.
func FromCodePoint(cps ...int) (*String, bool) {
	b := newBuilder(len(cps))
	for _, cp := range cps {
		if cp < 0 || cp > unicode.MaxRune {
			return nil, false
		}
		b.rune(rune(cp))
	}
	return b.done(), true
}
