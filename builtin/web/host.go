package web

// Percent-encoding sets and the URL host parser: domains (through
// domainToASCII), IPv4 in every form the standard accepts (0x7f.1),
// IPv6 with its compressed serialization, and opaque hosts of
// non-special schemes.

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// A percent-encode set is the ASCII code points it holds; every code
// point above U+007E is always in the set.
var (
	c0ControlSet    = makeSet(nil, "")
	fragmentSet     = makeSet(c0ControlSet, " \"<>`")
	querySet        = makeSet(c0ControlSet, " \"#<>")
	specialQuerySet = makeSet(querySet, "'")
	pathSet         = makeSet(querySet, "?^`{}")
	userinfoSet     = makeSet(pathSet, "/:;=@[\\]|")
	componentSet    = makeSet(userinfoSet, "$%&+,")
	formSet         = makeSet(componentSet, "!'()~")
)

func makeSet(base *[128]bool, extra string) *[128]bool {
	s := &[128]bool{}
	if base != nil {
		*s = *base
	} else {
		for c := 0; c < 0x20; c++ {
			s[c] = true
		}
		s[0x7F] = true
	}
	for i := 0; i < len(extra); i++ {
		s[extra[i]] = true
	}
	return s
}

const upperHex = "0123456789ABCDEF"

// percentEncodeRune writes c, UTF-8 percent-encoded when it is in set.
func percentEncodeRune(b *strings.Builder, c rune, set *[128]bool) {
	if c >= 0 && c < 0x80 && !set[c] {
		b.WriteRune(c)
		return
	}
	var tmp [4]byte
	n := utf8.EncodeRune(tmp[:], c)
	for _, x := range tmp[:n] {
		b.WriteByte('%')
		b.WriteByte(upperHex[x>>4])
		b.WriteByte(upperHex[x&15])
	}
}

// percentEncode encodes every code point of s that is in set; with
// spaceAsPlus (the form encoding), a space becomes '+'.
func percentEncode(s string, set *[128]bool, spaceAsPlus bool) string {
	var b strings.Builder
	for _, c := range s {
		if spaceAsPlus && c == ' ' {
			b.WriteByte('+')
			continue
		}
		percentEncodeRune(&b, c, set)
	}
	return b.String()
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// percentDecode turns %XX sequences into bytes; a '%' not followed by
// two hex digits stays as it is.
func percentDecode(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			h, ok1 := hexVal(s[i+1])
			l, ok2 := hexVal(s[i+2])
			if ok1 && ok2 {
				out = append(out, h<<4|l)
				i += 2
				continue
			}
		}
		out = append(out, s[i])
	}
	return out
}

// forbiddenHost reports a forbidden host code point.
func forbiddenHost(c rune) bool {
	switch c {
	case 0, '\t', '\n', '\r', ' ', '#', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
		return true
	}
	return false
}

// forbiddenDomain reports a forbidden domain code point.
func forbiddenDomain(c rune) bool {
	return forbiddenHost(c) || c <= 0x1F || c == '%' || c == 0x7F
}

// parseHost is the host parser: it returns the serialized host.
func parseHost(input string, opaque bool) (string, bool) {
	if strings.HasPrefix(input, "[") {
		if !strings.HasSuffix(input, "]") || len(input) < 2 {
			return "", false
		}
		addr, ok := parseIPv6(input[1 : len(input)-1])
		if !ok {
			return "", false
		}
		return "[" + serializeIPv6(addr) + "]", true
	}
	if opaque {
		for _, c := range input {
			if forbiddenHost(c) {
				return "", false
			}
		}
		return percentEncode(input, c0ControlSet, false), true
	}
	raw := percentDecode(input)
	// UTF-8 decode without BOM: invalid sequences become U+FFFD, which
	// domainToASCII then rejects.
	domain := strings.TrimPrefix(utf8DecodeLossy(raw), "\uFEFF")
	ascii, ok := domainToASCII(domain)
	if !ok {
		return "", false
	}
	if endsInNumber(ascii) {
		v, ok := parseIPv4(ascii)
		if !ok {
			return "", false
		}
		return serializeIPv4(v), true
	}
	return ascii, true
}

