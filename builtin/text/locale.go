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
	segment := func(seg []uint16) {
		text := string(utf16.Decode(seg))
		if f.IsNormalString(text) {
			out = append(out, seg...)
			return
		}
		changed = true
		for _, c := range f.String(text) {
			out = utf16.AppendRune(out, c)
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

// collators holds root collators for reuse: a Collator keeps buffers and
// is not safe for concurrent use.
var collators = sync.Pool{New: func() any { return collate.New(language.Und) }}

// localeCompare is String.prototype.localeCompare: -1, 0 or 1 by the root
// collation, so that "a" < "A" < "á" < "b" and canonically equivalent
// strings compare equal.
func localeCompare(a, b *value.String) int {
	if value.Equal(a, b) {
		return 0
	}
	c := collators.Get().(*collate.Collator)
	defer collators.Put(c)
	return c.CompareString(a.String(), b.String())
}
