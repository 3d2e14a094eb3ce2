package web

// Domain to ASCII (https://url.spec.whatwg.org/#concept-domain-to-ascii)
// with beStrict false: UTS #46 processing, non-transitional, without
// STD3 rules or DNS length checks, and Punycode (RFC 3492).
//
// The UTS #46 mapping table is approximated from the Unicode data Go and
// golang.org/x/text carry: NFKC, full case folding (except the
// deviation characters ß and ς, which non-transitional processing
// keeps), the ideographic full stops as '.', default-ignorable code
// points dropped; then disallowed code points (controls, private use,
// unassigned, noncharacters, U+FFFD) fail, as do labels that begin
// with a combining mark or are not NFC. The Bidi and ContextJ rules are
// approximated: the Bidi rule (RFC 5893, from golang.org/x/text) applies
// when a label holds a right-to-left or Arabic-number code point, and a
// joiner must follow a virama. ASCII hosts, nearly all of them, are
// only lowercased, as node does.

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/secure/bidirule"
	"golang.org/x/text/unicode/bidi"
	"golang.org/x/text/unicode/norm"
)

// domainToASCII returns the ASCII form of a domain, or false.
func domainToASCII(domain string) (string, bool) {
	ascii := true
	for i := 0; i < len(domain); i++ {
		if domain[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	var out string
	if ascii {
		// As node does, ASCII input is only lowercased: xn-- labels are
		// not decoded to be checked.
		out = strings.ToLower(domain)
	} else {
		var ok bool
		out, ok = uts46ToASCII(domain)
		if !ok {
			return "", false
		}
	}
	if out == "" {
		return "", false
	}
	for _, c := range out {
		if forbiddenDomain(c) {
			return "", false
		}
	}
	return out, true
}

var folder = cases.Fold()

// uts46Map is the mapping step of UTS #46 processing.
func uts46Map(s string) (string, bool) {
	for _, c := range s {
		// Code points whose compatibility form holds a full stop (⒈)
		// are disallowed, not mapped.
		if c >= 0x80 && c != 0x3002 && c != 0xFF0E && c != 0xFF61 && strings.ContainsRune(norm.NFKC.String(string(c)), '.') {
			return "", false
		}
	}
	s = norm.NFKC.String(s)
	var b strings.Builder
	var run strings.Builder
	flush := func() {
		if run.Len() > 0 {
			b.WriteString(folder.String(run.String()))
			run.Reset()
		}
	}
	for _, c := range s {
		switch {
		case c == 0x3002 || c == 0xFF0E || c == 0xFF61:
			flush()
			b.WriteByte('.')
		case c == 'ß' || c == 'ς' || c == 0x200C || c == 0x200D:
			flush()
			b.WriteRune(c)
		case c == 0x1E9E: // capital sharp s maps to ß, not "ss"
			flush()
			b.WriteRune('ß')
		case c == 0x00AD || c >= 0xFE00 && c <= 0xFE0F || c >= 0x180B && c <= 0x180F ||
			c == 0x200B || c == 0x2060 || c == 0xFEFF || c == 0x034F || c >= 0xE0100 && c <= 0xE01EF:
			// ignored
		default:
			run.WriteRune(c)
		}
	}
	flush()
	return norm.NFKC.String(b.String()), true
}

// disallowed reports code points UTS #46 does not allow in a label.
func disallowed(c rune) bool {
	switch {
	case c == utf8.RuneError:
		return true
	case c < 0x80:
		return false // forbidden ASCII is the URL parser's to reject
	case c&0xFFFE == 0xFFFE || c >= 0xFDD0 && c <= 0xFDEF:
		return true
	case unicode.In(c, unicode.Cc, unicode.Co, unicode.Cs, unicode.Zl, unicode.Zp, unicode.Zs):
		return true
	case unicode.Is(unicode.Cf, c) && c != 0x200C && c != 0x200D:
		return true
	}
	// Unassigned code points belong to no general category.
	return !unicode.In(c, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Cf)
}

// uts46ToASCII runs UTS #46 ToASCII (non-transitional, CheckHyphens
// false) over a whole domain.
func uts46ToASCII(domain string) (string, bool) {
	mapped, ok := uts46Map(domain)
	if !ok {
		return "", false
	}
	mapped = norm.NFC.String(mapped)
	labels := strings.Split(mapped, ".")
	unicodeLabels := make([]string, len(labels))
	for i, label := range labels {
		unicodeLabels[i] = label
		if len(label) >= 4 && strings.EqualFold(label[:4], "xn--") {
			dec, ok := punyDecode(strings.ToLower(label[4:]))
			if !ok || dec == "" || !validLabel(dec) {
				return "", false
			}
			unicodeLabels[i] = dec
			labels[i] = strings.ToLower(label)
			continue
		}
		if !validLabel(label) {
			return "", false
		}
		if isASCIIString(label) {
			continue
		}
		if len(label) > maxLabelBytes {
			return "", false
		}
		enc, ok := punyEncode(label)
		if !ok {
			return "", false
		}
		labels[i] = "xn--" + enc
	}
	if isBidiDomain(unicodeLabels) {
		for _, l := range unicodeLabels {
			if !bidirule.ValidString(l) {
				return "", false
			}
		}
	}
	return strings.Join(labels, "."), true
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// validLabel checks a label after mapping: NFC, no leading combining
// mark, nothing disallowed, and a joiner only after a virama (the part
// of the ContextJ rules that does not need the joining types).
func validLabel(label string) bool {
	if !norm.NFC.IsNormalString(label) {
		return false
	}
	prevCCC := uint8(0)
	for i, c := range label {
		if i == 0 && unicode.Is(unicode.M, c) {
			return false
		}
		if c == 0x200C || c == 0x200D {
			if prevCCC != 9 {
				return false
			}
		} else if disallowed(c) || c == '.' {
			return false
		}
		prevCCC = norm.NFC.PropertiesString(string(c)).CCC()
	}
	return true
}

// isBidiDomain reports a domain with a right-to-left label: then every
// label must satisfy the Bidi rule (RFC 5893).
func isBidiDomain(labels []string) bool {
	for _, l := range labels {
		for _, c := range l {
			if c < 0x80 {
				continue
			}
			p, _ := bidi.LookupRune(c)
			switch p.Class() {
			case bidi.R, bidi.AL, bidi.AN:
				return true
			}
		}
	}
	return false
}

// maxLabelBytes bounds a non-ASCII label: Punycode's encoder is
// quadratic in the label's distinct code points, and a DNS label cannot
// exceed 63 octets anyway.
const maxLabelBytes = 4096

// Punycode parameters (RFC 3492 section 5).
const (
	pcBase        = 36
	pcTMin        = 1
	pcTMax        = 26
	pcSkew        = 38
	pcDamp        = 700
	pcInitialBias = 72
	pcInitialN    = 128
)

func pcAdapt(delta, numPoints int, first bool) int {
	if first {
		delta /= pcDamp
	} else {
		delta /= 2
	}
	delta += delta / numPoints
	k := 0
	for delta > ((pcBase-pcTMin)*pcTMax)/2 {
		delta /= pcBase - pcTMin
		k += pcBase
	}
	return k + (pcBase-pcTMin+1)*delta/(delta+pcSkew)
}

func pcDigit(d int) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}

// punyEncode encodes a label's code points as Punycode.
func punyEncode(s string) (string, bool) {
	in := []rune(s)
	var out []byte
	for _, c := range in {
		if c < 0x80 {
			out = append(out, byte(c))
		}
	}
	b := len(out)
	h := b
	if b > 0 {
		out = append(out, '-')
	}
	n, delta, bias := pcInitialN, 0, pcInitialBias
	for h < len(in) {
		m := rune(0x7FFFFFFF)
		for _, c := range in {
			if int(c) >= n && c < m {
				m = c
			}
		}
		if (int(m) - n) > (1<<30)/(h+1) {
			return "", false
		}
		delta += (int(m) - n) * (h + 1)
		n = int(m)
		for _, c := range in {
			if int(c) < n {
				delta++
				if delta > 1<<30 {
					return "", false
				}
			}
			if int(c) == n {
				q := delta
				for k := pcBase; ; k += pcBase {
					t := k - bias
					if t < pcTMin {
						t = pcTMin
					} else if t > pcTMax {
						t = pcTMax
					}
					if q < t {
						break
					}
					out = append(out, pcDigit(t+(q-t)%(pcBase-t)))
					q = (q - t) / (pcBase - t)
				}
				out = append(out, pcDigit(q))
				bias = pcAdapt(delta, h+1, h == b)
				delta = 0
				h++
			}
		}
		delta++
		n++
	}
	return string(out), true
}

// punyDecode decodes Punycode (without the xn-- prefix).
func punyDecode(s string) (string, bool) {
	var out []rune
	pos := 0
	if i := strings.LastIndexByte(s, '-'); i >= 0 {
		for j := 0; j < i; j++ {
			if s[j] >= 0x80 {
				return "", false
			}
			out = append(out, rune(s[j]))
		}
		pos = i + 1
	}
	n, i, bias := pcInitialN, 0, pcInitialBias
	for pos < len(s) {
		oldi, w := i, 1
		for k := pcBase; ; k += pcBase {
			if pos >= len(s) {
				return "", false
			}
			c := s[pos]
			pos++
			var d int
			switch {
			case c >= 'a' && c <= 'z':
				d = int(c - 'a')
			case c >= 'A' && c <= 'Z':
				d = int(c - 'A')
			case c >= '0' && c <= '9':
				d = int(c-'0') + 26
			default:
				return "", false
			}
			if d > (1<<30-i)/w {
				return "", false
			}
			i += d * w
			t := k - bias
			if t < pcTMin {
				t = pcTMin
			} else if t > pcTMax {
				t = pcTMax
			}
			if d < t {
				break
			}
			if w > (1<<30)/(pcBase-t) {
				return "", false
			}
			w *= pcBase - t
		}
		bias = pcAdapt(i-oldi, len(out)+1, oldi == 0)
		if i/(len(out)+1) > 0x10FFFF-n {
			return "", false
		}
		n += i / (len(out) + 1)
		i %= len(out) + 1
		if n > 0x10FFFF || n >= 0xD800 && n <= 0xDFFF {
			return "", false
		}
		out = append(out, 0)
		copy(out[i+1:], out[i:])
		out[i] = rune(n)
		i++
	}
	return string(out), true
}
