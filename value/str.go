// Package value is the JavaScript value model shared by both engines.
//
// This file holds the string type. JavaScript strings are sequences of
// UTF-16 code units and may hold lone surrogates, which UTF-8 cannot. A
// *String keeps one of two flat forms, an ASCII Go string (one byte per
// code unit, the fast path nearly every program lives on) or a []uint16,
// and, for the result of + and +=, a rope: a pair of strings flattened once,
// when first indexed or compared. That is what makes `s += x` in a loop
// linear instead of quadratic.
package value

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxStringLength is the longest string a program may build (2^24 code
// units, as the reference limits it); longer is a RangeError "Invalid
// string length".
const MaxStringLength = 1 << 24

// ropeMin is the length under which concatenation copies at once: a rope
// node costs more than copying a few bytes.
const ropeMin = 32

// String is an immutable JavaScript string. The zero value is not valid;
// use NewString, FromUTF16 or Concat. A rope flattens itself in place on
// first use, so a *String is not safe for concurrent use while it may be
// an unflattened rope (strings a run builds belong to that run).
type String struct {
	ascii  string   // the flat form when every code unit is ASCII
	wide   []uint16 // the flat form otherwise
	isWide bool
	// left and right are set while the string is an unflattened rope.
	left, right *String
	length      int
}

// Empty is the empty string.
var Empty = &String{}

// NewString converts Go text to a JavaScript string. The text is WTF-8:
// UTF-8, where a lone surrogate may appear in its generalized 3-byte form
// (as the parser keeps string literals). Invalid bytes become U+FFFD.
func NewString(s string) *String {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			u := wtf8ToUTF16(s)
			return &String{wide: u, isWide: true, length: len(u)}
		}
	}
	return &String{ascii: s, length: len(s)}
}

// FromUTF16 makes a string of UTF-16 code units. It keeps the slice.
func FromUTF16(units []uint16) *String {
	for _, u := range units {
		if u >= utf8.RuneSelf {
			return &String{wide: units, isWide: true, length: len(units)}
		}
	}
	b := make([]byte, len(units))
	for i, u := range units {
		b[i] = byte(u)
	}
	return &String{ascii: string(b), length: len(units)}
}

// Len is the length in UTF-16 code units, JavaScript's s.length.
func (s *String) Len() int { return s.length }

// IsASCII reports whether every code unit is ASCII.
func (s *String) IsASCII() bool {
	s.flatten()
	return !s.isWide
}

// At returns the code unit at index i (0 <= i < Len()).
func (s *String) At(i int) uint16 {
	s.flatten()
	if s.isWide {
		return s.wide[i]
	}
	return uint16(s.ascii[i])
}

// Units returns the code units. For an ASCII string it makes them.
func (s *String) Units() []uint16 {
	s.flatten()
	if s.isWide {
		return s.wide
	}
	u := make([]uint16, len(s.ascii))
	for i := 0; i < len(s.ascii); i++ {
		u[i] = uint16(s.ascii[i])
	}
	return u
}

// String returns the text as UTF-8, with each lone surrogate replaced by
// U+FFFD: the form that crosses to the host and into JSON.
func (s *String) String() string {
	s.flatten()
	if !s.isWide {
		return s.ascii
	}
	return string(utf16.Decode(s.wide))
}

// Key returns the string as a property key: WTF-8, which keeps lone
// surrogates, so that distinct JavaScript strings stay distinct keys. For
// ASCII strings it costs nothing.
func (s *String) Key() string {
	s.flatten()
	if !s.isWide {
		return s.ascii
	}
	return utf16ToWTF8(s.wide)
}

// Bytes is what the string costs in memory, for the run's budget.
func (s *String) Bytes() int {
	if s.left != nil {
		return 48 // a rope node; its parts were counted when made
	}
	if s.isWide {
		return 48 + 2*len(s.wide)
	}
	return 48 + len(s.ascii)
}

// Concat returns a + b. Short results are copied; long ones become a rope
// that is flattened once, when first read. The caller checks the result's
// length against MaxStringLength before calling.
func Concat(a, b *String) *String {
	switch {
	case a.length == 0:
		return b
	case b.length == 0:
		return a
	}
	n := a.length + b.length
	if n >= ropeMin {
		return &String{left: a, right: b, length: n}
	}
	a.flatten()
	b.flatten()
	if !a.isWide && !b.isWide {
		return &String{ascii: a.ascii + b.ascii, length: n}
	}
	u := make([]uint16, 0, n)
	u = append(u, a.Units()...)
	u = append(u, b.Units()...)
	return &String{wide: u, isWide: true, length: n}
}

// flatten turns a rope into a flat string, in place. It walks the rope
// with an explicit stack: a loop of 100,000 appends builds a rope that
// deep, which recursion would not survive.
func (s *String) flatten() {
	if s.left == nil {
		return
	}
	wide := false
	var leaves []*String
	stack := []*String{s}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.left != nil {
			stack = append(stack, n.right, n.left)
			continue
		}
		if n.isWide {
			wide = true
		}
		leaves = append(leaves, n)
	}
	if wide {
		u := make([]uint16, 0, s.length)
		for _, l := range leaves {
			u = append(u, l.Units()...)
		}
		s.wide, s.isWide = u, true
	} else {
		var b strings.Builder
		b.Grow(s.length)
		for _, l := range leaves {
			b.WriteString(l.ascii)
		}
		s.ascii = b.String()
	}
	s.left, s.right = nil, nil
}

