package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// printer renders the validator's messages in English. It is set once
// and only read.
var printer = message.NewPrinter(language.English)

// JSON Schema validation of tool inputs and outputs.
//
// New compiles every tool's Input and Output schema once, with
// santhosh-tekuri/jsonschema/v6: draft 2020-12 unless the schema's
// "$schema" names another draft, patterns in ECMAScript syntax (through
// dlclark/regexp2), "format" an annotation only (for every draft), and no
// schema loaded from outside the tool's own document (a "$ref" to another
// URL is a compile error). Validation never panics and never reads files
// or the network.

// PatternTimeout bounds one match of a schema's "pattern" (or
// "patternProperties") against one string. ECMAScript patterns backtrack,
// so a hostile string could otherwise keep a validation busy for a long
// time; a match that runs out of time counts as not matching. (regexp2
// checks its clock every 100 ms or so, so such a match takes about
// 200 ms; the bound is per match, not per validation.)
const PatternTimeout = 100 * time.Millisecond

// MaxRenderedFailures is how many failures ValidationError.Error lists
// before summarizing the rest as "and N more".
const MaxRenderedFailures = 10

// ValidationError is an input or output that does not match its tool's
// schema, or that does not decode into a typed tool's Go input type.
//
// Error renders it compactly for the model, with no tool path, so that the
// runtime can write "Invalid input for tool '<path>': " + err.Error():
//
//	at '': missing property 'id'; at '/query': minLength: got 0, want 1
//
// Each failure is `at '<JSON pointer>': <reason>` (see Failure.String);
// failures are joined by "; ", sorted by instance location (the value
// itself first, then token by token, array indexes in numeric order),
// then by keyword and reason, without duplicates. After MaxRenderedFailures failures the rest
// are summarized as "; and N more".
type ValidationError struct {
	// Failures lists every failure, sorted; there is at least one.
	Failures []Failure
}

// Failure is one reason a value does not match a schema.
type Failure struct {
	// Path is the JSON pointer (RFC 6901) of the failing value within the
	// instance: "" for the instance itself, "/items/0/name" below it.
	Path string
	// Keyword is the schema keyword that failed ("type", "required",
	// "minLength", "oneOf", ...). It is "" for a failure found while
	// decoding into a typed tool's Go input type, for a "false" schema,
	// for a number beyond the float64 range and for an instance that is
	// not JSON.
	Keyword string
	// Message is the reason, without the location: "minLength: got 0,
	// want 1", "missing property 'id'", "got string, want integer", the
	// English messages of santhosh-tekuri/jsonschema/v6.
	Message string
	// Alternatives is set when no branch of a oneOf or anyOf matched and
	// more than one branch came close: one list of failures per branch,
	// in schema order. Branches that failed only because the value has
	// another type are left out; when that leaves one branch, its
	// failures are reported directly instead, and when it leaves none,
	// the failure is one "got X, want A or B" type failure.
	Alternatives [][]Failure
}

// String renders the failure as `at '<path>': <message>`, the path quoted
// like a Go string literal but between single quotes. Alternatives follow
// the message as ": [<failures of one branch>] or [<another>]", the
// failures inside brackets joined by "; ":
//
//	at '/pet': 'oneOf' failed, none matched: [at '/pet/lives': got string, want integer] or [at '/pet': missing property 'barks']
func (f Failure) String() string {
	var b strings.Builder
	f.render(&b)
	return b.String()
}

func (f Failure) render(b *strings.Builder) {
	b.WriteString("at ")
	b.WriteString(quote(f.Path))
	b.WriteString(": ")
	b.WriteString(f.Message)
	for i, alt := range f.Alternatives {
		if i == 0 {
			b.WriteString(": [")
		} else {
			b.WriteString(" or [")
		}
		for j, g := range alt {
			if j > 0 {
				b.WriteString("; ")
			}
			g.render(b)
		}
		b.WriteString("]")
	}
}

