package ast

// A json module's value is built as literal nodes: objects, arrays,
// strings, numbers, booleans and null, exactly as JSON.parse would make
// it. JSON.parse defines "__proto__" as an own property where an object
// literal would set the prototype, so such a key is made a computed one,
// ["__proto__"]: v, which defines it. Nesting is bounded by MaxDepth, as in
// programs; nothing recurses deeper than that.

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonExpr parses a JSON text into the expression of its value. Nodes are
// placed at base plus their offset in text; an error's Pos is an offset
// into text.
func jsonExpr(text string, base int) (x Expr, err *Error) {
	j := &jsonParser{s: text, base: base}
	defer func() {
		if rec := recover(); rec != nil {
			b, ok := rec.(bailout)
			if !ok {
				panic(rec)
			}
			x, err = nil, b.err
		}
	}()
	x = j.value()
	j.space()
	if j.i < len(j.s) {
		j.fail("Unexpected non-whitespace character after JSON")
	}
	return x, nil
}

type jsonParser struct {
	s     string
	i     int
	base  int
	depth int
}

func (j *jsonParser) fail(format string, args ...any) {
	panic(bailout{&Error{Pos: Pos(j.i), Msg: fmt.Sprintf(format, args...)}})
}

func (j *jsonParser) at() At { return At{Pos(j.base + j.i)} }

func (j *jsonParser) space() {
	for j.i < len(j.s) && (j.s[j.i] == ' ' || j.s[j.i] == '\t' || j.s[j.i] == '\n' || j.s[j.i] == '\r') {
		j.i++
	}
}

// unexpected fails at the current character.
func (j *jsonParser) unexpected() {
	if j.i >= len(j.s) {
		j.fail("Unexpected end of JSON input")
	}
	r, _ := utf8.DecodeRuneInString(j.s[j.i:])
	j.fail("Unexpected token '%c'", r)
}

func (j *jsonParser) value() Expr {
	j.space()
	if j.i >= len(j.s) {
		j.unexpected()
	}
	at := j.at()
	switch c := j.s[j.i]; {
	case c == '{':
		return j.object()
	case c == '[':
		return j.array()
	case c == '"':
		return j.str()
	case c == '-' || c >= '0' && c <= '9':
		return j.number()
	case strings.HasPrefix(j.s[j.i:], "true"):
		j.i += 4
		return &BoolLit{At: at, Value: true}
	case strings.HasPrefix(j.s[j.i:], "false"):
		j.i += 5
		return &BoolLit{At: at, Value: false}
	case strings.HasPrefix(j.s[j.i:], "null"):
		j.i += 4
		return &NullLit{At: at}
	}
	j.unexpected()
	return nil
}

func (j *jsonParser) enter() {
	j.depth++
	if j.depth > MaxDepth {
		j.fail("The value is nested too deeply (more than %d levels)", MaxDepth)
	}
}

func (j *jsonParser) object() Expr {
	j.enter()
	o := &ObjectLit{At: j.at()}
	j.i++ // {
	j.space()
	if j.i < len(j.s) && j.s[j.i] == '}' {
		j.i++
		j.depth--
		return o
	}
	for {
		j.space()
		if j.i >= len(j.s) || j.s[j.i] != '"' {
			if j.i >= len(j.s) {
				j.unexpected()
			}
			j.fail("Expected property name or '}'")
		}
		key := j.str()
		j.space()
		if j.i >= len(j.s) || j.s[j.i] != ':' {
			if j.i >= len(j.s) {
				j.unexpected()
			}
			j.fail("Expected ':' after property name")
		}
		j.i++
		v := j.value()
		o.Props = append(o.Props, &Property{At: key.At, Kind: PropInit, Key: key, Value: v, Computed: key.Value == "__proto__"})
		j.space()
		if j.i < len(j.s) && j.s[j.i] == ',' {
			j.i++
			continue
		}
		if j.i < len(j.s) && j.s[j.i] == '}' {
			j.i++
			j.depth--
			return o
		}
		if j.i >= len(j.s) {
			j.unexpected()
		}
		j.fail("Expected ',' or '}' after property value")
	}
}

