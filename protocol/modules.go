package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// ModuleKind is the kind of a module source.
type ModuleKind string

// The module kinds.
const (
	// ModuleJS is an ES module's source text.
	ModuleJS ModuleKind = "js"
	// ModuleCJS is a CommonJS module's source text, run with module,
	// exports and require in scope.
	ModuleCJS ModuleKind = "cjs"
	// ModuleJSON is a JSON value, imported as its default export.
	ModuleJSON ModuleKind = "json"
	// ModuleText is a text, imported as its default export.
	ModuleText ModuleKind = "text"
)

const moduleKinds = "js, cjs, json or text"

func (k ModuleKind) known() bool {
	return k == ModuleJS || k == ModuleCJS || k == ModuleJSON || k == ModuleText
}

// ModuleSource is one module a program may import. On the wire it is a
// bare JSON string, which is an ES module's source, or an object with
// exactly one key naming its kind: {"js": "<source>"}, {"cjs":
// "<source>"}, {"json": <any JSON value>} or {"text": "<text>"}. It always
// encodes in the keyed form.
type ModuleSource struct {
	// Kind is the kind of module.
	Kind ModuleKind
	// Source is the source text of a js or cjs module, or the text of a
	// text module.
	Source string
	// JSON is the value of a json module.
	JSON json.RawMessage
}

// JSModule returns an ES module of the given source.
func JSModule(source string) ModuleSource { return ModuleSource{Kind: ModuleJS, Source: source} }

// CJSModule returns a CommonJS module of the given source.
func CJSModule(source string) ModuleSource { return ModuleSource{Kind: ModuleCJS, Source: source} }

// JSONModule returns a JSON module of the given value.
func JSONModule(value json.RawMessage) ModuleSource {
	return ModuleSource{Kind: ModuleJSON, JSON: value}
}

// TextModule returns a text module of the given text.
func TextModule(text string) ModuleSource { return ModuleSource{Kind: ModuleText, Source: text} }

// validate checks the kind and, for a json module, the value.
func (m ModuleSource) validate() error {
	switch {
	case m.Kind == "":
		return errors.New("module source has no kind")
	case !m.Kind.known():
		return fmt.Errorf("module source has unknown kind %q (the kinds are %s)", m.Kind, moduleKinds)
	case m.Kind == ModuleJSON && !json.Valid(m.JSON):
		return errors.New(`module source "json" is not valid JSON`)
	}
	return nil
}

// MarshalJSON encodes m in the keyed form, refusing a source with no
// kind, an unknown kind or a json value that is not valid JSON.
func (m ModuleSource) MarshalJSON() ([]byte, error) {
	if err := m.validate(); err != nil {
		return nil, err
	}
	var value []byte
	if m.Kind == ModuleJSON {
		var buf bytes.Buffer
		if err := json.Compact(&buf, m.JSON); err != nil {
			return nil, err
		}
		value = buf.Bytes()
	} else {
		var err error
		if value, err = marshalNoEscape(m.Source); err != nil {
			return nil, err
		}
	}
	return fmt.Appendf(nil, `{%q:%s}`, m.Kind, value), nil
}

