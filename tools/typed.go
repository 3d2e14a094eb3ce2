package tools

import (
	"bytes"
	"context"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	invopop "github.com/invopop/jsonschema"
)

// Typed tools: Func reflects a Go function's input and output types into
// JSON Schemas (with invopop/jsonschema) and wraps the function as a Func
// that decodes its input strictly.

// Void is the output type of a typed tool that returns nothing: a tool
// built by Func[In, Void] (or Func[In, struct{}], the same type) has no
// Output schema, its function's result is dropped, and the program
// receives undefined, like a reference tool whose signature is
// Promise<void>. As an input type, Void is a tool that takes no
// properties: `{}` (or no argument) and nothing else.
type Void = struct{}

// Duration is a time.Duration that crosses the tool boundary as a Go
// duration string ("1h30m", "90s", "250ms"), which a model writes more
// reliably than a count of nanoseconds. Its schema is a string (with a
// description saying so; no pattern, whose failure would read as a
// regular expression: the strict decoding of Node.ValidateInput says
// "invalid duration '1x': want a string such as ..."); it decodes with
// time.ParseDuration and encodes with time.Duration.String. A plain time.Duration field stays what
// encoding/json makes of it: an integer number of nanoseconds.
type Duration time.Duration

// MarshalJSON encodes the duration as a string such as "1h30m0s".
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON decodes a duration string such as "1h30m".
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return errors.New(`a duration is a string such as "1h30m" or "250ms"`)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf(`invalid duration %s: want a string such as "1h30m" or "250ms"`, quote(s))
	}
	*d = Duration(v)
	return nil
}

// Option configures Func.
type Option func(*options)

type options struct {
	comments map[string]string
}

// WithComments gives Func Go doc comments to use as descriptions where a
// `jsonschema:"description=..."` (or `jsonschema_description`) tag gives
// none: keys are "<import path>.<Type>" for a type and
// "<import path>.<Type>.<Field>" for a field, as GoComments returns them
// (and as invopop/jsonschema's Reflector.CommentMap takes them).
//
// Comments are not in a compiled program, so they must be read from the
// source: with GoComments where the source is at hand at run time (tests,
// tools run from a checkout), or at build time (a go:generate step that
// writes the map as a Go literal) for a binary deployed without its
// source. Tags need none of this and are the dependable way.
func WithComments(comments map[string]string) Option {
	return func(o *options) { o.comments = comments }
}

// Func builds a typed tool from a Go function. Its Input schema is
// reflected from In, which must be a struct or a map with string keys (a
// tool's input is a JSON object), and its Output schema from Out, unless
// Out is Void (struct{}), which means no output (see Void).
//
// The tool's Func decodes the input JSON into an In strictly
// (encoding/json with DisallowUnknownFields; a failure is a
// *ValidationError naming the field), calls fn, and returns its Out as it
// is, for the runtime to marshal. It does not check the input against
// the schema itself: the runtime does that first, with
// Node.ValidateInput, which also runs the same strict decoding, so a call
// the runtime admits never fails to decode. ValidateOutputs is set: the
// runtime checks every result against the Output schema.
//
// Reflection (invopop/jsonschema, draft 2020-12, "$schema" kept):
//   - Properties keep the struct's declaration order; a field is required
//     unless its json tag has omitempty or omitzero, or `jsonschema:"required"`
//     makes it so. Unknown properties are rejected (additionalProperties:
//     false). Embedded structs are flattened as encoding/json does.
//   - Tags: `jsonschema:"description=...,enum=a,enum=b,minimum=1,
//     maximum=100,minLength=1,pattern=...,format=...,default=..."`,
//     `jsonschema_description:"..."`, `jsonschema_extras:"k=v"`. Patterns
//     are ECMAScript. Go doc comments with WithComments.
//   - A named struct, slice or map type used in several places is
//     described once under "$defs" and referenced; a recursive root type
//     refers to itself as "#".
//   - A pointer, slice or map field without omitempty/omitzero may be nil,
//     which encodes as null, so its schema also accepts null
//     ({"anyOf":[<schema>,{"type":"null"}]}, its description on the
//     outside). With omitempty it is optional and never null. Elements
//     of slices and maps, and the root, are not made nullable.
//   - time.Time is a string with format date-time (an annotation: the
//     strict decoding rejects a string that is not RFC 3339);
//     time.Duration an integer of nanoseconds; Duration a string such as
//     "1h30m"; []byte a base64 string; json.RawMessage and interfaces
//     any value; unsigned integers have minimum 0. A type with its own
//     MarshalJSON or UnmarshalJSON (and no JSONSchema method) is any
//     value, one with MarshalText or UnmarshalText a string. Types may
//     describe themselves with invopop's JSONSchema, JSONSchemaExtend and
//     JSONSchemaAlias methods.
//
// Func does not panic: a type with no JSON Schema (a channel, a
// function, a complex number), a non-object In or a tag that makes an
// invalid schema is kept in the Tool (see Tool.Err), whose Func then
// returns it, and New reports it naming the tool's path. This keeps Func
// usable inside a map literal given to New.
//
// Pitfall: the root of the output is never nullable. A nil *T returned
// where Out is *T, or a nil slice where Out is a slice, encodes as null,
// which the Output schema (an object, an array) rejects, so the program
// gets
//
//	Invalid output from tool 'x': at '': got null, want object
//
// Return a non-nil value (or make Out a struct, or an empty slice).
func Func[In, Out any](description string, fn func(context.Context, In) (Out, error), opts ...Option) *Tool {
	t := &Tool{Description: description, ValidateOutputs: true}
	if err := buildTyped(t, fn, opts); err != nil {
		t.err = err
		t.Input, t.Output, t.check, t.compiled = nil, nil, nil, nil
		t.Func = func(context.Context, json.RawMessage) (any, error) { return nil, err }
	}
	return t
}

