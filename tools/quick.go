package tools

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// Most tools take a flat object: a few named properties of scalar types,
// some required, perhaps no others allowed. For such an input schema,
// quickSchema decides that an input is valid by scanning its JSON once,
// without building Go values or calling the general validator, which
// costs several microseconds a call. It only ever answers "valid" when
// the validator would: anything it is not sure of (a number with a
// fraction or an exponent, an escaped key, a property it does not know)
// goes to the validator, which also writes the failure messages.

// Kinds of JSON value a property's "type" allows, as bits.
const (
	kindString uint8 = 1 << iota
	kindInteger
	kindNumber
	kindBoolean
	kindNull
	kindObject
	kindArray
	kindAny = 1<<iota - 1
)

var kindNames = map[string]uint8{
	"string": kindString, "integer": kindInteger, "number": kindNumber | kindInteger,
	"boolean": kindBoolean, "null": kindNull, "object": kindObject, "array": kindArray,
}

// quickSchema is a flat object schema in the form the scan checks.
type quickSchema struct {
	props    map[string]quickProp
	required []string
	closed   bool // additionalProperties: false
}

// quickProp is one property's schema: the kinds it allows and, for a
// string enum, the values (raw JSON text without escapes).
type quickProp struct {
	kinds uint8
	enum  []string
}

// annotation keywords change nothing about what validates.
var annotations = map[string]bool{"title": true, "description": true, "$comment": true, "examples": true, "default": true, "deprecated": true, "readOnly": true, "writeOnly": true}

// quickDrafts are the $schema values whose semantics for the keywords
// above are the ones the scan applies.
var quickDrafts = map[string]bool{
	"https://json-schema.org/draft/2020-12/schema":  true,
	"https://json-schema.org/draft/2019-09/schema":  true,
	"http://json-schema.org/draft-07/schema#":       true,
	"http://json-schema.org/draft-07/schema":        true,
	"https://json-schema.org/draft/2020-12/schema#": true,
}

// compileQuick returns the quick form of a schema document, or nil when
// the document is not a flat object schema it can check.
func compileQuick(doc []byte) *quickSchema {
	var root map[string]json.RawMessage
	if json.Unmarshal(doc, &root) != nil || root == nil {
		return nil
	}
	q := &quickSchema{props: map[string]quickProp{}}
	sawObject := false
	for k, raw := range root {
		switch {
		case annotations[k]:
		case k == "$schema":
			var s string
			if json.Unmarshal(raw, &s) != nil || !quickDrafts[s] {
				return nil
			}
		case k == "type":
			var s string
			if json.Unmarshal(raw, &s) != nil || s != "object" {
				return nil
			}
			sawObject = true
		case k == "properties":
			var props map[string]json.RawMessage
			if json.Unmarshal(raw, &props) != nil || props == nil {
				return nil
			}
			for name, ps := range props {
				p, ok := compileQuickProp(ps)
				if !ok {
					return nil
				}
				q.props[name] = p
			}
		case k == "required":
			if json.Unmarshal(raw, &q.required) != nil {
				return nil
			}
		case k == "additionalProperties":
			var b bool
			if json.Unmarshal(raw, &b) != nil {
				return nil
			}
			q.closed = !b
		default:
			return nil
		}
	}
	if !sawObject {
		return nil
	}
	return q
}

func compileQuickProp(raw json.RawMessage) (quickProp, bool) {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("true")) {
		return quickProp{kinds: kindAny}, true
	}
	var ps map[string]json.RawMessage
	if json.Unmarshal(raw, &ps) != nil || ps == nil {
		return quickProp{}, false
	}
	p := quickProp{kinds: kindAny}
	for k, v := range ps {
		switch {
		case annotations[k]:
		case k == "format":
			// Formats the compiler registers as annotations never fail.
			var f string
			if json.Unmarshal(v, &f) != nil || !slices.Contains(annotationFormats, f) {
				return quickProp{}, false
			}
		case k == "type":
			var one string
			var many []string
			if json.Unmarshal(v, &one) == nil {
				many = []string{one}
			} else if json.Unmarshal(v, &many) != nil || len(many) == 0 {
				return quickProp{}, false
			}
			p.kinds = 0
			for _, t := range many {
				bit, ok := kindNames[t]
				if !ok {
					return quickProp{}, false
				}
				p.kinds |= bit
			}
		case k == "enum":
			var vals []json.RawMessage
			if json.Unmarshal(v, &vals) != nil || len(vals) == 0 {
				return quickProp{}, false
			}
			for _, e := range vals {
				e = bytes.TrimSpace(e)
				if len(e) < 2 || e[0] != '"' || bytes.IndexByte(e, '\\') >= 0 || !utf8.Valid(e) {
					return quickProp{}, false
				}
				p.enum = append(p.enum, string(e))
			}
		default:
			return quickProp{}, false
		}
	}
	return p, true
}

