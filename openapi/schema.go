package openapi

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Schemas are taken from the document the way the reference takes them:
//
//   - projected by direction: a request schema loses its readOnly
//     properties, a response schema its writeOnly ones, through $ref hops,
//     allOf composition and reference cycles (solved with Tarjan's strongly
//     connected components), with required lists kept consistent; not, if
//     and contains are left alone, and anyOf/oneOf alternatives hide
//     nothing;
//   - normalized to JSON Schema 2020-12: "#/components/schemas/X" becomes
//     "#/$defs/X", and for OpenAPI 3.0 nullable becomes a null type,
//     boolean exclusiveMinimum/exclusiveMaximum become numbers, example
//     becomes examples and keywords JSON Schema does not know are dropped;
//   - with the component schemas they reference (projected the same way)
//     under $defs.

type direction int

const (
	request direction = iota
	response
)

var hiddenKeyword = [2]string{"readOnly", "writeOnly"}

// resource is a schema and the root its local "#/$defs/..." pointers
// resolve against.
type resource struct {
	value any
	root  any
}

// solver memoizes a per-schema answer computed over a reference graph that
// may have cycles.
type solver[T any] struct {
	values  map[*object]T
	pending map[*object]int // discovery index of schemas whose component is unresolved
	stack   []*object
}

func newSolver[T any]() *solver[T] {
	return &solver[T]{values: map[*object]T{}, pending: map[*object]int{}}
}

type cycleScope struct{ lowlink int }

func freshScope() *cycleScope { return &cycleScope{lowlink: math.MaxInt} }

// solveCycles is Tarjan's algorithm around compute: the members of a cycle
// all reach the same declarations, so the component root's value is final
// for every member. Only resolved components are cached.
func solveCycles[T any](s *solver[T], key *object, provisional T, scope *cycleScope, compute func(inner *cycleScope) T) T {
	if v, ok := s.values[key]; ok {
		return v
	}
	if p, ok := s.pending[key]; ok {
		scope.lowlink = min(scope.lowlink, p)
		return provisional
	}
	index := len(s.pending)
	base := len(s.stack)
	s.pending[key] = index
	s.stack = append(s.stack, key)
	inner := freshScope()
	v := compute(inner)
	if inner.lowlink < index {
		scope.lowlink = min(scope.lowlink, inner.lowlink)
		return v
	}
	for _, m := range s.stack[base:] {
		delete(s.pending, m)
		s.values[m] = v
	}
	s.stack = s.stack[:base]
	return v
}

// resolvePointer follows a "#/a/b" pointer from root.
func resolvePointer(root any, ref string) (any, bool) {
	cur := root
	for _, seg := range strings.Split(ref[2:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case *object:
			v, ok := c.get(seg)
			if !ok {
				return nil, false
			}
			cur = v
		default:
			return nil, false
		}
	}
	return cur, true
}