func buildTyped[In, Out any](t *Tool, fn func(context.Context, In) (Out, error), opts []Option) error {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if fn == nil {
		return errors.New("the function is nil")
	}
	inType, outType := reflect.TypeFor[In](), reflect.TypeFor[Out]()
	if base := deref(inType); base.Kind() != reflect.Struct && !(base.Kind() == reflect.Map && base.Key().Kind() == reflect.String) {
		return fmt.Errorf("input type %s is not a struct or a map with string keys (a tool's input is a JSON object)", inType)
	}
	in, err := reflectSchema(inType, &o)
	if err != nil {
		return fmt.Errorf("input type %s: %w", inType, err)
	}
	t.Input = in
	void := outType == reflect.TypeFor[Void]()
	if !void {
		out, err := reflectSchema(outType, &o)
		if err != nil {
			return fmt.Errorf("output type %s: %w", outType, err)
		}
		t.Output = out
	}
	c := &compiledSchemas{inputSrc: t.Input, outputSrc: t.Output}
	if c.input, err = compileSchema(schemaURL("", "input"), t.Input); err != nil {
		return fmt.Errorf("input schema reflected from %s: %w", inType, err)
	}
	if !void {
		if c.output, err = compileSchema(schemaURL("", "output"), t.Output); err != nil {
			return fmt.Errorf("output schema reflected from %s: %w", outType, err)
		}
	}
	t.compiled = c
	t.check = func(data []byte) error {
		_, err := decodeInput[In](data)
		return err
	}
	t.Func = func(ctx context.Context, input json.RawMessage) (any, error) {
		in, err := decodeInput[In](input)
		if err != nil {
			return nil, err
		}
		out, err := fn(ctx, in)
		if err != nil || void {
			return nil, err
		}
		return out, nil
	}
	return nil
}

// Strict decoding.

// decodeInput decodes a call's input (empty: `{}`) into an In, rejecting
// unknown fields and trailing data; a failure is a *ValidationError with
// one failure at the deepest location that does not decode.
func decodeInput[In any](data []byte) (In, error) {
	var in In
	if len(data) == 0 {
		data = []byte("{}")
	}
	if err := strictUnmarshal(data, &in); err != nil {
		return in, &ValidationError{Failures: []Failure{locate(reflect.TypeFor[In](), data, "", err, 0)}}
	}
	return in, nil
}

func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the top-level value")
	}
	return nil
}

// maxLocateDepth bounds how deep locate descends (the input itself is
// bounded by encoding/json's nesting limit).
const maxLocateDepth = 64

