package ast

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-codemode/codemode/internal/jsnum"
	"github.com/go-codemode/codemode/internal/jsregex"
	"github.com/tdewolff/parse/v2/js"
)

func (p *parser) parseNumber() Expr {
	start, raw := p.pos, p.text()
	p.next()
	if strings.HasSuffix(raw, "n") {
		return &BigIntLit{At: At{start}, Raw: raw}
	}
	v, ok := parseNumberText(raw)
	if !ok {
		p.failAt(start, "Invalid number %s", raw)
	}
	return alloc(&p.a.numbers, NumberLit{At: At{start}, Value: v, Raw: raw})
}

// parseNumberText converts a numeric literal's text (decimal, 0x, 0o, 0b,
// with _ separators) to its value, with the correct rounding jsnum gives
// the same forms at run time. A literal the lexer accepted is never NaN.
func parseNumberText(raw string) (float64, bool) {
	// Most literals are small decimal integers, exact in a float64.
	if len(raw) <= 15 {
		n := 0
		for i := 0; i < len(raw); i++ {
			c := raw[i]
			if c < '0' || c > '9' {
				n = -1
				break
			}
			n = 10*n + int(c-'0')
		}
		if n >= 0 {
			return float64(n), true
		}
	}
	v := jsnum.Parse(strings.ReplaceAll(raw, "_", ""))
	return v, !math.IsNaN(v)
}

func (p *parser) parseStringLit() *StringLit {
	start, raw := p.pos, p.text()
	p.next()
	value, errOff, msg := decodeEscapes(raw[1:len(raw)-1], false)
	if msg != "" {
		p.failAt(start+1+Pos(errOff), "%s", msg)
	}
	return alloc(&p.a.strings, StringLit{At: At{start}, Value: value, Raw: raw})
}

func (p *parser) parseRegExp() Expr {
	start, raw := p.pos, p.text()
	p.next()
	i := strings.LastIndexByte(raw, '/')
	pattern, flags := raw[1:i], raw[i+1:]
	seen := 0
	for _, c := range flags {
		bit := strings.IndexRune("dgimsuyv", c)
		if bit < 0 || seen&(1<<bit) != 0 {
			p.failAt(start+Pos(i+1), "Invalid regular expression flags")
		}
		seen |= 1 << bit
	}
	if strings.ContainsRune(flags, 'u') && strings.ContainsRune(flags, 'v') {
		p.failAt(start+Pos(i+1), "Invalid regular expression flags")
	}
	// A pattern error is an early error, reported at the literal as V8
	// reports it (the message is the RegExp constructor's SyntaxError's).
	if err := jsregex.Validate(pattern, flags); err != nil {
		p.failAt(start, "%s", err.Error())
	}
	return &RegExpLit{At: At{start}, Pattern: pattern, Flags: flags}
}

// parseTemplate parses a template literal starting at the current
// TemplateToken or TemplateStartToken. In a tagged template an invalid
// escape leaves the piece's Cooked value nil instead of failing.
func (p *parser) parseTemplate(tagged bool) *TemplateLit {
	t := alloc(&p.a.templates, TemplateLit{At: At{p.pos}})
	mq, mx := p.a.quasis.mark(), p.a.exprs.mark()
	add := func(rawWithDelims string, cut int) {
		start := p.pos + 1
		raw := rawWithDelims[1 : len(rawWithDelims)-cut]
		raw = strings.ReplaceAll(strings.ReplaceAll(raw, "\r\n", "\n"), "\r", "\n")
		el := alloc(&p.a.templElems, TemplateElement{At: At{start}, Raw: raw})
		cooked, errOff, msg := decodeEscapes(raw, true)
		if msg == "" {
			el.Cooked = alloc(&p.a.cooked, cooked)
		} else if !tagged {
			p.failAt(start+Pos(errOff), "%s", msg)
		}
		p.a.quasis.push(el)
	}
	if p.tt == js.TemplateToken {
		add(p.text(), 1)
		t.Quasis = p.a.quasis.finish(mq)
		p.next()
		return t
	}
	add(p.text(), 2) // `...${
	p.enter()
	defer p.leave()
	for {
		p.next()
		p.a.exprs.push(p.parseExpression(false))
		switch p.tt {
		case js.TemplateMiddleToken:
			add(p.text(), 2) // }...${
		case js.TemplateEndToken:
			add(p.text(), 1) // }...`
			t.Quasis, t.Exprs = p.a.quasis.finish(mq), p.a.exprs.finish(mx)
			p.next()
			return t
		default:
			p.unexpected()
		}
	}
}