// Error renders the failures as documented on ValidationError.
func (e *ValidationError) Error() string {
	var b strings.Builder
	for i, f := range e.Failures {
		if i == MaxRenderedFailures {
			fmt.Fprintf(&b, "; and %d more", len(e.Failures)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		f.render(&b)
	}
	return b.String()
}

// quote renders a string between single quotes, escaped as Go does in a
// double-quoted literal except that `"` stays as it is and `'` gets a
// backslash (the form santhosh-tekuri/jsonschema uses).
func quote(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q, `\"`, `"`)
	q = strings.ReplaceAll(q, `'`, `\'`)
	return "'" + q[1:len(q)-1] + "'"
}

// Schema is a compiled JSON Schema, safe for concurrent use.
type Schema struct{ sch *jsonschema.Schema }

// CompileSchema compiles a JSON Schema document the way New compiles a
// tool's schemas, for a schema outside a tool tree (the input of a
// built-in such as search, say). The error says what is wrong, as New's
// do after the tool's path.
func CompileSchema(doc json.RawMessage) (*Schema, error) {
	sch, err := compileSchema(schemaURL("", "schema"), doc)
	if err != nil {
		return nil, err
	}
	return &Schema{sch}, nil
}

// CheckSchemas reports whether one JSON Schema document and its
// subschemas at the given JSON pointers ("/$defs/Pet") compile as New
// compiles a tool's schema, as CompileSchema would say. It compiles them
// in one compilation, in order, each subschema once however many reach
// it: a way to check many schemas that share definitions, kept apart
// under keywords that the document's root does not apply ("$defs"), at
// the cost of one. Compiling the subschemas one after another, a schema's
// references compiled before it, keeps each step small: one step's work
// grows with the square of the schemas it compiles.
func CheckSchemas(doc json.RawMessage, pointers []string) error {
	loc := schemaURL("", "schemas")
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("not JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if metaValid(v) {
		if compileParts(vettedURL(loc), v, pointers) == nil {
			return nil
		}
		if v, err = jsonschema.UnmarshalJSON(bytes.NewReader(doc)); err != nil {
			return fmt.Errorf("not JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
		}
	}
	if err := compileParts(loc, v, pointers); err != nil {
		return schemaError(loc, err)
	}
	return nil
}

// compileParts compiles a parsed document registered at loc, then its
// subschemas at pointers, with one compiler.
func compileParts(loc string, v any, pointers []string) error {
	c := newCompiler()
	if err := c.AddResource(loc, v); err != nil {
		return err
	}
	if _, err := c.Compile(loc); err != nil {
		return err
	}
	for _, p := range pointers {
		tokens := strings.Split(p, "/")
		for i, t := range tokens {
			tokens[i] = url.PathEscape(t)
		}
		if _, err := c.Compile(loc + "#" + strings.Join(tokens, "/")); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks an instance (JSON; empty counts as null) against the
// schema. It returns nil or a *ValidationError.
func (s *Schema) Validate(instance json.RawMessage) error {
	if len(instance) == 0 {
		instance = json.RawMessage("null")
	}
	return safeValidate(s.sch, instance)
}

// ValidateInput checks a call's input, the argument as JSON (an empty
// input counts as `{}`), before the call is admitted. It returns nil or a
// *ValidationError.
//
// The input is checked against the tool's compiled Input schema (none
// when Input is nil: any input passes) and then, for a tool made by Func,
// decoded strictly into the Go input type, so that every input the typed
// function could not decode (an unknown field, a number out of an int8's
// range, a time.Time that is not RFC 3339, ...) is rejected here too. A
// nil node, or a node that is not callable, accepts everything. For an
// overlay's tool whose schema does not compile, it returns Prepare's
// error, which is not a *ValidationError.
func (n *Node) ValidateInput(input json.RawMessage) error {
	if n == nil || n.Tool == nil {
		return nil
	}
	if err := n.Prepare(); err != nil {
		return err
	}
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	if n.quickInput == nil || !n.quickInput.valid(input) {
		if err := safeValidate(n.input, input); err != nil {
			return err
		}
	}
	return safeCheck(n.Tool.check, input)
}

// safeCheck runs a typed tool's strict decoding (nil: none), turning a
// panic (in a type's UnmarshalJSON, say) into a failure.
func safeCheck(check func([]byte) error, input []byte) (err error) {
	if check == nil {
		return nil
	}
	defer func() {
		if p := recover(); p != nil {
			err = &ValidationError{Failures: []Failure{{Message: fmt.Sprintf("decoding panicked: %v", p)}}}
		}
	}()
	return check(input)
}

// ValidateOutput checks a tool's result, marshalled to JSON (an empty
// output counts as `null`), against the tool's compiled Output schema. It
// returns nil or a *ValidationError, and nil when the tool has no Output
// schema. It validates whatever Tool.ValidateOutputs says: that flag
// tells the runtime whether to call it.
func (n *Node) ValidateOutput(output json.RawMessage) error {
	if n == nil || n.Tool == nil {
		return nil
	}
	if err := n.Prepare(); err != nil {
		return err
	}
	if len(output) == 0 {
		output = json.RawMessage("null")
	}
	return safeValidate(n.output, output)
}

// safeValidate validates data against sch (nil: anything passes) and
// turns a panic inside the validator into a failure.
func safeValidate(sch *jsonschema.Schema, data []byte) (err error) {
	if sch == nil {
		return nil
	}
	defer func() {
		if p := recover(); p != nil {
			err = &ValidationError{Failures: []Failure{{Message: fmt.Sprintf("internal validation error: %v", p)}}}
		}
	}()
	if ve := validateJSON(sch, data); ve != nil {
		return ve
	}
	return nil
}

// validateJSON is the validation itself, without the panic guard (the
// fuzz target calls it directly).
func validateJSON(sch *jsonschema.Schema, data []byte) *ValidationError {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return &ValidationError{Failures: []Failure{{Message: "invalid JSON: " + strings.TrimPrefix(err.Error(), "json: ")}}}
	}
	var out []Failure
	v = tameNumbers(v, nil, &out)
	if len(out) > 0 {
		return &ValidationError{Failures: tidy(out)}
	}
	err = sch.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &ValidationError{Failures: []Failure{{Message: err.Error()}}}
	}
	return &ValidationError{Failures: failures(ve)}
}

// tameNumbers rewrites the numbers whose exact value would be costly:
// the validator compares numbers as exact rationals (math/big), and
// "1e999999" takes it tens of milliseconds (a larger exponent makes it
// panic). A number beyond the float64 range, which no program value can
// be, is a failure ("number out of range: 1e999"); a number literal
// longer than 32 bytes or with an exponent of more than three digits
// becomes the float64 it denotes, in its shortest form. Numbers a
// JavaScript program or encoding/json writes are never changed.
func tameNumbers(v any, path []string, out *[]Failure) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = tameNumbers(e, append(path, k), out)
		}
	case []any:
		for i, e := range v {
			v[i] = tameNumbers(e, append(path, strconv.Itoa(i)), out)
		}
	case json.Number:
		s := string(v)
		i := strings.IndexAny(s, "eE")
		if len(s) <= 32 && i < 0 {
			return v
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			if len(s) > 40 {
				s = s[:40] + "..."
			}
			*out = append(*out, Failure{Path: pointer(path), Message: "number out of range: " + s})
			return v
		}
		if len(s) <= 32 && len(strings.TrimLeft(s[i+1:], "+-")) <= 3 {
			return v
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
	}
	return v
}