// locate finds where data fails to decode into t: it decodes each
// property or element on its own and descends into the first that fails
// (properties in sorted order), down to a value that fails by itself.
func locate(t reflect.Type, data []byte, path string, err error, depth int) Failure {
	t = deref(t)
	if depth < maxLocateDepth && !decodesItself(t) {
		switch t.Kind() {
		case reflect.Struct:
			var m map[string]json.RawMessage
			if json.Unmarshal(data, &m) == nil && m != nil {
				fields := jsonFields(t)
				keys := make([]string, 0, len(m))
				for k := range m {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				for _, k := range keys {
					f, ok := fields[k]
					if !ok {
						for name, g := range fields {
							if strings.EqualFold(name, k) {
								f, ok = g, true
								break
							}
						}
					}
					if !ok {
						return Failure{Path: path, Message: "unknown field " + quote(k)}
					}
					if f.str {
						continue
					}
					if e := strictUnmarshal(m[k], reflect.New(f.typ).Interface()); e != nil {
						return locate(f.typ, m[k], path+"/"+escapeToken(k), e, depth+1)
					}
				}
			}
		case reflect.Slice, reflect.Array:
			if t.Kind() == reflect.Slice && t.Elem() == reflect.TypeFor[byte]() {
				break
			}
			var items []json.RawMessage
			if json.Unmarshal(data, &items) == nil {
				for i, it := range items {
					if e := strictUnmarshal(it, reflect.New(t.Elem()).Interface()); e != nil {
						return locate(t.Elem(), it, path+"/"+strconv.Itoa(i), e, depth+1)
					}
				}
			}
		case reflect.Map:
			var m map[string]json.RawMessage
			if json.Unmarshal(data, &m) == nil {
				keys := make([]string, 0, len(m))
				for k := range m {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				for _, k := range keys {
					if e := strictUnmarshal(m[k], reflect.New(t.Elem()).Interface()); e != nil {
						return locate(t.Elem(), m[k], path+"/"+escapeToken(k), e, depth+1)
					}
				}
			}
		}
	}
	return Failure{Path: path, Message: decodeMessage(err)}
}

// decodeMessage words a decoding error for the model.
func decodeMessage(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Type != nil {
		return fmt.Sprintf("cannot decode %s as %s", te.Value, te.Type)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return "invalid JSON: " + se.Error()
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if name, ok := strings.CutPrefix(msg, "unknown field "); ok {
		if s, err := strconv.Unquote(name); err == nil {
			return "unknown field " + quote(s)
		}
	}
	return msg
}

type jsonField struct {
	typ reflect.Type
	str bool // the ",string" option: the value is quoted
}

// jsonFields maps the JSON names of a struct's fields to their types,
// embedded structs flattened (the shallower field wins a name).
func jsonFields(t reflect.Type) map[string]jsonField {
	out := map[string]jsonField{}
	level := []reflect.Type{t}
	seen := map[reflect.Type]bool{}
	for len(level) > 0 {
		var next []reflect.Type
		here := map[string]jsonField{}
		for _, st := range level {
			if seen[st] {
				continue
			}
			seen[st] = true
			for i := 0; i < st.NumField(); i++ {
				f := st.Field(i)
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if f.Anonymous && name == "" {
					if ft := deref(f.Type); ft.Kind() == reflect.Struct {
						next = append(next, ft)
						continue
					}
				}
				if !f.IsExported() {
					continue
				}
				if name == "" {
					name = f.Name
				}
				if _, ok := out[name]; !ok {
					if _, ok := here[name]; !ok {
						here[name] = jsonField{typ: f.Type, str: slices.Contains(strings.Split(opts, ","), "string")}
					}
				}
			}
		}
		for k, v := range here {
			out[k] = v
		}
		level = next
	}
	return out
}

var (
	jsonMarshalerType   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func implements(t, iface reflect.Type) bool {
	return t.Implements(iface) || reflect.PointerTo(t).Implements(iface)
}

// decodesItself reports a type whose decoding locate cannot look into.
func decodesItself(t reflect.Type) bool {
	return implements(t, jsonUnmarshalerType) || implements(t, textUnmarshalerType)
}

// deref strips pointers (at most 64: `type P *P` is a valid Go type).
func deref(t reflect.Type) reflect.Type {
	for i := 0; i < 64 && t.Kind() == reflect.Pointer; i++ {
		t = t.Elem()
	}
	return t
}

// checkShape rejects the types invopop/jsonschema would recurse on
// forever (a stack overflow, which no recover catches): a struct that
// embeds itself, directly or not, and a pointer type that points to
// itself.
func checkShape(t reflect.Type, seen map[reflect.Type]bool) error {
	if deref(t).Kind() == reflect.Pointer {
		return fmt.Errorf("%s is a pointer to itself", t)
	}
	t = deref(t)
	if seen[t] {
		return nil
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Struct:
		if err := embedsItself(t, nil); err != nil {
			return err
		}
		for i := 0; i < t.NumField(); i++ {
			if err := checkShape(t.Field(i).Type, seen); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array, reflect.Map:
		return checkShape(t.Elem(), seen)
	}
	return nil
}

func embedsItself(t reflect.Type, outer []reflect.Type) error {
	if slices.Contains(outer, t) {
		return fmt.Errorf("%s embeds itself", t)
	}
	outer = append(outer, t)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tags := strings.Split(f.Tag.Get("json"), ",")
		if ft := deref(f.Type); ft.Kind() == reflect.Struct && ((f.Anonymous && tags[0] == "") || slices.Contains(tags[1:], "inline")) {
			if err := embedsItself(ft, outer); err != nil {
				return err
			}
		}
	}
	return nil
}

// Reflection.

var (
	durationType     = reflect.TypeFor[time.Duration]()
	toolDurationType = reflect.TypeFor[Duration]()
	timeType         = reflect.TypeFor[time.Time]()
	rawMessageType   = reflect.TypeFor[json.RawMessage]()
	schemaMethods    = []reflect.Type{
		reflect.TypeFor[interface{ JSONSchema() *invopop.Schema }](),
		reflect.TypeFor[interface{ JSONSchemaAlias() any }](),
		reflect.TypeFor[interface{ JSONSchemaExtend(*invopop.Schema) }](),
	}
)

const (
	nanosecondsDescription = "A duration in nanoseconds."
	durationDescription    = `A duration such as "1h30m", "90s" or "250ms".`
)

func hasSchemaMethod(t reflect.Type) bool {
	for _, m := range schemaMethods {
		if implements(t, m) {
			return true
		}
	}
	return false
}

// mapType is the Reflector's Mapper: the schemas of types whose JSON
// form is not what their kind says. It returns a new schema each time
// (the reflector writes field tags into it).
func mapType(t reflect.Type) *invopop.Schema {
	switch t {
	case durationType:
		return &invopop.Schema{Type: "integer", Description: nanosecondsDescription}
	case toolDurationType:
		return &invopop.Schema{Type: "string", Description: durationDescription}
	case timeType, rawMessageType:
		return nil // invopop: a date-time string; any value
	}
	if hasSchemaMethod(t) {
		return nil
	}
	if implements(t, jsonMarshalerType) || implements(t, jsonUnmarshalerType) {
		return &invopop.Schema{}
	}
	if implements(t, textMarshalerType) || implements(t, textUnmarshalerType) {
		return &invopop.Schema{Type: "string"}
	}
	if t.PkgPath() == "" {
		switch t.Kind() {
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return &invopop.Schema{Type: "integer", Minimum: "0"}
		}
	}
	return nil
}

// namer names "$defs" entries: the Go type name, a generic
// instantiation's package paths dropped ("Page[example.com/x.Item]" is
// "Page_Item"), with a number added when two types share a name.
type namer struct {
	names map[reflect.Type]string
	used  map[string]bool
}

var (
	packageQualifierRE = regexp.MustCompile(`[A-Za-z0-9_.\-~/]*\.`)
	nonNameRE          = regexp.MustCompile(`[^A-Za-z0-9_]+`)
)

func (n *namer) name(t reflect.Type) string {
	if s, ok := n.names[t]; ok {
		return s
	}
	base := t.Name()
	if base == "" {
		return ""
	}
	base = packageQualifierRE.ReplaceAllString(base, "")
	base = strings.Trim(nonNameRE.ReplaceAllString(base, "_"), "_")
	if base == "" {
		base = "T"
	}
	s := base
	for i := 2; n.used[s]; i++ {
		s = base + strconv.Itoa(i)
	}
	n.used[s] = true
	n.names[t] = s
	return s
}

// reflectSchema reflects a Go type into a JSON Schema document.
func reflectSchema(t reflect.Type, o *options) (doc json.RawMessage, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("no JSON Schema: %v", p)
		}
	}()
	if err := checkShape(t, map[reflect.Type]bool{}); err != nil {
		return nil, fmt.Errorf("no JSON Schema: %w", err)
	}
	root := deref(t)
	nm := &namer{names: map[reflect.Type]string{}, used: map[string]bool{}}
	r := &invopop.Reflector{
		Anonymous:      true,
		ExpandedStruct: true,
		Mapper:         mapType,
		Namer:          nm.name,
		CommentMap:     o.comments,
	}
	s := r.ReflectFromType(root)
	if name := nm.name(root); name != "" {
		rewriteRefs(s, "#/$defs/"+name, map[*invopop.Schema]bool{})
	}
	p := &post{root: s, defs: s.Definitions, seen: map[*invopop.Schema]bool{}}
	p.walk(root, s)
	return json.Marshal(s)
}

// rewriteRefs points references to the root's old "$defs" entry at the
// root itself (invopop/jsonschema#148: ExpandedStruct moves a recursive
// root out of "$defs" and leaves its references dangling).
func rewriteRefs(s *invopop.Schema, from string, seen map[*invopop.Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if s.Ref == from {
		s.Ref = "#"
	}
	for _, c := range subschemas(s) {
		rewriteRefs(c, from, seen)
	}
}

func subschemas(s *invopop.Schema) []*invopop.Schema {
	var out []*invopop.Schema
	out = append(out, s.AllOf...)
	out = append(out, s.AnyOf...)
	out = append(out, s.OneOf...)
	out = append(out, s.PrefixItems...)
	out = append(out, s.Not, s.If, s.Then, s.Else, s.Items, s.Contains, s.AdditionalProperties, s.PropertyNames, s.ContentSchema)
	for _, m := range []map[string]*invopop.Schema{s.DependentSchemas, s.PatternProperties, s.Definitions} {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = append(out, m[k])
		}
	}
	if s.Properties != nil {
		for _, v := range s.Properties.FromOldest() {
			out = append(out, v)
		}
	}
	return out
}

// post walks a reflected schema alongside its Go type to make nilable
// fields nullable and to describe duration fields.
type post struct {
	root *invopop.Schema
	defs invopop.Definitions
	seen map[*invopop.Schema]bool
}

func (p *post) resolve(s *invopop.Schema) *invopop.Schema {
	if s == nil || s.Ref == "" {
		return s
	}
	if s.Ref == "#" {
		return p.root
	}
	if name, ok := strings.CutPrefix(s.Ref, "#/$defs/"); ok {
		return p.defs[name]
	}
	return nil
}

func (p *post) walk(t reflect.Type, s *invopop.Schema) {
	s = p.resolve(s)
	if s == nil || p.seen[s] {
		return
	}
	p.seen[s] = true
	t = deref(t)
	if t == timeType || t == rawMessageType || mapType(t) != nil || hasSchemaMethod(t) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		p.fields(t, s, 0)
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem() == reflect.TypeFor[byte]() {
			return
		}
		p.walk(t.Elem(), s.Items)
	case reflect.Map:
		switch t.Key().Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			p.walk(t.Elem(), s.PatternProperties["^[0-9]+$"])
		default:
			p.walk(t.Elem(), s.AdditionalProperties)
		}
	}
}

