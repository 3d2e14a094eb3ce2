package openapi

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	yaml "go.yaml.in/yaml/v4"
)

// kinDecode gives kin-openapi the document as the tree we parsed, as YAML
// nodes to its YAML decoder (generated code, one pass over the nodes),
// which costs a quarter of its JSON decoder (whose every type decodes its
// own bytes twice, once for its fields and once for its extensions). The
// result is the one encoding/json gives: ok is false wherever the two
// decoders could disagree (see fitsJSON; a duplicate key, a number beyond
// the float64 range) or the YAML decoder fails, and the caller then takes
// the JSON path, whose results and messages are the reference.
func kinDecode(root *object) (doc *openapi3.T, ok bool) {
	defer func() {
		if recover() != nil {
			doc, ok = nil, false // let encoding/json's path say what fails
		}
	}()
	if !fitsJSON(root, kinDocType, false) {
		return nil, false
	}
	b := nodeBuilder{nodes: map[*object]*yaml.Node{}}
	n := b.node(root)
	if b.odd {
		return nil, false
	}
	doc = &openapi3.T{}
	if err := n.Decode(doc); err != nil {
		return nil, false
	}
	return doc, true
}

// nodeBuilder turns the tree into YAML nodes with explicit tags, so that
// the decoder resolves nothing on its own: a string stays a string
// whatever it looks like ("2024-01-01", "yes", "1.0").
type nodeBuilder struct {
	nodes map[*object]*yaml.Node // one node for an object a YAML alias shares
	odd   bool                   // a number beyond the float64 range, a duplicate key
	slab  []yaml.Node            // nodes are allocated in blocks, a tenth of the cost
}

// alloc returns a new node.
func (b *nodeBuilder) alloc(kind yaml.Kind, tag, value string) *yaml.Node {
	if len(b.slab) == 0 {
		b.slab = make([]yaml.Node, 256)
	}
	n := &b.slab[0]
	b.slab = b.slab[1:]
	n.Kind, n.Tag, n.Value = kind, tag, value
	return n
}

func (b *nodeBuilder) node(v any) *yaml.Node {
	switch x := v.(type) {
	case nil:
		return b.alloc(yaml.ScalarNode, "!!null", "null")
	case bool:
		return b.alloc(yaml.ScalarNode, "!!bool", strconv.FormatBool(x))
	case json.Number:
		return b.number(string(x))
	case string:
		return b.alloc(yaml.ScalarNode, "!!str", x)
	case []any:
		n := b.alloc(yaml.SequenceNode, "!!seq", "")
		n.Content = make([]*yaml.Node, len(x))
		for i, e := range x {
			n.Content[i] = b.node(e)
		}
		return n
	case *object:
		if n, ok := b.nodes[x]; ok {
			return n
		}
		if x.replaced {
			b.odd = true // encoding/json, reading the text, sees both values
		}
		n := b.alloc(yaml.MappingNode, "!!map", "")
		n.Content = make([]*yaml.Node, 0, 2*len(x.keys))
		for _, i := range memberOrder(x) {
			n.Content = append(n.Content, b.alloc(yaml.ScalarNode, "!!str", x.keys[i]), b.node(x.vals[i]))
		}
		b.nodes[x] = n
		return n
	}
	b.odd = true
	return b.alloc(yaml.ScalarNode, "!!null", "null")
}

// memberOrder is the order of an object's members in its node: the
// document's, but sorted by key for a reference with siblings, whose
// names kin-openapi's JSON decoder keeps sorted and its YAML decoder in
// document order.
func memberOrder(o *object) []int {
	if len(o.keys) < len(inOrder) {
		if _, ok := o.val("$ref").(string); !ok || len(o.keys) == 1 {
			return inOrder[:len(o.keys)]
		}
	}
	order := make([]int, len(o.keys))
	for i := range order {
		order[i] = i
	}
	if _, ok := o.val("$ref").(string); ok && len(o.keys) > 1 {
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(o.keys[a], o.keys[b]) })
	}
	return order
}

