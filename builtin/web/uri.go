package web

// encodeURI, encodeURIComponent, decodeURI, decodeURIComponent (ECMA-262
// Encode and Decode, over UTF-16 code units) and atob/btoa (node's
// forgiving-base64 checks, in node's order, so its two messages come out
// where node gives them).

import (
	"encoding/base64"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-codemode/codemode/value"
)

func installURI(l *value.Library) {
	for _, n := range []*value.Native{encodeURINative, encodeURIComponentNative, decodeURINative, decodeURIComponentNative, atobNative, btoaNative} {
		globalFunc(l, n)
	}
}

const uriMalformed = "URI malformed"

// uriUnreserved marks the ASCII code units encodeURIComponent leaves as
// they are; uriReserved adds those encodeURI also leaves.
var uriUnreserved, uriReservedPlus = func() (a, b [128]bool) {
	for c := 'a'; c <= 'z'; c++ {
		a[c], a[c-32] = true, true
	}
	for c := '0'; c <= '9'; c++ {
		a[c] = true
	}
	for _, c := range "-_.!~*'()" {
		a[c] = true
	}
	b = a
	for _, c := range ";/?:@&=+$,#" {
		b[c] = true
	}
	return
}()

var (
	encodeURINative = native("encodeURI", 1, func(r *value.Realm, c *value.Call) value.Value {
		return uriEncode(r, r.ToString(c.Arg(0)), &uriReservedPlus)
	})
	encodeURIComponentNative = native("encodeURIComponent", 1, func(r *value.Realm, c *value.Call) value.Value {
		return uriEncode(r, r.ToString(c.Arg(0)), &uriUnreserved)
	})
	decodeURINative = native("decodeURI", 1, func(r *value.Realm, c *value.Call) value.Value {
		return uriDecode(r, r.ToString(c.Arg(0)), ";/?:@&=+$,#")
	})
	decodeURIComponentNative = native("decodeURIComponent", 1, func(r *value.Realm, c *value.Call) value.Value {
		return uriDecode(r, r.ToString(c.Arg(0)), "")
	})
)

// uriEncode is the specification's Encode.
func uriEncode(r *value.Realm, s *value.String, keep *[128]bool) value.Value {
	n := s.Len()
	r.Reserve(n)
	out := make([]byte, 0, n)
	var tmp [4]byte
	for k := 0; k < n; k++ {
		if k&0xFFF == 0 {
			r.Tick(0x1000) // per 4,096 units: a Poll here would check every 4 M
		}
		u := s.At(k)
		if u < 128 && keep[u] {
			out = append(out, byte(u))
			continue
		}
		cp := rune(u)
		if utf16.IsSurrogate(cp) {
			if u >= 0xDC00 || k+1 >= n {
				r.ThrowError(value.URIError, uriMalformed)
			}
			lo := s.At(k + 1)
			if lo < 0xDC00 || lo > 0xDFFF {
				r.ThrowError(value.URIError, uriMalformed)
			}
			cp = utf16.DecodeRune(cp, rune(lo))
			k++
		}
		m := utf8.EncodeRune(tmp[:], cp)
		for _, b := range tmp[:m] {
			out = append(out, '%', upperHex[b>>4], upperHex[b&15])
		}
		if len(out) > value.MaxStringLength {
			r.ThrowRange("Invalid string length")
		}
	}
	r.Charge(len(out))
	return value.StrOf(string(out))
}

// uriDecode is the specification's Decode; escapes of the ASCII
// characters in preserve stay escaped.
func uriDecode(r *value.Realm, s *value.String, preserve string) value.Value {
	n := s.Len()
	r.Reserve(2 * n)
	out := make([]uint16, 0, n)
	hexAt := func(k int) byte {
		if k+2 >= n || s.At(k) != '%' || s.At(k+1) > 127 || s.At(k+2) > 127 {
			r.ThrowError(value.URIError, uriMalformed)
		}
		h, ok1 := hexVal(byte(s.At(k + 1)))
		l, ok2 := hexVal(byte(s.At(k + 2)))
		if !ok1 || !ok2 {
			r.ThrowError(value.URIError, uriMalformed)
		}
		return h<<4 | l
	}
	for k := 0; k < n; k++ {
		if k&0xFFF == 0 {
			r.Tick(0x1000) // per 4,096 units: a Poll here would check every 4 M
		}
		u := s.At(k)
		if u != '%' {
			out = append(out, u)
			continue
		}
		start := k
		b := hexAt(k)
		k += 2
		if b < 0x80 {
			if preserve != "" && containsByte(preserve, b) {
				for i := start; i <= k; i++ {
					out = append(out, s.At(i))
				}
			} else {
				out = append(out, uint16(b))
			}
			continue
		}
		var size int
		switch {
		case b&0xE0 == 0xC0:
			size = 2
		case b&0xF0 == 0xE0:
			size = 3
		case b&0xF8 == 0xF0:
			size = 4
		default:
			r.ThrowError(value.URIError, uriMalformed)
		}
		buf := []byte{b}
		for j := 1; j < size; j++ {
			k++
			if k >= n {
				r.ThrowError(value.URIError, uriMalformed)
			}
			c := hexAt(k)
			if c&0xC0 != 0x80 {
				r.ThrowError(value.URIError, uriMalformed)
			}
			buf = append(buf, c)
			k += 2
		}
		cp, w := utf8.DecodeRune(buf)
		if cp == utf8.RuneError || w != size {
			r.ThrowError(value.URIError, uriMalformed)
		}
		out = utf16.AppendRune(out, cp)
	}
	r.Charge(2 * len(out))
	return value.Str(value.FromUTF16(out))
}