// resolve follows a chain of local $refs to its end; a missing target or a
// cycle leaves the last object reached.
func (c *converter) resolve(v any) any {
	var seen map[string]bool
	for {
		o := asObject(v)
		ref := nonEmpty(o.val("$ref"))
		if o == nil || !strings.HasPrefix(ref, "#/") || seen[ref] {
			return v
		}
		target, ok := resolvePointer(c.doc, ref)
		if !ok {
			return v
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[ref] = true
		v = target
	}
}

// resolveResource follows one $ref hop. Local $defs/definitions pointers
// resolve against the schema being projected; other pointers against the
// document, the target becoming the new root.
func (c *converter) resolveResource(r resource) resource {
	o := asObject(r.value)
	ref := nonEmpty(o.val("$ref"))
	if o == nil || !strings.HasPrefix(ref, "#/") {
		return r
	}
	local := strings.HasPrefix(ref, "#/$defs/") || strings.HasPrefix(ref, "#/definitions/")
	var base any = c.doc
	if local {
		base = r.root
	}
	target, ok := resolvePointer(base, ref)
	if !ok {
		return r
	}
	if local {
		return resource{value: target, root: r.root}
	}
	return resource{value: target, root: target}
}

func sameObject(a, b any) bool {
	x, ok1 := a.(*object)
	y, ok2 := b.(*object)
	return ok1 && ok2 && x == y
}

// isHidden reports whether a schema is hidden in a direction: it declares
// the direction's keyword itself or inherits it through allOf or $ref.
func (c *converter) isHidden(r resource, dir direction, scope *cycleScope) bool {
	o := asObject(r.value)
	if o == nil {
		return false
	}
	if o.val(hiddenKeyword[dir]) == true {
		return true
	}
	return solveCycles(c.hidden[dir], o, false, scope, func(inner *cycleScope) bool {
		target := c.resolveResource(r)
		for _, item := range asArray(o.val("allOf")) {
			if c.isHidden(resource{item, r.root}, dir, inner) {
				return true
			}
		}
		return !sameObject(target.value, o) && c.isHidden(target, dir, inner)
	})
}

type nameSet map[string]struct{}

// hiddenNames lists the hidden properties a schema declares itself or
// inherits through $ref and allOf, so that sibling required lists stay
// consistent.
func (c *converter) hiddenNames(r resource, dir direction, scope *cycleScope) nameSet {
	o := asObject(r.value)
	if o == nil {
		return nil
	}
	return solveCycles(c.names[dir], o, nil, scope, func(inner *cycleScope) nameSet {
		out := nameSet{}
		asObject(o.val("properties")).each(func(name string, p any) {
			if c.isHidden(resource{p, r.root}, dir, freshScope()) {
				out[name] = struct{}{}
			}
		})
		for _, item := range asArray(o.val("allOf")) {
			for n := range c.hiddenNames(resource{item, r.root}, dir, inner) {
				out[n] = struct{}{}
			}
		}
		if target := c.resolveResource(r); !sameObject(target.value, o) {
			for n := range c.hiddenNames(target, dir, inner) {
				out[n] = struct{}{}
			}
		}
		return out
	})
}

var (
	nestedSchemas     = map[string]bool{"items": true, "additionalProperties": true, "unevaluatedProperties": true, "propertyNames": true, "then": true, "else": true}
	nestedSchemaLists = map[string]bool{"anyOf": true, "oneOf": true, "prefixItems": true}
	nestedSchemaMaps  = map[string]bool{"patternProperties": true, "dependentSchemas": true, "$defs": true, "definitions": true}
)

// directional projects a schema for a direction (see the file comment).
func (c *converter) directional(r resource, dir direction, excluded nameSet) any {
	o := asObject(r.value)
	if o == nil {
		return r.value
	}
	hidden := nameSet{}
	for n := range excluded {
		hidden[n] = struct{}{}
	}
	for n := range c.hiddenNames(r, dir, freshScope()) {
		hidden[n] = struct{}{}
	}
	project := func(item any, inherited nameSet) any {
		return c.directional(resource{item, r.root}, dir, inherited)
	}
	out := newObject(len(o.keys))
	o.each(func(key string, item any) {
		switch {
		case key == "properties" && asObject(item) != nil:
			props := newObject(len(asObject(item).keys))
			asObject(item).each(func(name string, p any) {
				if _, h := hidden[name]; !h {
					props.set(name, project(p, nil))
				}
			})
			out.set(key, props)
		case key == "required" && asArray(item) != nil:
			req := []any{}
			for _, n := range asArray(item) {
				if s, ok := n.(string); ok {
					if _, h := hidden[s]; h {
						continue
					}
				}
				req = append(req, n)
			}
			out.set(key, req)
		case key == "allOf" && asArray(item) != nil:
			// allOf branches describe one object: hidden names apply to all.
			list := make([]any, len(asArray(item)))
			for i, e := range asArray(item) {
				list[i] = project(e, hidden)
			}
			out.set(key, list)
		case nestedSchemas[key]:
			out.set(key, project(item, nil))
		case nestedSchemaLists[key] && asArray(item) != nil:
			list := make([]any, len(asArray(item)))
			for i, e := range asArray(item) {
				list[i] = project(e, nil)
			}
			out.set(key, list)
		case nestedSchemaMaps[key] && asObject(item) != nil:
			m := newObject(len(asObject(item).keys))
			asObject(item).each(func(name string, e any) { m.set(name, project(e, nil)) })
			out.set(key, m)
		default:
			out.set(key, item)
		}
	})
	return out
}

// hasDirectional reports whether the document declares readOnly or
// writeOnly anywhere; most do not, and projection is then skipped.
func hasDirectional(v any) bool {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if hasDirectional(e) {
				return true
			}
		}
	case *object:
		if x.val("readOnly") == true || x.val("writeOnly") == true {
			return true
		}
		for _, e := range x.vals {
			if hasDirectional(e) {
				return true
			}
		}
	}
	return false
}