// failures flattens a santhosh-tekuri error tree into sorted, distinct
// failures.
func failures(e *jsonschema.ValidationError) []Failure {
	out := flatten(e)
	if len(out) == 0 {
		out = []Failure{{Path: pointer(e.InstanceLocation), Message: "validation failed"}}
	}
	return tidy(out)
}

func flatten(e *jsonschema.ValidationError) []Failure {
	if e == nil {
		return nil
	}
	switch k := e.ErrorKind.(type) {
	case nil, *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		// Wrappers: what failed is below.
		var out []Failure
		for _, c := range e.Causes {
			out = append(out, flatten(c)...)
		}
		if len(out) == 0 && k != nil {
			out = append(out, leaf(e))
		}
		return out
	case *kind.AnyOf:
		return alternatives(e, "anyOf")
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			return alternatives(e, "oneOf")
		}
	case *kind.PropertyNames:
		// The name's own failures, whose location is the object's.
		f := leaf(e)
		var why []string
		for _, c := range tidy(flatten(&jsonschema.ValidationError{ErrorKind: &kind.Group{}, Causes: e.Causes})) {
			why = append(why, c.Message)
		}
		if len(why) > 0 {
			f.Message += " (" + strings.Join(why, "; ") + ")"
		}
		return []Failure{f}
	}
	return []Failure{leaf(e)}
}

