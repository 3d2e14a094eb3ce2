package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-codemode/codemode/internal/jsnum"
)

// The renderer works on a small JSON model of its own rather than on
// map[string]any, because the reference is JavaScript and two of its
// observable behaviours depend on JavaScript objects:
//
//   - property order: an object enumerates its array-index keys ("0", "123")
//     first in ascending numeric order, then its other keys in insertion
//     order. The reference's quoted-keys example depends on it
//     ('{ "123"?: number; "foo-bar"?: string; ... }').
//   - spreading `{...schema, $ref: undefined}` leaves the key present but
//     undefined, which the empty-struct check can see.
//
// Values are nil (null), bool, float64, string, []any, *object, or
// undefined (only inside the renderer's own copies).

// object is a parsed JSON object: keys in JavaScript enumeration order.
type object struct {
	keys []string
	vals map[string]any
}

// undefined marks a key that the reference spreads away ({...s, k: undefined}):
// present for Object.keys, absent for every read.
type undefined struct{}

// get returns a key's value; undefined keys are absent.
func (o *object) get(k string) (any, bool) {
	v, ok := o.vals[k]
	if !ok {
		return nil, false
	}
	if _, u := v.(undefined); u {
		return nil, false
	}
	return v, true
}

// has reports whether a key is present with a defined value.
func (o *object) has(k string) bool {
	_, ok := o.get(k)
	return ok
}

// str returns a key's value when it is a string.
func (o *object) str(k string) (string, bool) {
	v, _ := o.get(k)
	s, ok := v.(string)
	return s, ok
}

// num returns a key's value when it is a number.
func (o *object) num(k string) (float64, bool) {
	v, _ := o.get(k)
	f, ok := v.(float64)
	return f, ok
}

// obj returns a key's value when it is an object.
func (o *object) obj(k string) (*object, bool) {
	v, _ := o.get(k)
	p, ok := v.(*object)
	return p, ok
}

// arr returns a key's value when it is an array.
func (o *object) arr(k string) ([]any, bool) {
	v, _ := o.get(k)
	a, ok := v.([]any)
	return a, ok
}

// with returns a copy of o with key k set to v (undefined{} to spread it
// away), like the reference's {...o, k: v}.
func (o *object) with(k string, v any) *object {
	c := &object{keys: o.keys, vals: make(map[string]any, len(o.vals)+1)}
	for key, val := range o.vals {
		c.vals[key] = val
	}
	if _, ok := o.vals[k]; !ok {
		c.keys = append(append([]string(nil), o.keys...), k)
		orderKeys(c.keys)
	}
	c.vals[k] = v
	return c
}

// maxNesting bounds the nesting of a parsed document, as encoding/json
// does, so a hostile schema cannot exhaust the stack.
const maxNesting = 10000

// parseJSON parses one JSON document into the model above. Duplicate keys
// keep the position of their first occurrence and the last value, like
// JSON.parse.
func parseJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("catalog: trailing data after the schema")
	}
	return v, nil
}

func parseValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxNesting {
		return nil, errors.New("catalog: JSON nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &object{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				if _, dup := o.vals[k]; !dup {
					o.keys = append(o.keys, k)
				}
				o.vals[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			orderKeys(o.keys)
			return o, nil
		case '[':
			a := []any{}
			for dec.More() {
				v, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return a, nil
		}
		return nil, errors.New("catalog: unexpected delimiter")
	case json.Number:
		// JSON.parse turns an out-of-range literal into ±Infinity or 0;
		// ParseFloat returns the same values with ErrRange.
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, err
		}
		return f, nil
	default:
		return t, nil // string, bool, nil
	}
}

// orderKeys sorts keys into JavaScript's enumeration order: array indices
// ascending, then the rest in their current (insertion) order.
func orderKeys(keys []string) {
	sort.SliceStable(keys, func(i, j int) bool {
		a, aok := arrayIndex(keys[i])
		b, bok := arrayIndex(keys[j])
		if aok && bok {
			return a < b
		}
		return aok && !bok
	})
}

// arrayIndex reports whether k is a canonical array index (0 ≤ n < 2³²−1).
func arrayIndex(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return 0, false
		}
		n = n*10 + uint64(k[i]-'0')
	}
	return n, n < math.MaxUint32
}

// truthy is JavaScript's truthiness of a JSON value.
func truthy(v any) bool {
	switch t := v.(type) {
	case nil, undefined:
		return false
	case bool:
		return t
	case float64:
		return t != 0 && !math.IsNaN(t)
	case string:
		return t != ""
	}
	return true
}

// stringify is JSON.stringify of a parsed value: no spaces, keys in order,
// non-finite numbers as null.
func stringify(v any) string {
	var b strings.Builder
	writeJSON(&b, v)
	return b.String()
}

func writeJSON(b *strings.Builder, v any) {
	switch t := v.(type) {
	case nil, undefined:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case float64:
		if math.IsInf(t, 0) || math.IsNaN(t) {
			b.WriteString("null")
		} else {
			b.WriteString(jsNumber(t))
		}
	case string:
		writeQuoted(b, t)
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, e)
		}
		b.WriteByte(']')
	case *object:
		b.WriteByte('{')
		first := true
		for _, k := range t.keys {
			e, ok := t.get(k)
			if !ok {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			writeQuoted(b, k)
			b.WriteByte(':')
			writeJSON(b, e)
		}
		b.WriteByte('}')
	}
}

// quote is JSON.stringify of a string.
func quote(s string) string {
	var b strings.Builder
	writeQuoted(&b, s)
	return b.String()
}

func writeQuoted(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			if c < utf8.RuneSelf {
				b.WriteByte(c)
				i++
				continue
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b.WriteString(`\ufffd`)
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
			continue
		}
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		}
		i++
	}
	b.WriteByte('"')
}

// jsNumber formats a number as JavaScript's Number#toString does: the
// shortest round-tripping digits, plain notation for 1e-7 ≤ |x| < 1e21,
// exponent notation ("1e+21", "1.5e-7") outside it.
func jsNumber(f float64) string { return jsnum.Format(f) }

// isJSSpace is JavaScript's \s: white space and line terminators.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// jsLen is a string's JavaScript length (UTF-16 code units), which the
// reference measures its 120 columns in.
func jsLen(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// isIdentifier matches /^[A-Za-z_$][A-Za-z0-9_$]*$/.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '$' || (c|0x20 >= 'a' && c|0x20 <= 'z') || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// renderKey writes a property name: bare when it is an identifier, else
// JSON-quoted.
func renderKey(k string) string {
	if isIdentifier(k) {
		return k
	}
	return quote(k)
}