// inOrder is the order of the members of most objects.
var inOrder = func() []int {
	order := make([]int, 64)
	for i := range order {
		order[i] = i
	}
	return order
}()

// number tags a JSON number literal: an integer that fits an int64 as
// !!int, anything else as !!float, written in the shortest form that
// reads back as the float64 encoding/json reads ("-0" keeps its sign).
// A number beyond the float64 range is odd.
func (b *nodeBuilder) number(lit string) *yaml.Node {
	if plainInt(lit, true) {
		return b.alloc(yaml.ScalarNode, "!!int", lit)
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		b.odd = true
	}
	return b.alloc(yaml.ScalarNode, "!!float", strconv.FormatFloat(f, 'g', -1, 64))
}

// plainInt reports whether a number literal is an integer that fits an
// int64 (signed) or a uint64 (not signed), written without a fraction or
// an exponent, and not "-0".
func plainInt(lit string, signed bool) bool {
	if strings.ContainsAny(lit, ".eE") || lit == "-0" {
		return false
	}
	if signed {
		_, err := strconv.ParseInt(lit, 10, 64)
		return err == nil
	}
	_, err := strconv.ParseUint(lit, 10, 64)
	return err == nil
}

// The types kin-openapi decodes that get a check of their own.
var (
	kinDocType        = reflect.TypeFor[openapi3.T]()
	kinSchemaType     = reflect.TypeFor[openapi3.Schema]()
	kinSchemaRefType  = reflect.TypeFor[openapi3.SchemaRef]()
	kinTypesType      = reflect.TypeFor[openapi3.Types]()
	kinBoolSchemaType = reflect.TypeFor[openapi3.BoolSchema]()
	kinBoundType      = reflect.TypeFor[openapi3.ExclusiveBound]()
)

// fitsJSON reports whether v decodes into a Go value of type t through
// kin-openapi's YAML decoder exactly as through encoding/json, following
// encoding/json's rules and kin-openapi's own decoders. It is
// conservative: where it is not sure, it says no. What it looks for are
// the YAML decoder's leniencies: it takes a number or a boolean as the
// text of a string, a float64 with an integral value as an integer, and
// "true" as a boolean; it matches keys to fields exactly, where
// encoding/json matches them in any case; and it reads a null in a list
// otherwise. elem says v is an element of a list or a map.
func fitsJSON(v any, t reflect.Type, elem bool) bool {
	if v == nil {
		switch t.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice:
			return true
		case reflect.Struct, reflect.Array:
			return false
		}
		return !elem
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case kinTypesType:
		if _, ok := v.(string); ok {
			return true
		}
		return fitsJSON(v, reflect.TypeFor[[]string](), elem)
	case kinBoolSchemaType:
		if _, ok := v.(bool); ok {
			return true
		}
		return asObject(v) != nil && fitsJSON(v, kinSchemaRefType, elem)
	case kinBoundType:
		switch v.(type) {
		case bool, json.Number:
			return true
		}
		return false
	case kinSchemaType, kinSchemaRefType:
		if _, ok := v.(bool); ok {
			return true // a boolean schema (JSON Schema 2020-12)
		}
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.String:
		_, ok := v.(string)
		return ok
	case reflect.Bool:
		_, ok := v.(bool)
		return ok
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(json.Number)
		return ok && t.Size() == 8 && plainInt(string(n), t.Kind() <= reflect.Int64)
	case reflect.Float32, reflect.Float64:
		_, ok := v.(json.Number)
		return ok && t.Kind() == reflect.Float64
	case reflect.Slice:
		a, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range a {
			if !fitsJSON(e, t.Elem(), true) {
				return false
			}
		}
		return true
	case reflect.Map:
		o := asObject(v)
		if o == nil || t.Key().Kind() != reflect.String {
			return false
		}
		for _, e := range o.vals {
			if !fitsJSON(e, t.Elem(), true) {
				return false
			}
		}
		return true
	case reflect.Struct:
		o := asObject(v)
		return o != nil && kinStruct(t).fits(o)
	}
	return false
}