func leaf(e *jsonschema.ValidationError) Failure {
	f := Failure{Path: pointer(e.InstanceLocation)}
	if e.ErrorKind == nil {
		f.Message = "validation failed"
		return f
	}
	if kw := e.ErrorKind.KeywordPath(); len(kw) > 0 {
		f.Keyword = kw[0]
	}
	f.Message = describe(e.ErrorKind)
	return f
}

// describe words one failure: the validator's English message, except
// that numbers are written as JavaScript writes them (its printer would
// write "1,500" and "1.2×10⁰⁶"), lists of property names are sorted (the
// validator walks a map), and a false schema says what it means.
func describe(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.FalseSchema:
		return "value not allowed"
	case *kind.Schema:
		// A schema compiled at its vetted URL names the one it has.
		if rest, ok := strings.CutPrefix(k.Location, vettedPrefix); ok {
			return (&kind.Schema{Location: "mem://" + rest}).LocalizedString(printer)
		}
	case *kind.Minimum:
		return fmt.Sprintf("minimum: got %s, want %s", number(k.Got), number(k.Want))
	case *kind.Maximum:
		return fmt.Sprintf("maximum: got %s, want %s", number(k.Got), number(k.Want))
	case *kind.ExclusiveMinimum:
		return fmt.Sprintf("exclusiveMinimum: got %s, want %s", number(k.Got), number(k.Want))
	case *kind.ExclusiveMaximum:
		return fmt.Sprintf("exclusiveMaximum: got %s, want %s", number(k.Got), number(k.Want))
	case *kind.MultipleOf:
		return fmt.Sprintf("multipleOf: got %s, want %s", number(k.Got), number(k.Want))
	case *kind.MinLength:
		return fmt.Sprintf("minLength: got %d, want %d", k.Got, k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("maxLength: got %d, want %d", k.Got, k.Want)
	case *kind.MinItems:
		return fmt.Sprintf("minItems: got %d, want %d", k.Got, k.Want)
	case *kind.MaxItems:
		return fmt.Sprintf("maxItems: got %d, want %d", k.Got, k.Want)
	case *kind.MinProperties:
		return fmt.Sprintf("minProperties: got %d, want %d", k.Got, k.Want)
	case *kind.MaxProperties:
		return fmt.Sprintf("maxProperties: got %d, want %d", k.Got, k.Want)
	case *kind.UniqueItems:
		return fmt.Sprintf("items at %d and %d are equal", k.Duplicates[0], k.Duplicates[1])
	case *kind.AdditionalItems:
		return fmt.Sprintf("last %d additionalItem(s) not allowed", k.Count)
	case *kind.AdditionalProperties:
		names := slices.Sorted(slices.Values(k.Properties))
		for i, n := range names {
			names[i] = quote(n)
		}
		return fmt.Sprintf("additional properties %s not allowed", strings.Join(names, ", "))
	case *kind.OneOf:
		if len(k.Subschemas) == 2 {
			return fmt.Sprintf("'oneOf' failed, subschemas %d, %d matched", k.Subschemas[0], k.Subschemas[1])
		}
	}
	return k.LocalizedString(printer)
}