// fields visits a struct's properties the way invopop/jsonschema names
// them (embedded structs flattened into the same schema).
func (p *post) fields(t reflect.Type, s *invopop.Schema, depth int) {
	if s.Properties == nil || depth > maxLocateDepth {
		return
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		jsonTags := strings.Split(f.Tag.Get("json"), ",")
		if jsonTags[0] == "-" || strings.Split(f.Tag.Get("jsonschema"), ",")[0] == "-" {
			continue
		}
		opts := jsonTags[1:]
		embedded := f.Anonymous && jsonTags[0] == "" && deref(f.Type).Kind() == reflect.Struct && (f.Type.Kind() == reflect.Struct || f.Type.Elem().Kind() == reflect.Struct)
		if embedded || slices.Contains(opts, "inline") {
			if ft := deref(f.Type); ft.Kind() == reflect.Struct {
				p.fields(ft, s, depth+1)
			}
			continue
		}
		if !f.Anonymous && !f.IsExported() {
			continue
		}
		name := f.Name
		if jsonTags[0] != "" {
			name = jsonTags[0]
		}
		prop, ok := s.Properties.Get(name)
		if !ok || prop == nil {
			continue
		}
		inner := prop
		if len(prop.OneOf) == 2 && prop.OneOf[1] != nil && prop.OneOf[1].Type == "null" && prop.OneOf[0] != nil {
			inner = prop.OneOf[0] // the `jsonschema:"nullable"` tag's form
		}
		p.walk(f.Type, inner)
		if base := deref(f.Type); inner.Description == "" && inner == prop {
			switch base {
			case durationType:
				prop.Description = nanosecondsDescription
			case toolDurationType:
				prop.Description = durationDescription
			}
		}
		omitted := slices.Contains(opts, "omitempty") || slices.Contains(opts, "omitzero")
		quoted := slices.Contains(opts, "string")
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			if !omitted && !quoted && !acceptsNull(prop) {
				s.Properties.Set(name, nullable(prop))
			}
		}
	}
}

