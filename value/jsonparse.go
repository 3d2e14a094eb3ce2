package value

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSON.parse without a reviver (the reviver is a walk over the result that
// calls program code, so it belongs with the engines). The parser is
// iterative, with its own stack of open containers, so that no nesting,
// however deep, can exhaust the Go stack; error messages are V8's, with
// positions in UTF-16 code units.

// JSONProtos are the prototypes JSON.parse gives the objects and arrays it
// makes.
type JSONProtos struct {
	Object, Array *Object
}

// JSONError is a JSON.parse failure: engines throw it as a SyntaxError
// with Message.
type JSONError struct {
	Message string
}

func (e *JSONError) Error() string { return "SyntaxError: " + e.Message }

// Meter is told the size of each allocation JSON.parse makes, before it
// is made where the size is known (an array's elements as they grow), and
// is called with 0 every meterValues values parsed, so that the caller
// can check its deadline during a long parse; an error from it (the
// run's memory budget is spent) stops the parse.
type Meter func(bytes int) error

// meterValues is how many values pass between two progress calls of the
// Meter.
const meterValues = 16

// ParseJSON parses text as JSON.parse does.
func ParseJSON(text *String, protos JSONProtos, meter Meter) (Value, error) {
	p := &jsonParser{src: text.Key(), protos: protos, meter: meter}
	return p.parse()
}

type jsonParser struct {
	src    string // WTF-8
	pos    int    // byte offset into src
	protos JSONProtos
	meter  Meter
	values int // parsed, for the Meter's progress calls
	// strs shares the document's repeated short strings.
	strs Interned
	// sizes are, by nesting depth, how many properties the last object
	// closed there had (objects) and how many elements the last array
	// (arrays): the records of a list have one shape, so each after the
	// first is made at its exact size instead of grown by doubling.
	objSizes, arrSizes []int
}

// sizeHint is the size remembered at depth.
func sizeHint(sizes []int, depth int) int {
	if depth < len(sizes) {
		return sizes[depth]
	}
	return 0
}

// remember records the size of a container closed at depth.
func remember(sizes *[]int, depth, n int) {
	for len(*sizes) <= depth {
		*sizes = append(*sizes, 0)
	}
	(*sizes)[depth] = n
}

// frame is an open array or object on the parser's stack.
type frame struct {
	obj   *Object
	elems []Value // for an array
	key   string  // for an object: the key whose value is being parsed
}

func (p *jsonParser) charge(n int) error {
	if p.meter == nil {
		return nil
	}
	return p.meter(n)
}

func (p *jsonParser) parse() (Value, error) {
	var stack []*frame
	for {
		// Parse one value, or open a container.
		p.skipSpace()
		if p.pos >= len(p.src) {
			return Undefined, p.errEnd()
		}
		var v Value
		switch c := p.src[p.pos]; {
		case c == '{':
			p.pos++
			if err := p.charge(64); err != nil {
				return Undefined, err
			}
			f := &frame{obj: NewObject(p.protos.Object)}
			p.skipSpace()
			if p.pos < len(p.src) && p.src[p.pos] == '}' {
				p.pos++
				v = Obj(f.obj)
				break
			}
			if n := sizeHint(p.objSizes, len(stack)); n > 0 {
				f.obj.Reserve(min(n, maxSizeHint))
			}
			key, err := p.objectKey("Expected property name or '}'")
			if err != nil {
				return Undefined, err
			}
			f.key = key
			stack = append(stack, f)
			continue
		case c == '[':
			p.pos++
			if err := p.charge(64); err != nil {
				return Undefined, err
			}
			p.skipSpace()
			if p.pos < len(p.src) && p.src[p.pos] == ']' {
				p.pos++
				v = Obj(NewArray(p.protos.Array, nil))
				break
			}
			f := &frame{}
			if n := sizeHint(p.arrSizes, len(stack)); n > 0 {
				n = min(n, maxSizeHint)
				if err := p.charge(24 * n); err != nil {
					return Undefined, err
				}
				f.elems = make([]Value, 0, n)
			}
			stack = append(stack, f)
			continue
		case c == '"':
			s, err := p.stringLit()
			if err != nil {
				return Undefined, err
			}
			str, fresh := p.strs.String(s)
			if fresh {
				if err := p.charge(48 + len(s)); err != nil {
					return Undefined, err
				}
			}
			v = Str(str)
		case c == '-' || c >= '0' && c <= '9':
			f, err := p.number()
			if err != nil {
				return Undefined, err
			}
			v = Number(f)
		case c == 't':
			if err := p.literal("true"); err != nil {
				return Undefined, err
			}
			v = True
		case c == 'f':
			if err := p.literal("false"); err != nil {
				return Undefined, err
			}
			v = False
		case c == 'n':
			if err := p.literal("null"); err != nil {
				return Undefined, err
			}
			v = Null
		default:
			return Undefined, p.errToken()
		}

		if p.values++; p.values%meterValues == 0 {
			if err := p.charge(0); err != nil {
				return Undefined, err
			}
		}

		// Attach v to the open containers, closing those that end.
		for {
			if len(stack) == 0 {
				p.skipSpace()
				if p.pos < len(p.src) {
					units, line, col := p.unitPosition(p.pos)
					return Undefined, &JSONError{Message: fmt.Sprintf("Unexpected non-whitespace character after JSON at position %d (line %d column %d)", units, line, col)}
				}
				return v, nil
			}
			f := stack[len(stack)-1]
			p.skipSpace()
			if f.obj == nil { // an array
				if len(f.elems) == cap(f.elems) {
					// Charge the elements' next backing array before
					// it is made.
					grow := max(len(f.elems), 4)
					if err := p.charge(24 * grow); err != nil {
						return Undefined, err
					}
					f.elems = slices.Grow(f.elems, grow)
				}
				f.elems = append(f.elems, v)
				if p.pos < len(p.src) && p.src[p.pos] == ',' {
					p.pos++
					break // parse the next element
				}
				if p.pos >= len(p.src) || p.src[p.pos] != ']' {
					return Undefined, p.errAt("Expected ',' or ']' after array element")
				}
				p.pos++
				v = Obj(NewArray(p.protos.Array, f.elems))
				stack = stack[:len(stack)-1]
				remember(&p.arrSizes, len(stack), len(f.elems))
				continue
			}
			f.obj.Put(f.key, v)
			if err := p.charge(48); err != nil {
				return Undefined, err
			}
			if p.pos < len(p.src) && p.src[p.pos] == ',' {
				p.pos++
				key, err := p.objectKey("Expected double-quoted property name")
				if err != nil {
					return Undefined, err
				}
				f.key = key
				break // parse the next value
			}
			if p.pos >= len(p.src) || p.src[p.pos] != '}' {
				return Undefined, p.errAt("Expected ',' or '}' after property value")
			}
			p.pos++
			v = Obj(f.obj)
			stack = stack[:len(stack)-1]
			remember(&p.objSizes, len(stack), len(f.obj.props))
			if unused := cap(f.obj.props) - len(f.obj.props); unused > 0 {
				// A hint that was too big: the slots are memory too.
				if err := p.charge(64 * unused); err != nil {
					return Undefined, err
				}
			}
		}
	}
}

// maxSizeHint bounds what a remembered size reserves: a hint is a guess.
const maxSizeHint = 16

// objectKey parses `"key" :` and leaves the position at the value.
func (p *jsonParser) objectKey(expected string) (string, error) {
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != '"' {
		return "", p.errAt(expected)
	}
	key, err := p.stringLit()
	if err != nil {
		return "", err
	}
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != ':' {
		return "", p.errAt("Expected ':' after property name")
	}
	p.pos++
	return key, nil
}

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) literal(word string) error {
	for i := 0; i < len(word); i++ {
		if p.pos >= len(p.src) {
			return p.errEnd()
		}
		if p.src[p.pos] != word[i] {
			return p.errToken()
		}
		p.pos++
	}
	return nil
}