// number writes a number as JavaScript's Number#toString does.
func number(r *big.Rat) string {
	if r == nil {
		return "NaN"
	}
	f, _ := r.Float64()
	if math.IsInf(f, 0) {
		return r.RatString()
	}
	if a := math.Abs(f); a == 0 || (a >= 1e-7 && a < 1e21) {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'e', -1, 64)
}

// alternatives reports a oneOf or anyOf that no branch matched (see
// Failure.Alternatives).
func alternatives(e *jsonschema.ValidationError, keyword string) []Failure {
	path := pointer(e.InstanceLocation)
	var near [][]Failure
	var got string
	var want []string
	for _, c := range e.Causes {
		fs := tidy(flatten(c))
		if t, ok := typeOnly(c, path); ok {
			got = t.Got
			for _, w := range t.Want {
				if !slices.Contains(want, w) {
					want = append(want, w)
				}
			}
			continue
		}
		if len(fs) > 0 {
			near = append(near, fs)
		}
	}
	switch len(near) {
	case 0:
		if got != "" {
			return []Failure{{Path: path, Keyword: "type", Message: fmt.Sprintf("got %s, want %s", got, strings.Join(want, " or "))}}
		}
		return []Failure{{Path: path, Keyword: keyword, Message: fmt.Sprintf("'%s' failed, none matched", keyword)}}
	case 1:
		return near[0]
	}
	return []Failure{{Path: path, Keyword: keyword, Message: fmt.Sprintf("'%s' failed, none matched", keyword), Alternatives: near}}
}

// typeOnly reports whether a branch failed only because the value at path
// has another type.
func typeOnly(e *jsonschema.ValidationError, path string) (*kind.Type, bool) {
	for e != nil {
		switch k := e.ErrorKind.(type) {
		case *kind.Type:
			return k, pointer(e.InstanceLocation) == path
		case *kind.Group, *kind.Reference, *kind.Schema, *kind.AllOf:
			if len(e.Causes) != 1 {
				return nil, false
			}
			e = e.Causes[0]
		default:
			return nil, false
		}
	}
	return nil, false
}

// tidy sorts failures and drops duplicates.
func tidy(fs []Failure) []Failure {
	slices.SortStableFunc(fs, compareFailures)
	return slices.CompactFunc(fs, func(a, b Failure) bool { return compareFailures(a, b) == 0 })
}

func compareFailures(a, b Failure) int {
	if c := comparePointers(a.Path, b.Path); c != 0 {
		return c
	}
	if c := strings.Compare(a.Keyword, b.Keyword); c != 0 {
		return c
	}
	if c := strings.Compare(a.Message, b.Message); c != 0 {
		return c
	}
	if c := len(a.Alternatives) - len(b.Alternatives); c != 0 {
		return c
	}
	for i := range a.Alternatives {
		if c := slices.CompareFunc(a.Alternatives[i], b.Alternatives[i], compareFailures); c != 0 {
			return c
		}
	}
	return 0
}

// comparePointers orders JSON pointers token by token, a prefix first,
// tokens of digits numerically.
func comparePointers(a, b string) int {
	if a == b {
		return 0
	}
	ta, tb := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(ta) && i < len(tb); i++ {
		if c := compareTokens(ta[i], tb[i]); c != 0 {
			return c
		}
	}
	return len(ta) - len(tb)
}

func compareTokens(a, b string) int {
	if isDigits(a) && isDigits(b) {
		a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
		if len(a) != len(b) {
			return len(a) - len(b)
		}
	}
	return strings.Compare(a, b)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// pointer renders instance location tokens as a JSON pointer.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escapeToken(t))
	}
	return b.String()
}

var tokenEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func escapeToken(t string) string { return tokenEscaper.Replace(t) }

// Compiling.