// acceptsNull reports a schema that already accepts null: one without a
// type or anything that could exclude null, or one that lists null.
func acceptsNull(s *invopop.Schema) bool {
	if s.Type == "null" {
		return true
	}
	for _, alt := range append(slices.Clone(s.AnyOf), s.OneOf...) {
		if alt != nil && alt.Type == "null" {
			return true
		}
	}
	return s.Type == "" && s.Ref == "" && s.AllOf == nil && s.AnyOf == nil && s.OneOf == nil &&
		s.Not == nil && s.Enum == nil && s.Const == nil && s.If == nil
}

// nullable wraps a property's schema so that it also accepts null; the
// annotations move to the wrapper, where a reader of the schema looks.
func nullable(s *invopop.Schema) *invopop.Schema {
	w := &invopop.Schema{
		AnyOf:       []*invopop.Schema{s, {Type: "null"}},
		Title:       s.Title,
		Description: s.Description,
		Default:     s.Default,
		Examples:    s.Examples,
		Deprecated:  s.Deprecated,
		ReadOnly:    s.ReadOnly,
		WriteOnly:   s.WriteOnly,
	}
	s.Title, s.Description, s.Default, s.Examples, s.Deprecated, s.ReadOnly, s.WriteOnly = "", "", nil, nil, false, false, false
	return w
}