// decodeEscapes decodes the escapes of a string literal body (or a
// template piece) into WTF-8. It returns the offset and message of the
// first invalid escape; strict mode forbids octal escapes in strings, and
// templates forbid them too.
func decodeEscapes(s string, template bool) (string, int, string) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, 0, ""
	}
	var units []uint16
	var b strings.Builder
	flush := func() {
		if len(units) > 0 {
			b.WriteString(utf16ToWTF8(units))
			units = units[:0]
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			flush()
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			i += size
			continue
		}
		escStart := i
		i++
		if i >= len(s) {
			return "", escStart, "Invalid or unexpected token"
		}
		c = s[i]
		i++
		switch c {
		case 'n':
			units = append(units, '\n')
		case 't':
			units = append(units, '\t')
		case 'r':
			units = append(units, '\r')
		case 'b':
			units = append(units, '\b')
		case 'f':
			units = append(units, '\f')
		case 'v':
			units = append(units, '\v')
		case '0':
			if i < len(s) && s[i] >= '0' && s[i] <= '9' {
				return "", escStart, octalEscapeMessage(template)
			}
			units = append(units, 0)
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if template {
				return "", escStart, "Octal escape sequences are not allowed in template strings"
			}
			if c >= '8' {
				return "", escStart, "\\8 and \\9 are not allowed in strict mode."
			}
			return "", escStart, "Octal escape sequences are not allowed in strict mode."
		case 'x':
			if i+2 > len(s) || !isHex(s[i]) || !isHex(s[i+1]) {
				return "", escStart, "Invalid hexadecimal escape sequence"
			}
			v, _ := strconv.ParseUint(s[i:i+2], 16, 8)
			units = append(units, uint16(v))
			i += 2
		case 'u':
			r, n, ok := parseUnicodeEscape(s[i:])
			if !ok {
				return "", escStart, "Invalid Unicode escape sequence"
			}
			i += n
			if r >= 0x10000 {
				units = append(units, uint16(0xD800+((r-0x10000)>>10)), uint16(0xDC00+((r-0x10000)&0x3FF)))
			} else {
				units = append(units, uint16(r))
			}
		case '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
		case '\n':
			// line continuation
		default:
			flush()
			if c >= 0x80 {
				r, size := utf8.DecodeRuneInString(s[i-1:])
				i += size - 1
				if r == '\u2028' || r == '\u2029' {
					continue // line continuation
				}
				b.WriteRune(r)
				continue
			}
			b.WriteByte(c)
		}
	}
	flush()
	return b.String(), 0, ""
}

func octalEscapeMessage(template bool) string {
	if template {
		return "Octal escape sequences are not allowed in template strings"
	}
	return "Octal escape sequences are not allowed in strict mode."
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// parseUnicodeEscape parses what follows \u: XXXX or {X...}. It returns
// the code point and the number of bytes used.
func parseUnicodeEscape(s string) (rune, int, bool) {
	if strings.HasPrefix(s, "{") {
		end := strings.IndexByte(s, '}')
		if end < 2 {
			return 0, 0, false
		}
		v, err := strconv.ParseUint(s[1:end], 16, 32)
		if err != nil || v > 0x10FFFF {
			return 0, 0, false
		}
		return rune(v), end + 1, true
	}
	if len(s) < 4 {
		return 0, 0, false
	}
	for i := 0; i < 4; i++ {
		if !isHex(s[i]) {
			return 0, 0, false
		}
	}
	v, _ := strconv.ParseUint(s[:4], 16, 32)
	return rune(v), 4, true
}

// utf16ToWTF8 encodes UTF-16 code units as WTF-8: pairs become their code
// point, lone surrogates their own 3-byte form.
func utf16ToWTF8(units []uint16) string {
	var b []byte
	for i := 0; i < len(units); i++ {
		u := rune(units[i])
		if u >= 0xD800 && u < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] < 0xE000 {
			r := 0x10000 + (u-0xD800)<<10 + (rune(units[i+1]) - 0xDC00)
			b = utf8.AppendRune(b, r)
			i++
			continue
		}
		if u >= 0xD800 && u < 0xE000 {
			b = append(b, byte(0xE0|u>>12), byte(0x80|(u>>6)&0x3F), byte(0x80|u&0x3F))
			continue
		}
		b = utf8.AppendRune(b, u)
	}
	return string(b)
}

// decodeIdentEscapes decodes \uXXXX and \u{X} escapes in an identifier.
func decodeIdentEscapes(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		if i+1 >= len(s) || s[i+1] != 'u' {
			return "", false
		}
		r, n, ok := parseUnicodeEscape(s[i+2:])
		if !ok || r >= 0xD800 && r < 0xE000 {
			return "", false
		}
		enc := string(r)
		if b.Len() == 0 && !js.IsIdentifierStart([]byte(enc)) || b.Len() > 0 && !js.IsIdentifierContinue([]byte(enc)) || r == '\\' {
			return "", false
		}
		b.WriteRune(r)
		i += 2 + n
	}
	return b.String(), true
}