// project projects and normalizes a schema for a direction. self names
// the component being converted, for $recursiveRef.
func (c *converter) project(v any, dir direction, self string) *object {
	if c.directionalDoc {
		v = c.directional(resource{v, v}, dir, nil)
	}
	return c.normalize(v, self)
}

// normalize turns an OpenAPI schema into JSON Schema 2020-12, its own
// root $defs (if any) kept under $defs. A non-object is {}.
func (c *converter) normalize(v any, self string) *object {
	o := asObject(v)
	if o == nil {
		return newObject(0)
	}
	var out *object
	if c.v30 {
		defs := newObject(0)
		out = normalize30(o, defs, true)
		if len(defs.keys) > 0 {
			out.set("$defs", defs)
		}
		return out
	}
	out = normalize31(o, anchoredSelf(o, self))
	if defs := asObject(out.val("$defs")); defs != nil && len(defs.keys) == 0 {
		// An empty $defs carries nothing.
		stripped := newObject(len(out.keys))
		for i, k := range out.keys {
			if k != "$defs" {
				stripped.set(k, out.vals[i])
			}
		}
		out = stripped
	}
	return out
}

// anchoredSelf is the component a $recursiveRef inside o points back to:
// self when o is a component with $recursiveAnchor: true.
func anchoredSelf(o *object, self string) string {
	if self != "" && o.val("$recursiveAnchor") == true {
		return self
	}
	return ""
}

// rewriteRef points a component reference at $defs; for OpenAPI 3.0
// (draft 4 style) also a "#/definitions/X" one.
func rewriteRef(ref string, v30 bool) string {
	prefixes := []string{"#/components/schemas"}
	if v30 {
		prefixes = append(prefixes, "#/definitions")
	}
	for _, p := range prefixes {
		if ref == p || strings.HasPrefix(ref, p+"/") {
			return "#/$defs" + ref[len(p):]
		}
	}
	return ref
}

// Where a schema keeps its subschemas: one schema, a list of schemas, or
// a map of names to schemas. Other keywords hold data and are not walked.
var (
	schemaKeys     = map[string]bool{"items": true, "additionalItems": true, "additionalProperties": true, "unevaluatedProperties": true, "unevaluatedItems": true, "propertyNames": true, "not": true, "if": true, "then": true, "else": true, "contains": true, "contentSchema": true}
	schemaListKeys = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true, "items": true}
	schemaMapKeys  = map[string]bool{"properties": true, "patternProperties": true, "dependentSchemas": true, "$defs": true, "definitions": true}
)

// subschemas calls f on each subschema position of o's entry (k, v) and
// returns the entry's value rebuilt from f's answers.
func subschemas(k string, v any, f func(any) any) any {
	switch {
	case schemaListKeys[k] && asArray(v) != nil:
		list := make([]any, len(asArray(v)))
		for i, e := range asArray(v) {
			list[i] = f(e)
		}
		return list
	case schemaKeys[k]:
		return f(v)
	case schemaMapKeys[k] && asObject(v) != nil:
		m := asObject(v)
		out := newObject(len(m.keys))
		for i, name := range m.keys {
			out.set(name, f(m.vals[i]))
		}
		return out
	}
	return v
}

