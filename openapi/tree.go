package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The document is held as a tree of JSON values that keeps the order of
// object keys as written: schemas become the TypeScript a model reads, and
// a property list in source order reads better than a sorted one. A value
// is nil (null), bool, string, json.Number, []any or *object.

// maxDepth bounds how deeply a document (or a tool's input) may nest. Real
// descriptions stay below 50 levels; the bound keeps every recursive walk
// of the tree short.
const maxDepth = 1000

// object is a JSON object with its keys in order. A key appears once (a
// duplicate keeps the first position and the last value, as JSON.parse
// does).
type object struct {
	keys  []string
	vals  []any
	index map[string]int // built once the object has more than a few keys
	// replaced says a key was set twice: the document's text had a
	// duplicate key (or a YAML merge key was overridden).
	replaced bool
}

const indexAbove = 8

func newObject(n int) *object {
	return &object{keys: make([]string, 0, n), vals: make([]any, 0, n)}
}

// get returns the value under key and whether the key is present.
func (o *object) get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return o.vals[i], true
		}
		return nil, false
	}
	for i, k := range o.keys {
		if k == key {
			return o.vals[i], true
		}
	}
	return nil, false
}

// val returns the value under key, nil when absent.
func (o *object) val(key string) any {
	v, _ := o.get(key)
	return v
}

// set adds key or replaces its value in place.
func (o *object) set(key string, v any) {
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			o.vals[i], o.replaced = v, true
			return
		}
	} else {
		for i, k := range o.keys {
			if k == key {
				o.vals[i], o.replaced = v, true
				return
			}
		}
	}
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, v)
	if o.index != nil {
		o.index[key] = len(o.keys) - 1
	} else if len(o.keys) > indexAbove {
		o.index = make(map[string]int, len(o.keys)*2)
		for i, k := range o.keys {
			o.index[k] = i
		}
	}
}

// jsKeys lists the keys in the order JavaScript's Object.entries gives
// them: canonical array indexes ("0", "12") first, ascending, then the rest
// as written. The reference walks documents in that order.
func (o *object) jsKeys() []int {
	order := make([]int, 0, len(o.keys))
	var idx []int
	for i, k := range o.keys {
		if _, ok := arrayIndex(k); ok {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		for i := range o.keys {
			order = append(order, i)
		}
		return order
	}
	// Insertion sort: documents rarely have more than a few such keys.
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0; j-- {
			a, _ := arrayIndex(o.keys[idx[j-1]])
			b, _ := arrayIndex(o.keys[idx[j]])
			if a <= b {
				break
			}
			idx[j-1], idx[j] = idx[j], idx[j-1]
		}
	}
	order = append(order, idx...)
	for i, k := range o.keys {
		if _, ok := arrayIndex(k); !ok {
			order = append(order, i)
		}
	}
	return order
}

// each calls f for every entry in JavaScript's order.
func (o *object) each(f func(key string, v any)) {
	if o == nil {
		return
	}
	for _, i := range o.jsKeys() {
		f(o.keys[i], o.vals[i])
	}
}

func arrayIndex(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(k, 10, 64)
	if err != nil || n >= 1<<32-1 {
		return 0, false
	}
	return n, true
}

// Accessors that answer the zero value for a missing or mistyped member.

func asObject(v any) *object {
	o, _ := v.(*object)
	return o
}

func asArray(v any) []any {
	a, _ := v.([]any)
	return a
}

// nonEmpty is the value when it is a non-empty string, else "".
func nonEmpty(v any) string {
	s, _ := v.(string)
	return s
}

// parseDocument reads a JSON or YAML document. JSON is read directly
// (faster, and with exact error offsets); anything else, or JSON that does
// not parse but is valid YAML, goes through the YAML parser.
func parseDocument(data []byte) (any, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, errors.New("the document is empty")
	}
	if trimmed[0] == '{' || trimmed[0] == '[' {
		v, err := parseJSON(data)
		if err == nil {
			return v, nil
		}
		if y, yerr := parseYAML(data); yerr == nil {
			return y, nil
		}
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	v, err := parseYAML(data)
	if err != nil {
		return nil, fmt.Errorf("not valid YAML: %w", err)
	}
	return v, nil
}

// parseJSON reads one JSON value, keeping key order and number literals.
func parseJSON(data []byte) (v any, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err = readJSON(dec, 0)
	if err != nil {
		return nil, jsonError(dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("unexpected data after the top-level value at offset %d", dec.InputOffset())
	}
	return v, nil
}

func jsonError(dec *json.Decoder, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s (offset %d)", se.Error(), se.Offset)
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errors.New("unexpected end of input")
	}
	return fmt.Errorf("%v (offset %d)", err, dec.InputOffset())
}