func (j *jsonParser) array() Expr {
	j.enter()
	a := &ArrayLit{At: j.at()}
	j.i++ // [
	j.space()
	if j.i < len(j.s) && j.s[j.i] == ']' {
		j.i++
		j.depth--
		return a
	}
	for {
		a.Elems = append(a.Elems, j.value())
		j.space()
		if j.i < len(j.s) && j.s[j.i] == ',' {
			j.i++
			continue
		}
		if j.i < len(j.s) && j.s[j.i] == ']' {
			j.i++
			j.depth--
			return a
		}
		if j.i >= len(j.s) {
			j.unexpected()
		}
		j.fail("Expected ',' or ']' after array element")
	}
}

// str parses a string into its value as WTF-8 (see StringLit).
func (j *jsonParser) str() *StringLit {
	at := j.at()
	j.i++ // "
	start := j.i
	for j.i < len(j.s) && j.s[j.i] != '"' && j.s[j.i] != '\\' && j.s[j.i] >= 0x20 {
		j.i++
	}
	if j.i < len(j.s) && j.s[j.i] == '"' { // no escapes: the text is the value
		v := j.s[start:j.i]
		j.i++
		return &StringLit{At: at, Value: v, Raw: quoteJS(v)}
	}
	var b strings.Builder
	b.WriteString(j.s[start:j.i])
	var units []uint16 // escaped UTF-16 units, which may pair up
	flush := func() {
		if len(units) > 0 {
			b.WriteString(utf16ToWTF8(units))
			units = units[:0]
		}
	}
	for {
		if j.i >= len(j.s) {
			j.fail("Unterminated string in JSON")
		}
		switch c := j.s[j.i]; {
		case c == '"':
			flush()
			j.i++
			v := b.String()
			return &StringLit{At: at, Value: v, Raw: quoteJS(v)}
		case c < 0x20:
			j.fail("Bad control character in string literal in JSON")
		case c != '\\':
			flush()
			b.WriteByte(c)
			j.i++
			continue
		}
		if j.i+1 >= len(j.s) {
			j.fail("Unterminated string in JSON")
		}
		switch e := j.s[j.i+1]; e {
		case '"', '\\', '/':
			flush()
			b.WriteByte(e)
		case 'b':
			units = append(units, '\b')
		case 'f':
			units = append(units, '\f')
		case 'n':
			units = append(units, '\n')
		case 'r':
			units = append(units, '\r')
		case 't':
			units = append(units, '\t')
		case 'u':
			h := j.i + 2
			if h+4 > len(j.s) || !isHex(j.s[h]) || !isHex(j.s[h+1]) || !isHex(j.s[h+2]) || !isHex(j.s[h+3]) {
				j.fail("Bad Unicode escape in JSON")
			}
			v, _ := strconv.ParseUint(j.s[h:h+4], 16, 16)
			units = append(units, uint16(v))
			j.i += 4
		default:
			j.fail("Bad escaped character in JSON")
		}
		j.i += 2
	}
}

// number parses a number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (j *jsonParser) number() Expr {
	at := j.at()
	start := j.i
	neg := j.s[j.i] == '-'
	if neg {
		j.i++
	}
	digits := func() int {
		n := 0
		for j.i < len(j.s) && j.s[j.i] >= '0' && j.s[j.i] <= '9' {
			j.i++
			n++
		}
		return n
	}
	switch {
	case j.i < len(j.s) && j.s[j.i] == '0':
		j.i++
	case digits() == 0:
		j.fail("No number after minus sign in JSON")
	}
	if j.i < len(j.s) && j.s[j.i] == '.' {
		j.i++
		if digits() == 0 {
			j.fail("Unterminated fractional number in JSON")
		}
	}
	if j.i < len(j.s) && (j.s[j.i] == 'e' || j.s[j.i] == 'E') {
		j.i++
		if j.i < len(j.s) && (j.s[j.i] == '+' || j.s[j.i] == '-') {
			j.i++
		}
		if digits() == 0 {
			j.fail("Exponent part is missing a number in JSON")
		}
	}
	raw := j.s[start:j.i]
	if neg {
		raw = raw[1:]
	}
	v, _ := strconv.ParseFloat(raw, 64) // out of range: ±Inf or 0, as in JavaScript
	var x Expr = &NumberLit{At: At{at.Start + Pos(len(j.s[start:j.i])-len(raw))}, Value: v, Raw: raw}
	if neg {
		x = &Unary{At: at, Op: OpNeg, X: x}
	}
	return x
}