// eachSubschema calls f on each subschema of o's entry (k, v).
func eachSubschema(k string, v any, f func(any)) {
	switch {
	case schemaListKeys[k] && asArray(v) != nil:
		for _, e := range asArray(v) {
			f(e)
		}
	case schemaKeys[k]:
		f(v)
	case schemaMapKeys[k] && asObject(v) != nil:
		for _, e := range asObject(v).vals {
			f(e)
		}
	}
}

// normalize31 rewrites an OpenAPI 3.1 schema (JSON Schema 2020-12 with
// OpenAPI's ref base): component refs become $defs refs, and three things
// real documents carry that the 2020-12 meta-schema rejects are mended:
// boolean exclusiveMinimum/exclusiveMaximum (draft 4) become numbers, and
// the 2019-09 $recursiveAnchor/$recursiveRef pair becomes a plain $ref to
// the component ("#" inside a component with $recursiveAnchor; elsewhere
// it is dropped).
func normalize31(o *object, self string) *object {
	out := newObject(len(o.keys))
	for i, k := range o.keys {
		v := o.vals[i]
		switch k {
		case "$ref":
			if s, ok := v.(string); ok {
				v = rewriteRef(s, false)
			}
		case "required":
			v = dedupe(v)
		case "$recursiveAnchor":
			continue
		case "$recursiveRef":
			if v != "#" || self == "" {
				continue
			}
			if _, has := o.get("$ref"); has {
				continue
			}
			k, v = "$ref", "#/$defs/"+escapePointer(self)
		default:
			v = subschemas(k, v, func(e any) any {
				if eo := asObject(e); eo != nil {
					return normalize31(eo, self)
				}
				return e
			})
		}
		out.set(k, v)
	}
	return adjustExclusivity(out)
}