// Slice returns the code units [i, j).
func (s *String) Slice(i, j int) *String {
	if i == 0 && j == s.length {
		return s
	}
	s.flatten()
	if j == i+1 && !s.isWide {
		return asciiChars[s.ascii[i]] // shared: no string per character
	}
	if s.isWide {
		return FromUTF16(s.wide[i:j])
	}
	return &String{ascii: s.ascii[i:j], length: j - i}
}

// Equal reports whether a and b hold the same code units.
func Equal(a, b *String) bool {
	if a == b {
		return true
	}
	if a.length != b.length {
		return false
	}
	a.flatten()
	b.flatten()
	if !a.isWide && !b.isWide {
		return a.ascii == b.ascii
	}
	for i := 0; i < a.length; i++ {
		if a.At(i) != b.At(i) {
			return false
		}
	}
	return true
}

// Compare orders strings by code units, as JavaScript's < does: -1, 0 or 1.
func Compare(a, b *String) int {
	a.flatten()
	b.flatten()
	if !a.isWide && !b.isWide {
		return strings.Compare(a.ascii, b.ascii)
	}
	n := min(a.length, b.length)
	for i := 0; i < n; i++ {
		x, y := a.At(i), b.At(i)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	switch {
	case a.length < b.length:
		return -1
	case a.length > b.length:
		return 1
	}
	return 0
}

// IndexOf returns the first index >= from where sub occurs, or -1.
func (s *String) IndexOf(sub *String, from int) int {
	if from < 0 {
		from = 0
	}
	if sub.length == 0 {
		return min(from, s.length)
	}
	s.flatten()
	sub.flatten()
	if !s.isWide && !sub.isWide {
		if from > len(s.ascii) {
			return -1
		}
		i := strings.Index(s.ascii[from:], sub.ascii)
		if i < 0 {
			return -1
		}
		return from + i
	}
	first := sub.At(0)
outer:
	for i := from; i+sub.length <= s.length; i++ {
		if s.At(i) != first {
			continue
		}
		for j := 1; j < sub.length; j++ {
			if s.At(i+j) != sub.At(j) {
				continue outer
			}
		}
		return i
	}
	return -1
}

// wtf8ToUTF16 decodes WTF-8 (UTF-8 plus generalized surrogates) into
// UTF-16 code units; other invalid bytes become U+FFFD.
func wtf8ToUTF16(s string) []uint16 {
	u := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			u = append(u, uint16(c))
			i++
			continue
		}
		// A generalized surrogate: ED A0..BF 80..BF.
		if c == 0xED && i+2 < len(s) && s[i+1]&0xE0 == 0xA0 && s[i+2]&0xC0 == 0x80 {
			u = append(u, uint16(0xD000|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F)))
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		u = utf16.AppendRune(u, r)
		i += size
	}
	return u
}

// utf16ToWTF8 encodes code units as WTF-8: pairs become their code point,
// lone surrogates their generalized 3-byte form.
func utf16ToWTF8(units []uint16) string {
	b := make([]byte, 0, len(units))
	for i := 0; i < len(units); i++ {
		u := rune(units[i])
		if utf16.IsSurrogate(u) {
			if u < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] < 0xE000 {
				b = utf8.AppendRune(b, utf16.DecodeRune(u, rune(units[i+1])))
				i++
				continue
			}
			b = append(b, byte(0xE0|u>>12), byte(0x80|(u>>6)&0x3F), byte(0x80|u&0x3F))
			continue
		}
		b = utf8.AppendRune(b, u)
	}
	return string(b)
}

// Builder assembles a string from parts in one buffer: template literals
// and string + number, which would otherwise make a string per part.
// The zero value is ready to use.
type Builder struct {
	b    strings.Builder
	wide []uint16 // set once a non-ASCII part arrives
}

// Grow reserves room for n more code units.
func (b *Builder) Grow(n int) { b.b.Grow(n) }

// Len is the number of code units so far.
func (b *Builder) Len() int {
	if b.wide != nil {
		return len(b.wide)
	}
	return b.b.Len()
}

// WriteString appends s.
func (b *Builder) WriteString(s *String) {
	if b.wide == nil && !s.isWideFlat() {
		s.flatten()
		b.b.WriteString(s.ascii)
		return
	}
	b.widen()
	b.wide = append(b.wide, s.Units()...)
}

// WriteNumber appends a number as Number::toString writes it.
func (b *Builder) WriteNumber(f float64) {
	if f >= 0 && f < 1e15 && f == float64(int64(f)) && !signbit(f) {
		var scratch [24]byte
		digits := strconv.AppendInt(scratch[:0], int64(f), 10)
		if b.wide != nil {
			for _, c := range digits {
				b.wide = append(b.wide, uint16(c))
			}
			return
		}
		b.b.Write(digits)
		return
	}
	b.WriteString(NumberToString(f))
}

func (s *String) isWideFlat() bool {
	s.flatten()
	return s.isWide
}

func (b *Builder) widen() {
	if b.wide != nil {
		return
	}
	text := b.b.String()
	b.wide = make([]uint16, len(text), len(text)+16)
	for i := 0; i < len(text); i++ {
		b.wide[i] = uint16(text[i])
	}
}

// String returns the assembled string.
func (b *Builder) String() *String {
	if b.wide != nil {
		return FromUTF16(b.wide)
	}
	s := b.b.String()
	return &String{ascii: s, length: len(s)}
}