func containsByte(s string, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return true
		}
	}
	return false
}

// base64 alphabet membership for atob's checks.
func isBase64Char(u uint16) bool {
	return u >= 'A' && u <= 'Z' || u >= 'a' && u <= 'z' || u >= '0' && u <= '9' || u == '+' || u == '/'
}

func isASCIIWhitespace(u uint16) bool {
	return u == '\t' || u == '\n' || u == '\f' || u == '\r' || u == ' '
}

var (
	atobNative = native("atob", 1, func(r *value.Realm, c *value.Call) value.Value {
		if len(c.Args) == 0 {
			throwCoded(r, value.TypeError, "ERR_MISSING_ARGS", `The "input" argument must be specified`)
		}
		s := r.ToString(c.Args[0])
		n := s.Len()
		// A scan, a copy and a decode of n units; the clean copy and the
		// result (two bytes a unit when wide) are checked first.
		// The work is ticked as the scan goes, so that a huge input
		// still ends at the deadline.
		r.Reserve(n + 2*n*3/4)
		clean := make([]byte, 0, n)
		count, equals := 0, 0
		for i := 0; i < n; i++ {
			if i%value.TickInterval == 0 {
				r.Tick(value.TickInterval)
			}
			u := s.At(i)
			switch {
			case isASCIIWhitespace(u):
				continue
			case u == '=':
				count++
				equals++
				if equals > 2 {
					throwDOM(r, "InvalidCharacterError", 5, "Invalid character")
				}
			case isBase64Char(u):
				count++
				if equals > 0 {
					throwDOM(r, "InvalidCharacterError", 5, "Invalid character")
				}
				clean = append(clean, byte(u))
			default:
				throwDOM(r, "InvalidCharacterError", 5, "Invalid character")
			}
		}
		rem := count % 4
		if rem == 0 {
			rem = (count - equals) % 4
		} else if equals > 0 {
			throwDOM(r, "InvalidCharacterError", 5, "Invalid character")
		}
		if rem == 1 {
			throwDOM(r, "InvalidCharacterError", 5, "The string to be decoded is not correctly encoded.")
		}
		raw := decodeBase64Loose(clean, false)
		r.Charge(len(raw) * 2)
		return value.Str(latin1String(raw))
	})
	btoaNative = native("btoa", 1, func(r *value.Realm, c *value.Call) value.Value {
		if len(c.Args) == 0 {
			throwCoded(r, value.TypeError, "ERR_MISSING_ARGS", `The "input" argument must be specified`)
		}
		s := r.ToString(c.Args[0])
		n := s.Len()
		r.Tick(4 * n)
		r.Reserve(n + base64.StdEncoding.EncodedLen(n))
		raw := make([]byte, n)
		for i := 0; i < n; i++ {
			u := s.At(i)
			if u > 0xFF {
				throwDOM(r, "InvalidCharacterError", 5, "Invalid character")
			}
			raw[i] = byte(u)
		}
		if base64.StdEncoding.EncodedLen(n) > value.MaxStringLength {
			r.ThrowRange("Invalid string length")
		}
		out := base64.StdEncoding.EncodeToString(raw)
		r.Charge(len(out))
		return value.StrOf(out)
	})
)

// decodeBase64Loose decodes base64 digits (no padding, no whitespace),
// ignoring the bits of an incomplete final group as node does; url
// selects the base64url alphabet.
func decodeBase64Loose(digits []byte, url bool) []byte {
	out := make([]byte, 0, len(digits)*3/4)
	var acc uint32
	bits := 0
	for _, d := range digits {
		acc = acc<<6 | uint32(base64Value(d, url))
		bits += 6
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(acc>>bits))
		}
	}
	return out
}

// base64Value is a digit's value (the caller has checked the digit).
func base64Value(d byte, url bool) byte {
	switch {
	case d >= 'A' && d <= 'Z':
		return d - 'A'
	case d >= 'a' && d <= 'z':
		return d - 'a' + 26
	case d >= '0' && d <= '9':
		return d - '0' + 52
	case d == '+' && !url, d == '-' && url:
		return 62
	}
	return 63
}

// latin1String makes a string whose code units are the bytes.
func latin1String(b []byte) *value.String {
	ascii := true
	for _, x := range b {
		if x >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return value.NewString(string(b))
	}
	u := make([]uint16, len(b))
	for i, x := range b {
		u[i] = uint16(x)
	}
	return value.FromUTF16(u)
}