// endsInNumber is the "ends in a number" checker.
func endsInNumber(s string) bool {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" {
		all := true
		for i := 0; i < len(last); i++ {
			if last[i] < '0' || last[i] > '9' {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	_, ok := parseIPv4Number(last)
	return ok
}

// parseIPv4Number parses one dotted part (decimal, 0x hex or 0 octal);
// values past 2^32 saturate, as anything that large fails anyway.
func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	radix := uint64(10)
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, radix = s[2:], 16
	case len(s) >= 2 && s[0] == '0':
		s, radix = s[1:], 8
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		d, ok := hexVal(s[i])
		if !ok || uint64(d) >= radix {
			return 0, false
		}
		if v <= 1<<40 {
			v = v*radix + uint64(d)
		}
	}
	return v, true
}

// parseIPv4 is the IPv4 parser.
func parseIPv4(s string) (uint32, bool) {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return 0, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return 0, false
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return 0, false
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return 0, false
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return uint32(v), true
}

func serializeIPv4(v uint32) string {
	return strconv.Itoa(int(v>>24)) + "." + strconv.Itoa(int(v>>16&255)) + "." +
		strconv.Itoa(int(v>>8&255)) + "." + strconv.Itoa(int(v&255))
}

// parseIPv6 is the IPv6 parser.
func parseIPv6(s string) ([8]uint16, bool) {
	var addr [8]uint16
	in := []rune(s)
	at := func(i int) rune {
		if i < len(in) {
			return in[i]
		}
		return eof
	}
	piece, compress := 0, -1
	p := 0
	if at(p) == ':' {
		if at(p+1) != ':' {
			return addr, false
		}
		p += 2
		piece++
		compress = piece
	}
	for at(p) != eof {
		if piece == 8 {
			return addr, false
		}
		if at(p) == ':' {
			if compress >= 0 {
				return addr, false
			}
			p++
			piece++
			compress = piece
			continue
		}
		value, length := 0, 0
		for length < 4 && isASCIIHex(at(p)) {
			d, _ := hexVal(byte(at(p)))
			value = value*16 + int(d)
			p++
			length++
		}
		if at(p) == '.' {
			if length == 0 {
				return addr, false
			}
			p -= length
			if piece > 6 {
				return addr, false
			}
			seen := 0
			for at(p) != eof {
				ipv4Piece := -1
				if seen > 0 {
					if at(p) == '.' && seen < 4 {
						p++
					} else {
						return addr, false
					}
				}
				if !isASCIIDigit(at(p)) {
					return addr, false
				}
				for isASCIIDigit(at(p)) {
					n := int(at(p) - '0')
					switch {
					case ipv4Piece == -1:
						ipv4Piece = n
					case ipv4Piece == 0:
						return addr, false
					default:
						ipv4Piece = ipv4Piece*10 + n
					}
					if ipv4Piece > 255 {
						return addr, false
					}
					p++
				}
				addr[piece] = addr[piece]*0x100 + uint16(ipv4Piece)
				seen++
				if seen == 2 || seen == 4 {
					piece++
				}
			}
			if seen != 4 {
				return addr, false
			}
			break
		} else if at(p) == ':' {
			p++
			if at(p) == eof {
				return addr, false
			}
		} else if at(p) != eof {
			return addr, false
		}
		addr[piece] = uint16(value)
		piece++
	}
	if compress >= 0 {
		swaps := piece - compress
		piece = 7
		for piece != 0 && swaps > 0 {
			addr[piece], addr[compress+swaps-1] = addr[compress+swaps-1], addr[piece]
			piece--
			swaps--
		}
	} else if piece != 8 {
		return addr, false
	}
	return addr, true
}

// serializeIPv6 writes the address with the first longest run of two or
// more zero pieces compressed to "::".
func serializeIPv6(a [8]uint16) string {
	start, best := -1, 1
	for i := 0; i < 8; {
		if a[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && a[j] == 0 {
			j++
		}
		if j-i > best {
			start, best = i, j-i
		}
		i = j
	}
	var b strings.Builder
	ignore0 := false
	for i := 0; i < 8; i++ {
		if ignore0 && a[i] == 0 {
			continue
		}
		ignore0 = false
		if i == start {
			if i == 0 {
				b.WriteString("::")
			} else {
				b.WriteByte(':')
			}
			ignore0 = true
			continue
		}
		b.WriteString(strconv.FormatUint(uint64(a[i]), 16))
		if i != 7 {
			b.WriteByte(':')
		}
	}
	return b.String()
}