// compiledSchemas are a typed tool's schemas, compiled by Func; New
// reuses them while Input and Output are still the reflected documents.
type compiledSchemas struct {
	inputSrc, outputSrc []byte
	input, output       *jsonschema.Schema
}

// ecmaRegexp is a compiled ECMAScript pattern.
type ecmaRegexp struct{ re *regexp2.Regexp }

func (r ecmaRegexp) MatchString(s string) bool {
	ok, err := r.re.MatchString(s)
	return err == nil && ok
}

func (r ecmaRegexp) String() string { return r.re.String() }

func compileECMAScript(pattern string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(pattern, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = PatternTimeout
	return ecmaRegexp{re}, nil
}

// refuseLoader loads nothing: a tool's schema is one self-contained
// document (the JSON Schema meta-schemas excepted, which the validator
// embeds).
type refuseLoader struct{}

func (refuseLoader) Load(u string) (any, error) {
	return nil, fmt.Errorf("schemas are not loaded from outside the tool's own document")
}

// annotationFormats are the formats the validator knows, registered as
// annotations: format never asserts, whatever the draft ("regex" cannot
// be overridden and is checked in draft-07 and older).
var annotationFormats = []string{
	"date-time", "date", "time", "duration", "period", "email", "idn-email",
	"hostname", "idn-hostname", "ipv4", "ipv6", "uri", "uri-reference", "iri",
	"iri-reference", "uri-template", "json-pointer", "relative-json-pointer",
	"uuid", "semver",
}

func noFormatCheck(any) error { return nil }

// schemaURL is where a tool's schema is registered: an absolute URL, so
// that the validator never resolves it against the working directory.
func schemaURL(path, which string) string {
	if path == "" {
		return "mem://tools/" + which + ".json"
	}
	return "mem://tools/" + url.PathEscape(path) + "/" + which + ".json"
}

// compileSchema compiles one schema document registered at loc.
//
// Compiling validates the document against its draft's meta-schema
// first, which is about half the cost of a compilation. Where metaValid
// knows the document passes, the document is compiled without that step
// (see vettedURL); any failure there falls back to the full compilation,
// so that results and messages are always those of the full one.
func compileSchema(loc string, doc []byte) (*jsonschema.Schema, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if metaValid(v) {
		if sch, err := compileAt(vettedURL(loc), v); err == nil {
			return sch, nil
		}
		if v, err = jsonschema.UnmarshalJSON(bytes.NewReader(doc)); err != nil {
			return nil, fmt.Errorf("not JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
		}
	}
	sch, err := compileAt(loc, v)
	if err != nil {
		return nil, schemaError(loc, err)
	}
	return sch, nil
}

// compileAt compiles a parsed schema document registered at loc.
func compileAt(loc string, v any) (*jsonschema.Schema, error) {
	c := newCompiler()
	if err := c.AddResource(loc, v); err != nil {
		return nil, err
	}
	return c.Compile(loc)
}

// newCompiler is a compiler set up as the package documentation says.
func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseRegexpEngine(compileECMAScript)
	c.UseLoader(refuseLoader{})
	for _, name := range annotationFormats {
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: noFormatCheck})
	}
	return c
}

// vettedPrefix starts the URLs of documents compiled without the
// meta-schema check: the validator checks no document registered under
// json-schema.org, where the meta-schemas live (it embeds them, and no
// meta-schema lives under this path).
const vettedPrefix = "https://json-schema.org/codemode-vetted/"

// vettedURL is where a document that metaValid accepts is compiled: the
// document resolves nothing against its URL (metaValid accepts no $id, and
// only references within the document), so the compiled schema is the
// one loc would give, but for its locations.
func vettedURL(loc string) string {
	return vettedPrefix + strings.TrimPrefix(loc, "mem://")
}