// UnmarshalJSON decodes either wire form of a module source.
func (m *ModuleSource) UnmarshalJSON(data []byte) error {
	data = bytes.Trim(data, " \t\r\n")
	switch kind := jsonKind(data); kind {
	case "a string":
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*m = JSModule(s)
		return nil
	case "an object":
	default:
		return fmt.Errorf("module source must be a string or an object keyed %s, not %s", moduleKinds, kind)
	}
	fields, err := decodeObject(data)
	if err != nil {
		return fmt.Errorf("module source: %v", err)
	}
	keys := sortedKeys(fields)
	for _, k := range keys {
		if !ModuleKind(k).known() {
			return fmt.Errorf("module source has unknown kind %q (the kinds are %s)", k, moduleKinds)
		}
	}
	switch len(keys) {
	case 0:
		return fmt.Errorf("module source is an empty object; name one kind: %s", moduleKinds)
	case 1:
	default:
		return fmt.Errorf("module source names %d kinds (%q and %q); name exactly one", len(keys), keys[0], keys[1])
	}
	kind := ModuleKind(keys[0])
	raw := fields[keys[0]]
	if kind == ModuleJSON {
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return fmt.Errorf(`module source "json" is not valid JSON`)
		}
		*m = JSONModule(bytes.Clone(buf.Bytes()))
		return nil
	}
	var s string
	if jsonKind(raw) != "a string" || json.Unmarshal(raw, &s) != nil {
		return fmt.Errorf("module source %q must be a string, not %s", kind, jsonKind(raw))
	}
	*m = ModuleSource{Kind: kind, Source: s}
	return nil
}

// ModuleMap is the set of modules a program may import, by specifier:
// import x from "name" resolves "name" in the map.
type ModuleMap map[string]ModuleSource

// validate refuses an empty specifier and an invalid source.
func (m ModuleMap) validate() error {
	for _, name := range sortedKeys(m) {
		if name == "" {
			return errors.New("module map has an empty module name")
		}
		if err := m[name].validate(); err != nil {
			return fmt.Errorf("module %q: %v", name, err)
		}
	}
	return nil
}

// Validate returns nil when every name in m is non-empty and every source
// is well formed, and an *Error with [CodeInvalidRequest] otherwise.
func (m ModuleMap) Validate() error {
	if err := m.validate(); err != nil {
		return NewError(CodeInvalidRequest, err.Error())
	}
	return nil
}

// Names returns the module names, sorted.
func (m ModuleMap) Names() []string {
	return sortedKeys(m)
}

// RenderJSONModule renders a JSON value as the ES module source export
// default <json>;, compacted. An object key "__proto__" is written as the
// computed key ["__proto__"], which makes it an own property as JSON.parse
// would, where a literal "__proto__": in an object literal would set the
// prototype. A value that is not valid JSON renders as a module that
// throws a SyntaxError when it loads, never as code of its own.
func RenderJSONModule(v json.RawMessage) string {
	if !json.Valid(v) {
		return `throw new SyntaxError("JSON module source is not valid JSON");`
	}
	var b bytes.Buffer
	b.WriteString("export default ")
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	type frame struct {
		object bool
		n      int // tokens written: keys and values for an object
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil { // cannot happen: v is valid JSON
			return `throw new SyntaxError("JSON module source is not valid JSON");`
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			b.WriteByte(byte(d))
			stack = stack[:len(stack)-1]
			continue
		}
		if len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.n > 0 && (!f.object || f.n%2 == 0) {
				b.WriteByte(',')
			}
			if f.object && f.n%2 == 0 {
				f.n++
				if key := tok.(string); key == "__proto__" {
					b.WriteString(`["__proto__"]:`)
				} else {
					writeJSONString(&b, key)
					b.WriteByte(':')
				}
				continue
			}
			f.n++
		}
		switch x := tok.(type) {
		case json.Delim:
			b.WriteByte(byte(x))
			stack = append(stack, frame{object: x == '{'})
		case string:
			writeJSONString(&b, x)
		case json.Number:
			b.WriteString(string(x))
		case bool:
			if x {
				b.WriteString("true")
			} else {
				b.WriteString("false")
			}
		case nil:
			b.WriteString("null")
		}
	}
	b.WriteByte(';')
	return b.String()
}

// RenderTextModule renders a text as the ES module source export default
// "<text>";.
func RenderTextModule(text string) string {
	var b bytes.Buffer
	b.WriteString("export default ")
	writeJSONString(&b, text)
	b.WriteByte(';')
	return b.String()
}

func writeJSONString(b *bytes.Buffer, s string) {
	q, _ := marshalNoEscape(s) // a string always encodes
	b.Write(q)
}