// number parses a JSON number at the current position.
func (p *jsonParser) number() (float64, error) {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
		if p.pos >= len(p.src) || !isDigit(p.src[p.pos]) {
			return 0, p.errAt("No number after minus sign")
		}
	}
	if p.src[p.pos] == '0' {
		p.pos++
		if p.pos < len(p.src) && isDigit(p.src[p.pos]) {
			return 0, p.errAt("Unexpected number")
		}
	} else {
		for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
			p.pos++
		}
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if p.pos >= len(p.src) || !isDigit(p.src[p.pos]) {
			return 0, p.errAt("Unterminated fractional number")
		}
		for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
			p.pos++
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if p.pos >= len(p.src) || !isDigit(p.src[p.pos]) {
			return 0, p.errAt("Exponent part is missing a number")
		}
		for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
			p.pos++
		}
	}
	f, err := strconv.ParseFloat(p.src[start:p.pos], 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, p.errAt("Unexpected number")
		}
	}
	return f, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// stringLit parses a JSON string at the current position (on its opening
// quote) and returns its WTF-8 value.
func (p *jsonParser) stringLit() (string, error) {
	p.pos++ // opening quote
	start := p.pos
	// The fast path: no escapes.
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '"' {
			s := p.src[start:p.pos]
			p.pos++
			return s, nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.errAt("Bad control character in string literal")
		}
		p.pos++
	}
	var b strings.Builder
	b.WriteString(p.src[start:p.pos])
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c < 0x20:
			return "", p.errAt("Bad control character in string literal")
		case c != '\\':
			b.WriteByte(c)
			p.pos++
			continue
		}
		p.pos++ // the backslash
		if p.pos >= len(p.src) {
			return "", p.errEnd()
		}
		esc := p.src[p.pos]
		p.pos++
		switch esc {
		case '"', '\\', '/':
			b.WriteByte(esc)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			var units []uint16
			for {
				u, err := p.hex4()
				if err != nil {
					return "", err
				}
				units = append(units, u)
				// Gather a following escape too, so a surrogate pair
				// written as two escapes becomes one code point.
				if p.pos+1 < len(p.src) && p.src[p.pos] == '\\' && p.src[p.pos+1] == 'u' {
					p.pos += 2
					continue
				}
				break
			}
			b.WriteString(utf16ToWTF8(units))
		default:
			p.pos--
			return "", p.errAt("Bad escaped character")
		}
	}
	return "", p.errAt("Unterminated string")
}