// forModel removes a schema's top-level "$schema" keyword, keeping the
// other members and their order as they are.
func forModel(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return raw
	}
	var b bytes.Buffer
	b.WriteByte('{')
	found, n := false, 0
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return raw
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return raw
		}
		if key == "$schema" {
			found = true
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(key); err != nil {
			return raw
		}
		b.Truncate(b.Len() - 1) // Encode's newline
		b.WriteByte(':')
		b.Write(v)
	}
	if !found {
		return raw
	}
	b.WriteByte('}')
	return json.RawMessage(b.Bytes())
}

// GoComments reads the doc comments of the exported types, and of their
// exported fields, declared in the Go files of one directory (not its
// subdirectories), for WithComments. importPath is the import path of
// the package in dir (keys are "<importPath>.<Type>" and
// "<importPath>.<Type>.<Field>"). A type's comment is the doc comment of
// its declaration; a field's is its doc comment or, failing that, its
// line comment. Whitespace runs become single spaces.
//
// It needs the source at run time; see WithComments for binaries
// deployed without it.
func GoComments(importPath, dir string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	out := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok || !ts.Name.IsExported() {
					continue
				}
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				key := importPath + "." + ts.Name.Name
				if txt := oneLine(doc.Text()); txt != "" {
					out[key] = txt
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, fld := range st.Fields.List {
					txt := oneLine(fld.Doc.Text())
					if txt == "" {
						txt = oneLine(fld.Comment.Text())
					}
					if txt == "" {
						continue
					}
					for _, name := range fld.Names {
						if name.IsExported() {
							out[key+"."+name.Name] = txt
						}
					}
				}
			}
		}
	}
	return out, nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