// kinStructInfo is what fitsJSON knows of one of kin-openapi's structs.
type kinStructInfo struct {
	fields map[string]reflect.Type // by JSON name
	folded map[string]bool         // the names folded as encoding/json folds keys
	// entries is the type of a map-like collection's entries (Paths,
	// Responses, Callback: keys are names, or extensions with "x-").
	entries reflect.Type
	// value is a reference type's value (ParameterRef.Value): an object
	// with a "$ref" is a reference, another is the value.
	value reflect.Type
	ref   *kinStructInfo // Ref's fields, for a reference type
}

var kinStructs sync.Map // reflect.Type -> *kinStructInfo

func kinStruct(t reflect.Type) *kinStructInfo {
	if s, ok := kinStructs.Load(t); ok {
		return s.(*kinStructInfo)
	}
	s := &kinStructInfo{fields: map[string]reflect.Type{}, folded: map[string]bool{}}
	var ref, value bool
	for _, f := range reflect.VisibleFields(t) {
		switch {
		case f.Name == "m" && f.Type.Kind() == reflect.Map:
			s.entries = f.Type.Elem()
		case !f.IsExported() || f.Anonymous:
		case f.Name == "Ref" && f.Type.Kind() == reflect.String:
			ref = true
		case f.Name == "Value" && f.Type.Kind() == reflect.Pointer:
			value = true
			s.value = f.Type
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || f.Anonymous || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		s.fields[name] = f.Type
		s.folded[foldKey(name)] = true
	}
	if ref && value && t != reflect.TypeFor[openapi3.Ref]() {
		s.ref = kinStruct(reflect.TypeFor[openapi3.Ref]())
		s.fields, s.folded = nil, nil
	} else {
		s.value = nil
	}
	kinStructs.Store(t, s)
	return s
}

func (s *kinStructInfo) fits(o *object) bool {
	switch {
	case s.entries != nil:
		for i, k := range o.keys {
			if !strings.HasPrefix(k, "x-") && !fitsJSON(o.vals[i], s.entries, true) {
				return false
			}
		}
		return true
	case s.ref != nil:
		ref, present := o.get("$ref")
		if !present {
			for _, k := range o.keys {
				if foldKey(k) == "$ref" {
					return false // "$REF", a reference to encoding/json
				}
			}
			return fitsJSON(o, s.value, false)
		}
		if r, ok := ref.(string); !ok || r == "" || !s.ref.fits(o) {
			return false
		}
		// A reference's summary and description: the YAML decoder takes a
		// null as "" (and ignores what is not text), encoding/json a
		// null as none (and no reference where one is not text).
		for name := range s.ref.fields {
			if v, ok := o.get(name); ok {
				if _, text := v.(string); !text {
					return false
				}
			}
		}
		// A schema applies the siblings of its $ref (OpenAPI 3.1).
		return s.value.Elem() != kinSchemaType || fitsJSON(o, s.value, false)
	}
	for i, k := range o.keys {
		t, ok := s.fields[k]
		if !ok {
			if s.folded[foldKey(k)] {
				return false // another case of a field's name
			}
			continue // an extension, any value
		}
		if !fitsJSON(o.vals[i], t, false) {
			return false
		}
	}
	return true
}

// foldKey folds a key as encoding/json does to match a key to a field in
// any case: ASCII letters to lower case, any other rune to the lower case
// of its upper case ('ſ' folds as "s", the Kelvin sign as "k").
func foldKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
		} else {
			r = unicode.ToLower(unicode.ToUpper(r))
		}
		b.WriteRune(r)
	}
	return b.String()
}