// metaValid reports whether a schema document (as jsonschema.UnmarshalJSON
// gives it) certainly passes the check against the draft 2020-12
// meta-schema, formats asserted, that compiling it starts with. It is a
// strict subset of that meta-schema, written out: it says no to whatever
// it is not sure of, a document that names a draft or a vocabulary
// ("$schema", "$vocabulary"), sets its own URL ("$id"), uses dynamic or
// recursive references, or references anything outside itself. Those are
// checked by the validator, as before.
func metaValid(v any) bool { return metaSchema(v, 0) }

// metaDepth bounds the nesting metaValid follows (the validator has no
// such bound; a deeper document takes the full check).
const metaDepth = 200

// metaRule is what the meta-schema asks of one keyword's value.
type metaRule uint8

const (
	ruleSchema     metaRule = iota + 1 // a schema
	ruleSchemaMap                      // an object of schemas
	ruleSchemaList                     // a non-empty array of schemas
	ruleString
	ruleBool
	ruleNumber
	rulePositive // a number above zero
	ruleCount    // a non-negative integer
	ruleArray
	ruleStrings    // an array of distinct strings
	ruleStringsMap // an object of arrays of distinct strings
	ruleType       // a simple type or a non-empty array of distinct ones
	rulePattern    // an ECMAScript regular expression
	rulePatterns   // an object of schemas whose keys are regular expressions
	ruleRef        // a URI reference within the document
	ruleAnchor
	ruleDependencies // an object of schemas or arrays of distinct strings
	ruleUnsure       // left to the validator
)

// metaRules are the keywords the draft 2020-12 meta-schema describes
// (its vocabularies, and the older keywords it still describes). It lets
// any other keyword hold any value.
var metaRules = map[string]metaRule{
	// core
	"$id": ruleUnsure, "$schema": ruleUnsure, "$ref": ruleRef, "$anchor": ruleAnchor,
	"$dynamicRef": ruleUnsure, "$dynamicAnchor": ruleUnsure, "$vocabulary": ruleUnsure,
	"$comment": ruleString, "$defs": ruleSchemaMap,
	// applicator
	"prefixItems": ruleSchemaList, "items": ruleSchema, "contains": ruleSchema,
	"additionalProperties": ruleSchema, "properties": ruleSchemaMap, "patternProperties": rulePatterns,
	"dependentSchemas": ruleSchemaMap, "propertyNames": ruleSchema, "if": ruleSchema,
	"then": ruleSchema, "else": ruleSchema, "allOf": ruleSchemaList, "anyOf": ruleSchemaList,
	"oneOf": ruleSchemaList, "not": ruleSchema,
	// unevaluated
	"unevaluatedItems": ruleSchema, "unevaluatedProperties": ruleSchema,
	// validation
	"type": ruleType, "enum": ruleArray, "multipleOf": rulePositive,
	"maximum": ruleNumber, "exclusiveMaximum": ruleNumber, "minimum": ruleNumber, "exclusiveMinimum": ruleNumber,
	"maxLength": ruleCount, "minLength": ruleCount, "pattern": rulePattern,
	"maxItems": ruleCount, "minItems": ruleCount, "uniqueItems": ruleBool,
	"maxContains": ruleCount, "minContains": ruleCount, "maxProperties": ruleCount, "minProperties": ruleCount,
	"required": ruleStrings, "dependentRequired": ruleStringsMap,
	// meta-data, format-annotation, content
	"title": ruleString, "description": ruleString, "deprecated": ruleBool, "readOnly": ruleBool,
	"writeOnly": ruleBool, "examples": ruleArray, "format": ruleString,
	"contentEncoding": ruleString, "contentMediaType": ruleString, "contentSchema": ruleSchema,
	// earlier drafts'
	"definitions": ruleSchemaMap, "dependencies": ruleDependencies,
	"$recursiveAnchor": ruleUnsure, "$recursiveRef": ruleUnsure,
}

var simpleTypes = map[string]bool{"array": true, "boolean": true, "integer": true, "null": true, "number": true, "object": true, "string": true}