func (p *jsonParser) hex4() (uint16, error) {
	var u uint16
	for i := 0; i < 4; i++ {
		if p.pos >= len(p.src) {
			return 0, p.errAt("Bad Unicode escape")
		}
		c := p.src[p.pos]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, p.errAt("Bad Unicode escape")
		}
		u = u<<4 | uint16(d)
		p.pos++
	}
	return u, nil
}

// ---------------------------------------------------------------------------
// Errors, worded and positioned as V8 reports them.

func (p *jsonParser) errEnd() error { return &JSONError{Message: "Unexpected end of JSON input"} }

// errAt reports msg at the current position: "... in JSON at position 7
// (line 1 column 8)".
func (p *jsonParser) errAt(msg string) error {
	units, line, col := p.unitPosition(p.pos)
	return &JSONError{Message: fmt.Sprintf("%s in JSON at position %d (line %d column %d)", msg, units, line, col)}
}

// errToken reports the character at the current position as unexpected,
// quoting the source, or 10 code units of context on each side of it when
// the source is 21 units or longer.
func (p *jsonParser) errToken() error {
	units := wtf8ToUTF16(p.src)
	at, _, _ := p.unitPosition(p.pos)
	token := string(utf16.Decode(units[at : at+tokenUnits(units, at)]))
	const context = 10
	var snippet string
	if len(units) < 2*context+1 {
		snippet = `"` + string(utf16.Decode(units)) + `"`
	} else {
		from, to := max(0, at-context), min(len(units), at+context)
		snippet = `"` + string(utf16.Decode(units[from:to])) + `"`
		if from > 0 {
			snippet = "..." + snippet
		}
		if to < len(units) {
			snippet += "..."
		}
	}
	return &JSONError{Message: fmt.Sprintf("Unexpected token '%s', %s is not valid JSON", token, snippet)}
}

func tokenUnits(units []uint16, at int) int {
	if utf16.IsSurrogate(rune(units[at])) && at+1 < len(units) && units[at] < 0xDC00 && units[at+1] >= 0xDC00 {
		return 2
	}
	return 1
}

// unitPosition converts a byte offset to a UTF-16 index and a 1-based
// line and column (lines end at \n).
func (p *jsonParser) unitPosition(off int) (units, line, col int) {
	line, col = 1, 1
	for i := 0; i < off && i < len(p.src); {
		c := p.src[i]
		n, size := 1, 1
		if c >= utf8.RuneSelf {
			r, s := utf8.DecodeRuneInString(p.src[i:])
			size = s
			if r >= 0x10000 {
				n = 2
			}
			if r == utf8.RuneError && s == 1 && c == 0xED && i+2 < len(p.src) {
				size = 3 // a generalized surrogate: one unit
			}
		}
		units += n
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col += n
		}
		i += size
	}
	return units, line, col
}