// valid reports that data certainly validates; false means "ask the
// validator", not "invalid".
func (q *quickSchema) valid(data []byte) bool {
	if !json.Valid(data) {
		return false
	}
	s := scanner{data: data}
	s.space()
	if !s.byte('{') {
		return false
	}
	var seen uint64 // required properties present, by index
	s.space()
	if s.byte('}') {
		return len(q.required) == 0
	}
	for {
		s.space()
		key, ok := s.plainString()
		if !ok {
			return false
		}
		s.space()
		s.byte(':')
		s.space()
		start := s.i
		kind, ok := s.value()
		if !ok {
			return false
		}
		p, known := q.props[string(key)]
		if !known {
			if q.closed {
				return false
			}
		} else if !p.allows(kind, data[start:s.i]) {
			return false
		}
		if i := slices.Index(q.required, string(key)); i >= 0 && i < 64 {
			seen |= 1 << i
		}
		s.space()
		if s.byte('}') {
			break
		}
		if !s.byte(',') {
			return false
		}
	}
	for i := range q.required {
		if i >= 64 || seen&(1<<i) == 0 {
			return false
		}
	}
	return true
}

// allows reports that a value of kind, with text raw, certainly passes.
func (p quickProp) allows(kind uint8, raw []byte) bool {
	if p.kinds&kind == 0 {
		return false
	}
	if p.enum != nil {
		return kind == kindString && slices.Contains(p.enum, string(raw))
	}
	return true
}

// scanner walks JSON text that json.Valid accepted.
type scanner struct {
	data []byte
	i    int
}

func (s *scanner) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) byte(c byte) bool {
	if s.i < len(s.data) && s.data[s.i] == c {
		s.i++
		return true
	}
	return false
}

// plainString reads a string with no escapes and valid UTF-8 and
// returns its contents; false for any other.
func (s *scanner) plainString() ([]byte, bool) {
	if !s.byte('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case '\\':
			return nil, false
		case '"':
			str := s.data[start:s.i]
			s.i++
			return str, utf8.Valid(str)
		}
		s.i++
	}
	return nil, false
}

// value skips one value and returns its kind: a number only as an
// integer or number when its value is certain (a plain integer literal,
// or a short decimal without exponent); false when unsure.
func (s *scanner) value() (uint8, bool) {
	if s.i >= len(s.data) {
		return 0, false
	}
	switch c := s.data[s.i]; {
	case c == '"':
		s.i++
		for s.i < len(s.data) {
			switch s.data[s.i] {
			case '\\':
				s.i += 2
				continue
			case '"':
				s.i++
				return kindString, true
			}
			s.i++
		}
		return 0, false
	case c == '{' || c == '[':
		kind := kindObject
		if c == '[' {
			kind = kindArray
		}
		depth := 0
		for s.i < len(s.data) {
			switch s.data[s.i] {
			case '"':
				if _, ok := s.value(); !ok {
					return 0, false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return kind, true
				}
			}
			s.i++
		}
		return 0, false
	case c == 't':
		s.i += 4
		return kindBoolean, true
	case c == 'f':
		s.i += 5
		return kindBoolean, true
	case c == 'n':
		s.i += 4
		return kindNull, true
	}
	start := s.i
	fraction := false
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c >= '0' && c <= '9' || c == '-':
		case c == '.':
			fraction = true
		case c == 'e' || c == 'E' || c == '+':
			return 0, false
		default:
			goto end
		}
		s.i++
	}
end:
	if s.i-start > 20 {
		return 0, false // beyond float64's exact integers; the validator decides
	}
	if fraction {
		// 1.0 is an integer to the validator; a number either way.
		return kindNumber, !bytes.HasSuffix(bytes.TrimRight(s.data[start:s.i], "0"), []byte("."))
	}
	return kindInteger, true
}