func metaSchema(v any, depth int) bool {
	switch v := v.(type) {
	case bool:
		return true
	case map[string]any:
		if depth > metaDepth {
			return false
		}
		for k, e := range v {
			if rule, ok := metaRules[k]; ok && !metaFits(rule, e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

func metaFits(rule metaRule, v any, depth int) bool {
	switch rule {
	case ruleSchema:
		return metaSchema(v, depth)
	case ruleSchemaMap, rulePatterns:
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for k, e := range m {
			if rule == rulePatterns && !validPattern(k) || !metaSchema(e, depth) {
				return false
			}
		}
		return true
	case ruleSchemaList:
		a, ok := v.([]any)
		if !ok || len(a) == 0 {
			return false
		}
		for _, e := range a {
			if !metaSchema(e, depth) {
				return false
			}
		}
		return true
	case ruleString:
		_, ok := v.(string)
		return ok
	case ruleBool:
		_, ok := v.(bool)
		return ok
	case ruleNumber:
		_, ok := v.(json.Number)
		return ok
	case rulePositive:
		n, ok := v.(json.Number)
		f, err := n.Float64()
		return ok && err == nil && f > 0
	case ruleCount:
		n, ok := v.(json.Number)
		return ok && isDigits(string(n))
	case ruleArray:
		_, ok := v.([]any)
		return ok
	case ruleStrings:
		return distinctStrings(v, nil)
	case ruleStringsMap:
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for _, e := range m {
			if !distinctStrings(e, nil) {
				return false
			}
		}
		return true
	case ruleType:
		if s, ok := v.(string); ok {
			return simpleTypes[s]
		}
		a, ok := v.([]any)
		return ok && len(a) > 0 && distinctStrings(v, simpleTypes)
	case rulePattern:
		s, ok := v.(string)
		return ok && validPattern(s)
	case ruleRef:
		// Within the document, so that the URL the document is compiled
		// at changes nothing; a URI reference, as the format asks.
		s, ok := v.(string)
		if !ok || !strings.HasPrefix(s, "#") || strings.Contains(s, `\`) {
			return false
		}
		_, err := url.Parse(s)
		return err == nil
	case ruleAnchor:
		s, ok := v.(string)
		return ok && isAnchor(s)
	case ruleDependencies:
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for _, e := range m {
			if _, list := e.([]any); list && !distinctStrings(e, nil) || !list && !metaSchema(e, depth) {
				return false
			}
		}
		return true
	}
	return false
}

// distinctStrings reports whether v is an array of distinct strings, each
// in allowed when allowed is not nil.
func distinctStrings(v any, allowed map[string]bool) bool {
	a, ok := v.([]any)
	if !ok {
		return false
	}
	seen := make(map[string]bool, len(a))
	for _, e := range a {
		s, ok := e.(string)
		if !ok || seen[s] || allowed != nil && !allowed[s] {
			return false
		}
		seen[s] = true
	}
	return true
}

// validPattern reports whether the validator's "regex" format accepts a
// pattern: whether it compiles as ECMAScript.
func validPattern(s string) bool {
	_, err := compileECMAScript(s)
	return err == nil
}

// isAnchor matches ^[A-Za-z_][-A-Za-z0-9._]*$, the meta-schema's anchor
// pattern.
func isAnchor(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || c == '_'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// schemaError rewrites the validator's compile errors without the URL
// the schema was registered under.
func schemaError(loc string, err error) error {
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			return fmt.Errorf("not a valid JSON Schema: %s", (&ValidationError{Failures: failures(ve)}).Error())
		}
	}
	var rx *jsonschema.InvalidRegexError
	if errors.As(err, &rx) {
		return fmt.Errorf("invalid ECMAScript pattern %s at %s: %v", quote(rx.Regex), quote(fragment(rx.URL)), rx.Err)
	}
	return errors.New(strings.ReplaceAll(err.Error(), loc, "<schema>"))
}

func fragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		if f, err := url.PathUnescape(u[i+1:]); err == nil {
			return f
		}
		return u[i+1:]
	}
	return ""
}