// dedupe drops repeated entries of a required list, which the 2020-12
// meta-schema rejects (uniqueItems) and real documents have.
func dedupe(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	seen := map[string]bool{}
	out := make([]any, 0, len(list))
	for _, e := range list {
		if s, ok := e.(string); ok {
			if seen[s] {
				continue
			}
			seen[s] = true
		}
		out = append(out, e)
	}
	return out
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// keep30 are the OpenAPI 3.0 schema keywords JSON Schema shares, copied as
// they are.
var keep30 = map[string]bool{
	"type": true, "required": true, "enum": true, "const": true, "title": true, "description": true,
	"default": true, "examples": true, "format": true, "readOnly": true, "writeOnly": true,
	"pattern": true, "minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"minLength": true, "maxLength": true, "minItems": true, "maxItems": true, "minProperties": true,
	"maxProperties": true, "multipleOf": true, "uniqueItems": true, "deprecated": true,
}

// normalize30 converts an OpenAPI 3.0 schema object; definitions found at
// the root go to defs.
func normalize30(o *object, defs *object, root bool) *object {
	out := newObject(len(o.keys))
	var items, additionalItems any
	hasItems, hasAdditional := false, false
	for i, k := range o.keys {
		v := o.vals[i]
		switch {
		case k == "$ref":
			if s, ok := v.(string); ok {
				v = rewriteRef(s, true)
			}
			out.set(k, v)
		case k == "example":
			if _, ok := o.get("examples"); !ok {
				out.set("examples", []any{v})
			}
		case k == "definitions" || k == "$defs":
			m := schemaMap30(v)
			if m == nil {
				continue
			}
			if root {
				for j, name := range m.keys {
					defs.set(name, m.vals[j])
				}
			} else {
				out.set("$defs", m)
			}
		case k == "items":
			items, hasItems = v, true
		case k == "additionalItems":
			additionalItems, hasAdditional = v, true
		case k == "properties" || k == "patternProperties":
			if m := schemaMap30(v); m != nil {
				out.set(k, m)
			} else {
				out.set(k, v)
			}
		case k == "additionalProperties" || k == "propertyNames" || k == "not":
			out.set(k, schema30(v))
		case k == "allOf" || k == "anyOf" || k == "oneOf":
			if list, ok := v.([]any); ok {
				mapped := make([]any, len(list))
				for j, e := range list {
					mapped[j] = schema30(e)
				}
				v = mapped
			}
			out.set(k, v)
		case k == "required":
			out.set(k, dedupe(v))
		case keep30[k]:
			out.set(k, v)
		}
	}
	if hasItems {
		if list, ok := items.([]any); ok {
			mapped := make([]any, len(list))
			for j, e := range list {
				mapped[j] = schema30(e)
			}
			out.set("prefixItems", mapped)
			if hasAdditional {
				out.set("items", schema30(additionalItems))
			}
		} else {
			out.set("items", schema30(items))
		}
	}
	out = adjustExclusivity(out)
	if o.val("nullable") == true {
		out = applyNullable(out)
	}
	return out
}

func schema30(v any) any {
	if o := asObject(v); o != nil {
		return normalize30(o, nil, false)
	}
	return v
}

func schemaMap30(v any) *object {
	m := asObject(v)
	if m == nil {
		return nil
	}
	out := newObject(len(m.keys))
	for i, k := range m.keys {
		out.set(k, schema30(m.vals[i]))
	}
	return out
}

// adjustExclusivity turns draft-4 boolean exclusive bounds into numbers.
func adjustExclusivity(o *object) *object {
	fix := func(o *object, exclusive, bound string) *object {
		b, ok := o.val(exclusive).(bool)
		if !ok {
			return o
		}
		out := newObject(len(o.keys))
		n, isNum := o.val(bound).(json.Number)
		for i, k := range o.keys {
			switch {
			case k == exclusive && b && isNum:
				out.set(k, n)
			case k == exclusive:
			case k == bound && b && isNum:
			default:
				out.set(k, o.vals[i])
			}
		}
		return out
	}
	return fix(fix(o, "exclusiveMinimum", "minimum"), "exclusiveMaximum", "maximum")
}

// applyNullable widens a 3.0 nullable schema to admit null.
func applyNullable(o *object) *object {
	if enum, ok := o.val("enum").([]any); ok {
		hasNull := false
		for _, e := range enum {
			if e == nil {
				hasNull = true
			}
		}
		if !hasNull {
			o.set("enum", append(append([]any{}, enum...), nil))
		}
		return widenType(o)
	}
	if _, ok := o.get("type"); ok {
		return widenType(o)
	}
	if v, ok := o.get("const"); ok && v == nil {
		return o
	}
	out := newObject(1)
	null := newObject(1)
	null.set("type", "null")
	out.set("anyOf", []any{o, null})
	return out
}

func widenType(o *object) *object {
	switch t := o.val("type").(type) {
	case string:
		if t != "null" {
			o.set("type", []any{t, "null"})
		}
	case []any:
		for _, e := range t {
			if e == "null" {
				return o
			}
		}
		o.set("type", append(append([]any{}, t...), "null"))
	}
	return o
}

// refs collects the names of the $defs a normalized schema points to.
func refs(v any, into map[string]bool, order *[]string) {
	o := asObject(v)
	if o == nil {
		return
	}
	for i, k := range o.keys {
		if k == "$ref" {
			if s, ok := o.vals[i].(string); ok && strings.HasPrefix(s, "#/$defs/") {
				name := s[len("#/$defs/"):]
				if j := strings.IndexByte(name, '/'); j >= 0 {
					name = name[:j]
				}
				name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
				if !into[name] {
					into[name] = true
					*order = append(*order, name)
				}
			}
			continue
		}
		eachSubschema(k, o.vals[i], func(e any) { refs(e, into, order) })
	}
}

// definition is one component schema converted for one direction.
type definition struct {
	json []byte   // the schema, compact
	refs []string // the definitions it points to
	ok   bool     // the component exists
}

// definition converts a component schema once per direction.
func (c *converter) definition(name string, dir direction) *definition {
	if !c.directionalDoc {
		dir = request // both directions are the same
	}
	if d, ok := c.defs[dir][name]; ok {
		return d
	}
	d := &definition{}
	c.defs[dir][name] = d
	schemas := asObject(asObject(c.doc.val("components")).val("schemas"))
	v, ok := schemas.get(name)
	if !ok {
		return d
	}
	d.ok = true
	s := c.project(v, dir, name)
	d.json = appendJSON(nil, s)
	seen := map[string]bool{}
	refs(s, seen, &d.refs)
	return d
}

// assembled is a tool schema with the component definitions it reaches.
type assembled struct {
	json    []byte   // the schema with every definition under $defs
	body    []byte   // the schema without $defs
	comps   []string // the component definitions it reaches, directly or not
	local   bool     // it has $defs of its own
	missing string   // a component it references that does not exist
}

// withDefinitions assembles a schema with the component definitions it
// reaches under $defs, after its own local ones, which win.
func (c *converter) withDefinitions(s *object, dir direction) assembled {
	var a assembled
	local := asObject(s.val("$defs"))
	a.local = local != nil && len(local.keys) > 0
	seen := map[string]bool{}
	var order []string
	refs(s, seen, &order)
	for i := 0; i < len(order); i++ {
		name := order[i]
		if _, ok := local.get(name); ok {
			continue
		}
		d := c.definition(name, dir)
		if !d.ok {
			if a.missing == "" {
				a.missing = name
			}
			continue
		}
		a.comps = append(a.comps, name)
		for _, r := range d.refs {
			if !seen[r] {
				seen[r] = true
				order = append(order, r)
			}
		}
	}
	out := []byte{'{'}
	n := 0
	for i, k := range s.keys {
		if k == "$defs" {
			continue
		}
		if n > 0 {
			out = append(out, ',')
		}
		n++
		out = appendString(out, k)
		out = append(out, ':')
		out = appendJSON(out, s.vals[i])
	}
	a.body = append(out[:len(out):len(out)], '}')
	if len(a.comps) > 0 {
		// One allocation for the definitions, which can be most of it.
		n := len(`,"$defs":{}}`)
		for _, name := range a.comps {
			n += len(name) + 4 + len(c.definition(name, dir).json)
		}
		out = slices.Grow(out, n)
	}
	if len(a.comps) > 0 || a.local {
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, `"$defs":{`...)
		m := 0
		if local != nil {
			for i, k := range local.keys {
				if m > 0 {
					out = append(out, ',')
				}
				m++
				out = appendString(out, k)
				out = append(out, ':')
				out = appendJSON(out, local.vals[i])
			}
		}
		for _, name := range a.comps {
			if m > 0 {
				out = append(out, ',')
			}
			m++
			out = appendString(out, name)
			out = append(out, ':')
			out = append(out, c.definition(name, dir).json...)
		}
		out = append(out, '}')
	}
	a.json = append(out, '}')
	return a
}

