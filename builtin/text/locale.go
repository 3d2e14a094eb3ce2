package text

import (
	"sync"
	"unicode/utf16"

	"github.com/go-codemode/codemode/value"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// normalize and localeCompare, on golang.org/x/text: Unicode normalization
// forms and the root collation (CLDR's, which ICU and so V8 use for
// localeCompare without a locale; codemode ignores the locale argument).

// normalize is String.prototype.normalize. x/text works on UTF-8, which
// cannot hold a lone surrogate; a lone surrogate is a starter that no
// normalization form changes or combines with, so the text is normalized
// in the runs between lone surrogates and they are kept where they are.
func normalize(r *value.Realm, s *value.String, form string) *value.String {
	var f norm.Form
	switch form {
	case "NFC":
		f = norm.NFC
	case "NFD":
		f = norm.NFD
	case "NFKC":
		f = norm.NFKC
	case "NFKD":
		f = norm.NFKD
	default:
		r.ThrowRange("The normalization form should be one of NFC, NFD, NFKC, NFKD.")
	}
	if s.IsASCII() {
		return s // every form leaves ASCII alone
	}
	units := s.Units()
	var out []uint16
	changed := false
	r.Reserve(2 * len(units)) // the copy the result usually is
	segment := func(seg []uint16) {
		// In pieces cut at normalization boundaries, each piece one
		// short call, ticking as it goes: a 16 M-unit string is seconds
		// of work in one call to x/text.
		for len(seg) > 0 {
			n := normPiece(f, seg)
			r.Tick(n)
			text := string(utf16.Decode(seg[:n]))
			if f.IsNormalString(text) {
				out = append(out, seg[:n]...)
			} else {
				changed = true
				for _, c := range f.String(text) {
					out = utf16.AppendRune(out, c)
				}
			}
			if len(out) > value.MaxStringLength {
				r.ThrowRange("Invalid string length")
			}
			seg = seg[n:]
		}
	}
	start := 0
	for i := 0; i < len(units); i++ {
		u := units[i]
		if u < 0xD800 || u > 0xDFFF {
			continue
		}
		if u < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF {
			i++ // a pair
			continue
		}
		segment(units[start:i])
		out = append(out, u)
		start = i + 1
	}
	segment(units[start:])
	if !changed {
		return s
	}
	if len(out) > value.MaxStringLength {
		r.ThrowRange("Invalid string length")
	}
	return charge(r, value.FromUTF16(out))
}

// normChunk is how many code units normalize hands x/text at once.
const normChunk = 1 << 14

// normPiece returns the length of the next piece of seg to normalize on
// its own: all of it when short, else up to the last normalization
// boundary in the first normChunk units (text normalizes independently
// on either side of a boundary), or the whole chunk when it has none (a
// run of thousands of combining marks, which no form reorders across
// more than a few dozen marks anyway).
func normPiece(f norm.Form, seg []uint16) int {
	if len(seg) <= normChunk {
		return len(seg)
	}
	n := normChunk
	if u := seg[n-1]; u >= 0xD800 && u < 0xDC00 {
		n-- // keep a pair together
	}
	text := string(utf16.Decode(seg[:n]))
	b := f.LastBoundary([]byte(text))
	if b <= 0 {
		return n
	}
	return len(utf16.Encode([]rune(text[:b])))
}

// collators holds root collators for reuse: a Collator keeps buffers and
// is not safe for concurrent use.
var collators = sync.Pool{New: func() any { return collate.New(language.Und) }}

// localeCompare is String.prototype.localeCompare: -1, 0 or 1 by the root
// collation, so that "a" < "A" < "á" < "b" and canonically equivalent
// strings compare equal.
//
// Long strings are compared a piece at a time, ticking per piece, so that
// one call never runs long past the deadline: first the common prefix
// is skipped (equal text collates equal), then pieces of collateChunk
// units cut at the same safe point are compared in turn, the first that
// differs deciding. That is exact while the difference lies in the first
// piece after the common prefix (every string up to collateChunk units
// past it); beyond, a tertiary difference in an earlier piece wins over
// a primary one in a later piece, where full UCA would let the primary
// one win.
func localeCompare(r *value.Realm, a, b *value.String) int {
	if value.Equal(a, b) {
		return 0
	}
	c := collators.Get().(*collate.Collator)
	defer collators.Put(c)
	if a.Len() <= collateChunk && b.Len() <= collateChunk {
		r.Tick(a.Len() + b.Len())
		return c.CompareString(a.String(), b.String())
	}
	// At and Slice read the strings in place: an ASCII string is never
	// copied into code units.
	la, lb := a.Len(), b.Len()
	p := 0
	for p < la && p < lb && a.At(p) == b.At(p) {
		p++
	}
	r.Tick(p / 16)
	p = safeCut(a, b, p, 0)
	piece := func(s *value.String, i, j int) string { return s.Slice(i, j).String() }
	for {
		ea, eb := min(p+collateChunk, la), min(p+collateChunk, lb)
		if ea < la && eb < lb {
			ea = safeCut(a, b, ea, p)
			eb = ea
		}
		r.Tick(8 * (ea - p + eb - p))
		if res := c.CompareString(piece(a, p, ea), piece(b, p, eb)); res != 0 || ea == la || eb == lb {
			if res == 0 && (ea < la || eb < lb) {
				return c.CompareString(piece(a, ea, min(ea+collateChunk, la)), piece(b, eb, min(eb+collateChunk, lb)))
			}
			return res
		}
		p = ea
	}
}

// collateChunk is how many code units localeCompare collates at once.
const collateChunk = 1 << 16

// safeCut moves a cut at p (in both a and b) back to where neither
// collation element can span it: an ASCII unit before and ASCII units
// (or the end) after, in both strings, so that no combining mark or
// contraction joins the two sides. It looks back at most 64 units, and
// not before floor; without such a point it keeps p off a surrogate pair.
func safeCut(a, b *value.String, p, floor int) int {
	ascii := func(s *value.String, i int) bool { return i >= s.Len() || s.At(i) < 0x80 }
	for q := p; q > floor && q > p-64; q-- {
		if a.At(q-1) < 0x80 && b.At(q-1) < 0x80 && ascii(a, q) && ascii(b, q) {
			return q
		}
	}
	if p > floor && p < a.Len() {
		if u := a.At(p - 1); u >= 0xD800 && u < 0xDC00 {
			p--
		}
	}
	return p
}