func readJSON(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxDepth {
			return nil, fmt.Errorf("nested deeper than %d levels", maxDepth)
		}
		if t == '[' {
			arr := []any{}
			for dec.More() {
				v, err := readJSON(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		}
		obj := newObject(4)
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, _ := kt.(string)
			v, err := readJSON(dec, depth+1)
			if err != nil {
				return nil, err
			}
			obj.set(key, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return obj, nil
	case string:
		return strings.ToValidUTF8(t, "\uFFFD"), nil
	default:
		return t, nil // nil, bool, json.Number
	}
}

// maxAliasExpansion bounds how many nodes YAML aliases may add to a
// document beyond its own size, against "billion laughs" documents.
const maxAliasExpansion = 100_000

// parseYAML reads the first YAML document of data.
func parseYAML(data []byte) (v any, err error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, errors.New("the document is empty")
	}
	c := &yamlConverter{done: map[*yaml.Node]any{}, busy: map[*yaml.Node]bool{}, sizes: map[*yaml.Node]int{}}
	expanded := c.size(doc.Content[0], 0)
	if c.err != nil {
		return nil, c.err
	}
	if c.aliases > 0 {
		if physical := c.physical(doc.Content[0], map[*yaml.Node]bool{}); expanded > 2*physical+maxAliasExpansion {
			return nil, fmt.Errorf("YAML aliases expand to more than %d nodes", 2*physical+maxAliasExpansion)
		}
	}
	return c.convert(doc.Content[0], 0)
}

type yamlConverter struct {
	done    map[*yaml.Node]any // converted nodes, so an alias shares its anchor's value
	busy    map[*yaml.Node]bool
	sizes   map[*yaml.Node]int // expanded size of each node (aliases counted in full)
	aliases int
	err     error
}

// physical counts the distinct nodes below n.
func (c *yamlConverter) physical(n *yaml.Node, seen map[*yaml.Node]bool) int {
	if n == nil || seen[n] {
		return 0
	}
	seen[n] = true
	total := 1
	for _, ch := range n.Content {
		total += c.physical(ch, seen)
	}
	return total
}

// size is the expanded size of n, saturating. Only anchored nodes can be
// reached twice (through aliases), so only they are memoized and watched
// for cycles.
func (c *yamlConverter) size(n *yaml.Node, depth int) int {
	if n == nil {
		return 0
	}
	anchored := n.Anchor != ""
	if anchored {
		if s, ok := c.sizes[n]; ok {
			return s
		}
	}
	if depth > maxDepth || c.busy[n] {
		if c.err == nil {
			if depth > maxDepth {
				c.err = fmt.Errorf("nested deeper than %d levels", maxDepth)
			} else {
				c.err = fmt.Errorf("line %d: a YAML alias refers to itself", n.Line)
			}
		}
		return 0
	}
	if anchored {
		c.busy[n] = true
	}
	total := 1
	if n.Kind == yaml.AliasNode {
		c.aliases++
		total += c.size(n.Alias, depth+1)
	}
	for _, ch := range n.Content {
		total += c.size(ch, depth+1)
		if total > math.MaxInt32 {
			total = math.MaxInt32
		}
	}
	if anchored {
		delete(c.busy, n)
		c.sizes[n] = total
	}
	return total
}

func (c *yamlConverter) convert(n *yaml.Node, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested deeper than %d levels", maxDepth)
	}
	if n.Anchor != "" {
		if v, ok := c.done[n]; ok {
			return v, nil
		}
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, fmt.Errorf("line %d: unknown YAML alias", n.Line)
		}
		return c.convert(n.Alias, depth+1)
	case yaml.SequenceNode:
		arr := make([]any, 0, len(n.Content))
		for _, ch := range n.Content {
			v, err := c.convert(ch, depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if n.Anchor != "" {
			c.done[n] = arr
		}
		return arr, nil
	case yaml.MappingNode:
		obj := newObject(len(n.Content) / 2)
		if n.Anchor != "" {
			c.done[n] = obj
		}
		if err := c.fill(obj, n, depth); err != nil {
			return nil, err
		}
		return obj, nil
	case yaml.ScalarNode:
		return scalar(n), nil
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.convert(n.Content[0], depth+1)
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node", n.Line)
}

// fill adds a mapping's entries to obj, applying merge keys ("<<") the
// way YAML 1.1 does: merged entries never replace explicit ones.
func (c *yamlConverter) fill(obj *object, n *yaml.Node, depth int) error {
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, vn := n.Content[i], n.Content[i+1]
		for k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: a mapping key is not a string", k.Line)
		}
		if k.Tag == "!!merge" {
			merges = append(merges, vn)
			continue
		}
		v, err := c.convert(vn, depth+1)
		if err != nil {
			return err
		}
		obj.set(k.Value, v)
	}
	for _, m := range merges {
		for m.Kind == yaml.AliasNode && m.Alias != nil {
			m = m.Alias
		}
		sources := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			sources = m.Content
		}
		for _, s := range sources {
			v, err := c.convert(s, depth+1)
			if err != nil {
				return err
			}
			src := asObject(v)
			if src == nil {
				return fmt.Errorf("line %d: a merge key (<<) needs a mapping", m.Line)
			}
			for i, k := range src.keys {
				if _, ok := obj.get(k); !ok {
					obj.set(k, src.vals[i])
				}
			}
		}
	}
	return nil
}

// scalar converts a YAML scalar to a JSON value: null, booleans and
// numbers by their resolved tag, everything else (timestamps, binary,
// custom tags, infinities, NaN) as its text.
func scalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		var x any
		if n.Decode(&x) == nil {
			switch i := x.(type) {
			case int:
				return json.Number(strconv.FormatInt(int64(i), 10))
			case int64:
				return json.Number(strconv.FormatInt(i, 10))
			case uint64:
				return json.Number(strconv.FormatUint(i, 10))
			case float64:
				if !math.IsInf(i, 0) && !math.IsNaN(i) {
					return json.Number(strconv.FormatFloat(i, 'g', -1, 64))
				}
			}
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
	}
	return strings.ToValidUTF8(n.Value, "\uFFFD")
}

// appendJSON writes v as compact JSON, keys in their order.
func appendJSON(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case json.Number:
		if x == "" {
			return append(b, '0')
		}
		return append(b, x...)
	case string:
		return appendString(b, x)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, e)
		}
		return append(b, ']')
	case *object:
		b = append(b, '{')
		for i, k := range x.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = appendJSON(b, x.vals[i])
		}
		return append(b, '}')
	case json.RawMessage:
		return append(b, x...)
	}
	return append(b, "null"...)
}

const hexDigits = "0123456789abcdef"

func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