// combined assembles one schema document holding many tool schemas (by
// index, under "definitions", which its root does not apply) and every
// definition they reach (under "$defs"), so that one compilation checks
// them all, each definition once. The pointers are the order to compile
// them in: the definitions, each after those it references (but in
// cycles), then the tool schemas.
func (c *converter) combined(dir direction, parts ...[]assembled) ([]byte, []string) {
	out := []byte(`{"definitions":{`)
	var names, bodies []string
	seen := map[string]bool{}
	i := 0
	for _, schemas := range parts {
		for _, a := range schemas {
			if i > 0 {
				out = append(out, ',')
			}
			key := strconv.Itoa(i)
			out = appendString(out, key)
			out = append(out, ':')
			out = append(out, a.body...)
			bodies = append(bodies, "/definitions/"+key)
			i++
			for _, n := range a.comps {
				if !seen[n] {
					seen[n] = true
					names = append(names, n)
				}
			}
		}
	}
	out = append(out, `},"$defs":{`...)
	for i, n := range names {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendString(out, n)
		out = append(out, ':')
		out = append(out, c.definition(n, dir).json...)
	}
	var pointers []string
	done := map[string]bool{}
	var visit func(n string)
	visit = func(n string) {
		if done[n] || !seen[n] {
			return
		}
		done[n] = true
		for _, r := range c.definition(n, dir).refs {
			visit(r)
		}
		pointers = append(pointers, "/$defs/"+escapePointer(n))
	}
	for _, n := range names {
		visit(n)
	}
	return append(out, "}}"...), append(pointers, bodies...)
}
