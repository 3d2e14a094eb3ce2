package catalog

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxRenderDepth is the reference's MAX_RENDER_DEPTH: a schema nested
// deeper renders as unknown.
const maxRenderDepth = 8

// maxWork bounds the schema nodes one render visits (rendering and the
// allOf reference check together). Definitions reused along many paths
// multiply; past this bound the rest of the schema renders as unknown, so
// a small hostile schema cannot produce an exponential text. Real schemas
// stay far below it: the largest component of the OpenAI API
// (BetaResponsesServerEvent, 635,000 characters rendered) visits about
// 12,500 nodes. Past it the text is an expansion no budget would keep,
// and the rest renders as unknown without a marker, like the depth cut.
const maxWork = 50000

// limits are the cuts of one render; zero values cut nothing.
type limits struct {
	desc    int  // descriptions longer than this many characters are shortened
	noDesc  bool // descriptions are dropped (the tags stay)
	depth   int  // object levels rendered in full; deeper objects are summarised
	root    bool // summarise the root object too (a budget's last resort)
	breadth int  // properties an object shows
	alts    int  // enum values and union alternatives shown (at least two)
}

// stats is what a render saw, for the budget's search.
type stats struct {
	maxLevel int  // deepest object level rendered with content
	maxProps int  // most properties of one object
	maxAlts  int  // most enum values or alternatives of one union
	descs    bool // some description was rendered
	capped   bool // the render stopped at maxWork
}

// renderer holds one render's settings and counters. It is not shared.
type renderer struct {
	pretty bool
	lim    limits
	work   int
	st     stats
	// unresolved memoises, per definition scope, which definitions reach
	// an unresolvable $ref (the allOf check).
	unresolved map[*scope]*refCheck
}

// scope is the definitions visible at a point: each level's $defs, then
// its definitions, then the enclosing level's, as the reference merges
// {...outer, ...definitions, ...$defs}.
type scope struct {
	parent      *scope
	defs        *object
	definitions *object
}

func (s *scope) lookup(name string) (any, bool) {
	for ; s != nil; s = s.parent {
		if s.defs != nil {
			if v, ok := s.defs.get(name); ok {
				return v, true
			}
		}
		if s.definitions != nil {
			if v, ok := s.definitions.get(name); ok {
				return v, true
			}
		}
	}
	return nil, false
}

// enter returns the scope inside schema o.
func enter(s *scope, o *object) *scope {
	d, dok := o.obj("$defs")
	f, fok := o.obj("definitions")
	if !dok && !fok {
		return s
	}
	return &scope{parent: s, defs: d, definitions: f}
}

// seenNames is the chain of definition names on the current $ref path.
type seenNames struct {
	name string
	next *seenNames
}

func (s *seenNames) has(name string) bool {
	for ; s != nil; s = s.next {
		if s.name == name {
			return true
		}
	}
	return false
}

// definitionName returns X for "#/$defs/X" and "#/definitions/X", reading
// the reference as Effect's JsonPointer.parseUriFragment does: the whole
// fragment is percent-decoded (so %2F separates tokens), must then be a
// pointer without invalid ~ escapes, and must have exactly two tokens.
// Anything else (external, deeper, malformed) is not a name.
func definitionName(ref any) (string, bool) {
	s, ok := ref.(string)
	if !ok || !strings.HasPrefix(s, "#") {
		return "", false
	}
	p, err := url.PathUnescape(s[1:])
	if err != nil || !utf8.ValidString(p) || !strings.HasPrefix(p, "/") {
		return "", false
	}
	parts := strings.Split(p[1:], "/")
	if len(parts) != 2 || (parts[0] != "$defs" && parts[0] != "definitions") {
		return "", false
	}
	name := parts[1]
	if strings.IndexByte(name, '~') < 0 {
		return name, true
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if name[i] != '~' {
			b.WriteByte(name[i])
			continue
		}
		if i+1 == len(name) || (name[i+1] != '0' && name[i+1] != '1') {
			return "", false
		}
		b.WriteByte("~/"[name[i+1]-'0'])
		i++
	}
	return b.String(), true
}

// emptyMember is what member returns for an empty object: it adds
// nothing to an intersection.
const emptyMember = ""

// intersection joins the members that are not unknown with " & ",
// parenthesising unions. Empty-object members are dropped ({} & X is X);
// only when nothing else is left does the intersection render as {}.
func intersection(members ...string) string {
	var concrete []string
	empty := false
	for _, m := range members {
		switch m {
		case "unknown":
		case emptyMember:
			empty = true
		default:
			concrete = append(concrete, m)
		}
	}
	switch len(concrete) {
	case 0:
		if empty {
			return "{}"
		}
		return "unknown"
	case 1:
		return concrete[0]
	}
	for i, m := range concrete {
		if strings.Contains(m, " | ") {
			concrete[i] = "(" + m + ")"
		}
	}
	return strings.Join(concrete, " & ")
}

// member renders one member of an intersection: emptyMember for an empty
// object, which would only add "{} &" noise (real specs compose allOf
// from such placeholders), else the member's type.
func (r *renderer) member(s any, sc *scope, depth, level int, seen *seenNames) string {
	if emptyObject(s, sc, seen) {
		return emptyMember
	}
	return r.render(s, sc, depth, level, seen)
}

// emptyObject reports whether a schema is an object schema with no
// properties, no additionalProperties constraint and no other keyword
// than annotations (openAPIAnnotation's included), required names and definitions,
// directly or through $ref hops: it renders as {} and
// constrains nothing an intersection's other members do not.
func emptyObject(s any, sc *scope, seen *seenNames) bool {
	o, ok := s.(*object)
	if !ok {
		return false
	}
	isObj := false
	var ref any
	for _, k := range o.keys {
		v, ok := o.get(k)
		if !ok {
			continue
		}
		switch k {
		case "type":
			if v != "object" {
				return false
			}
			isObj = true
		case "properties":
			p, ok := v.(*object)
			if !ok || len(definedKeys(p)) > 0 {
				return false
			}
			isObj = true
		case "required":
			// Names without properties here: in an intersection they
			// constrain the other members' properties, and {} shows none
			// of them (Box's allOf members carry them).
			if _, ok := v.([]any); !ok {
				return false
			}
		case "additionalProperties":
			if v != true {
				return false
			}
		case "$ref":
			ref = v
		case "$defs", "definitions":
			// definitions constrain nothing by themselves
		case "nullable":
			if v != false {
				return false
			}
		default:
			if !annotationKeyword(k) && !openAPIAnnotation(k) {
				return false
			}
		}
	}
	if ref == nil {
		return isObj
	}
	if isObj {
		return false // a $ref beside object keywords: let render decide
	}
	name, ok := definitionName(ref)
	if !ok || seen.has(name) {
		return false
	}
	def, found := enter(sc, o).lookup(name)
	return found && emptyObject(def, sc, &seenNames{name, seen})
}

// openAPIAnnotation reports the keywords beside annotationKeyword's that
// describe a schema without constraining its values, among them
// OpenAPI's discriminator and x- extensions.
func openAPIAnnotation(k string) bool {
	switch k {
	case "deprecated", "$comment", "$id", "$schema", "$anchor", "discriminator", "example", "externalDocs", "xml":
		return true
	}
	return strings.HasPrefix(k, "x-")
}

// definedKeys returns the keys of o whose values are defined.
func definedKeys(o *object) []string {
	var out []string
	for _, k := range o.keys {
		if o.has(k) {
			out = append(out, k)
		}
	}
	return out
}

// effectNumberSentinel matches Effect's encoding of the non-finite numbers
// it accepts: a string enum of "NaN", "Infinity" and "-Infinity" only.
func effectNumberSentinel(o *object) bool {
	if t, _ := o.str("type"); t != "string" {
		return false
	}
	e, ok := o.arr("enum")
	if !ok || len(e) == 0 {
		return false
	}
	for _, v := range e {
		if v != "NaN" && v != "Infinity" && v != "-Infinity" {
			return false
		}
	}
	return true
}

// annotationKeyword reports the keywords that may sit beside Effect's
// empty-struct marker.
func annotationKeyword(k string) bool {
	switch k {
	case "title", "description", "default", "examples", "readOnly", "writeOnly":
		return true
	}
	return false
}

// effectEmptyStruct matches {not: {type: "null"}} with nothing but
// annotations beside it: TypeScript's {}.
func effectEmptyStruct(o *object) bool {
	not, ok := o.obj("not")
	if !ok || len(not.keys) != 1 {
		return false
	}
	if t, _ := not.str("type"); t != "null" {
		return false
	}
	for _, k := range o.keys {
		if k != "not" && !annotationKeyword(k) {
			return false
		}
	}
	return true
}

// typeNames returns the schema's type keyword as a list (a string or the
// strings of an array).
func typeNames(o *object) []string {
	v, _ := o.get("type")
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// property is one entry of an object schema.
type property struct {
	name     string
	schema   any
	required bool
}

func properties(o *object) []property {
	props, _ := o.obj("properties")
	if props == nil {
		return nil
	}
	req := map[string]bool{}
	if r, ok := o.arr("required"); ok {
		for _, e := range r {
			if s, ok := e.(string); ok {
				req[s] = true
			}
		}
	}
	out := make([]property, 0, len(props.keys))
	for _, k := range props.keys {
		v, ok := props.get(k)
		if !ok {
			continue
		}
		out = append(out, property{k, v, req[k]})
	}
	return out
}

// render is the reference's renderSchema. depth drives the indentation
// and the depth cut; level counts enclosing object types for the budget's
// depth limit.
func (r *renderer) render(s any, sc *scope, depth, level int, seen *seenNames) string {
	if depth > maxRenderDepth {
		return "unknown"
	}
	r.work++
	if r.work > maxWork {
		r.st.capped = true
		return "unknown"
	}
	o, ok := s.(*object)
	if !ok {
		return "unknown" // true, false, null and other non-schemas
	}
	nested := enter(sc, o)

	// OpenAPI 3.0: nullable: true widens the schema with null.
	if v, _ := o.get("nullable"); v == true {
		inner := r.render(o.with("nullable", undefined{}), sc, depth, level, seen)
		if inner == "unknown" || inner == "null" || strings.HasSuffix(inner, " | null") {
			return inner
		}
		return inner + " | null"
	}

	if ref, ok := o.get("$ref"); ok && truthy(ref) {
		name, ok := definitionName(ref)
		if !ok || seen.has(name) {
			return "unknown"
		}
		def, found := nested.lookup(name)
		if !found || !truthy(def) {
			return "unknown"
		}
		return intersection(
			r.member(def, nested, depth, level, &seenNames{name, seen}),
			r.member(o.with("$ref", undefined{}), nested, depth+1, level, seen),
		)
	}
	if c, ok := o.get("const"); ok {
		return stringify(c)
	}
	if e, ok := o.get("enum"); ok && truthy(e) {
		if list, ok := e.([]any); ok {
			return r.enum(list)
		}
	}
	alts, ok := o.arr("anyOf")
	if !ok {
		alts, ok = o.arr("oneOf")
	}
	if ok {
		return r.union(o, alts, nested, depth, level, seen)
	}
	if all, ok := o.arr("allOf"); ok {
		for _, item := range all {
			if r.hasUnresolvedRef(item, nested) {
				return "unknown"
			}
		}
		members := []string{r.member(o.with("allOf", undefined{}), nested, depth+1, level, seen)}
		for _, item := range all {
			members = append(members, r.member(item, nested, depth+1, level, seen))
		}
		return intersection(members...)
	}
	t, _ := o.get("type")
	if list, ok := t.([]any); ok {
		if len(list) == 0 {
			return "never"
		}
		parts := make([]string, len(list))
		for i, item := range list {
			parts[i] = r.render(o.with("type", item), nested, depth+1, level, seen)
		}
		return strings.Join(parts, " | ")
	}
	switch t {
	case "string":
		return "string"
	case "number", "integer":
		return "number"
	case "boolean":
		return "boolean"
	case "null":
		return "null"
	case "array":
		return r.array(o, nested, depth, level, seen)
	}
	if _, isObj := o.obj("properties"); t == "object" || isObj {
		return r.object(o, nested, depth, level, seen)
	}
	if effectEmptyStruct(o) {
		return "{}"
	}
	return "unknown"
}

// enum renders literal alternatives.
func (r *renderer) enum(list []any) string {
	if len(list) == 0 {
		return "never"
	}
	r.st.maxAlts = max(r.st.maxAlts, len(list))
	keep, more := r.keep(len(list))
	parts := make([]string, keep)
	for i := range parts {
		parts[i] = stringify(list[i])
	}
	return strings.Join(parts, " | ") + moreMarker(more, "value", "values")
}

// union renders anyOf / oneOf with the reference's simplifications.
func (r *renderer) union(o *object, alts []any, sc *scope, depth, level int, seen *seenNames) string {
	if len(alts) == 0 {
		return "never"
	}
	number, other := false, false
	for _, a := range alts {
		ao, _ := a.(*object)
		if ao != nil {
			if t, _ := ao.str("type"); t == "number" {
				number = true
				continue
			}
			if effectNumberSentinel(ao) {
				continue
			}
		}
		other = true
	}
	if number && !other {
		return "number"
	}
	// Older Effect releases emitted this pair for an empty struct.
	if len(alts) == 2 {
		a, _ := alts[0].(*object)
		b, _ := alts[1].(*object)
		if a != nil && b != nil {
			at, _ := a.str("type")
			bt, _ := b.str("type")
			if at == "object" && !a.has("properties") && bt == "array" && !b.has("items") {
				return "{}"
			}
		}
	}
	r.st.maxAlts = max(r.st.maxAlts, len(alts))
	members := make([]string, len(alts))
	for i, a := range alts {
		members[i] = r.render(a, sc, depth+1, level, seen)
		if members[i] == "unknown" {
			return "unknown"
		}
	}
	keep, more := r.keep(len(members))
	joined := strings.Join(members[:keep], " | ") + moreMarker(more, "alternative", "alternatives")
	rest := o.with("anyOf", undefined{}).with("oneOf", undefined{})
	return intersection(joined, r.member(rest, sc, depth+1, level, seen))
}

// array renders Array<T>, or a tuple for prefixItems / an items array.
func (r *renderer) array(o *object, sc *scope, depth, level int, seen *seenNames) string {
	items, _ := o.get("items")
	if prefix, ok := o.arr("prefixItems"); ok && len(prefix) > 0 {
		return r.tuple(prefix, items, sc, depth, level, seen)
	}
	if list, ok := items.([]any); ok && len(list) > 0 {
		rest, _ := o.get("additionalItems")
		return r.tuple(list, rest, sc, depth, level, seen)
	}
	if items == nil {
		items = &object{vals: map[string]any{}}
	}
	return "Array<" + r.render(items, sc, depth+1, level, seen) + ">"
}

// tuple renders [A, B], with ...Array<T> when rest allows more items.
func (r *renderer) tuple(members []any, rest any, sc *scope, depth, level int, seen *seenNames) string {
	parts := make([]string, 0, len(members)+1)
	for _, m := range members {
		parts = append(parts, r.render(m, sc, depth+1, level, seen))
	}
	switch rest.(type) {
	case *object:
		parts = append(parts, "...Array<"+r.render(rest, sc, depth+1, level, seen)+">")
	case bool:
		if rest == true {
			parts = append(parts, "...Array<unknown>")
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// object renders an object type, pretty or compact, applying the budget's
// depth and breadth cuts.
func (r *renderer) object(o *object, sc *scope, depth, level int, seen *seenNames) string {
	props := properties(o)
	additional, hasIndex := o.obj("additionalProperties")
	if len(props) == 0 && !hasIndex {
		return "{}"
	}
	if r.lim.root || (r.lim.depth > 0 && level > r.lim.depth) {
		return collapsed(props, hasIndex)
	}
	if level > r.st.maxLevel {
		r.st.maxLevel = level
	}
	r.st.maxProps = max(r.st.maxProps, len(props))
	shown, elided := r.selectProps(props)

	indexType := ""
	if hasIndex {
		indexType = r.render(additional, sc, depth+1, level+1, seen)
	}
	field := func(p property) string {
		opt := "?"
		if p.required {
			opt = ""
		}
		return renderKey(p.name) + opt + ": " + r.render(p.schema, sc, depth+1, level+1, seen)
	}
	if !r.pretty {
		fields := make([]string, 0, len(shown)+2)
		for _, p := range shown {
			fields = append(fields, field(p))
		}
		if hasIndex {
			fields = append(fields, "[key: string]: "+indexType)
		}
		if len(elided) > 0 {
			fields = append(fields, "/* "+elisionText(elided)+" */")
		}
		return "{ " + strings.Join(fields, "; ") + " }"
	}
	pad := strings.Repeat("  ", depth+1)
	var b strings.Builder
	b.WriteString("{\n")
	for _, p := range shown {
		b.WriteString(r.jsdoc(p.schema, pad))
		b.WriteString(pad + field(p) + ",\n")
	}
	if hasIndex {
		b.WriteString(pad + "[key: string]: " + indexType + ",\n")
	}
	if len(elided) > 0 {
		b.WriteString(pad + "// " + elisionText(elided) + "\n")
	}
	b.WriteString(strings.Repeat("  ", depth) + "}")
	return b.String()
}

// keep returns how many of n alternatives or values a render shows (at
// least two) and how many it leaves out.
func (r *renderer) keep(n int) (int, int) {
	if r.lim.alts <= 0 || n <= max(r.lim.alts, 2) {
		return n, 0
	}
	k := max(r.lim.alts, 2)
	return k, n - k
}

// selectProps keeps at most lim.breadth properties, required ones first,
// in their original order; it returns the shown and the left-out ones.
func (r *renderer) selectProps(props []property) (shown, elided []property) {
	if r.lim.breadth <= 0 || len(props) <= r.lim.breadth {
		return props, nil
	}
	keep := make([]bool, len(props))
	n := 0
	for pass := 0; pass < 2; pass++ {
		for i, p := range props {
			if n < r.lim.breadth && !keep[i] && (pass == 1 || p.required) {
				keep[i] = true
				n++
			}
		}
	}
	for i, p := range props {
		if keep[i] {
			shown = append(shown, p)
		} else {
			elided = append(elided, p)
		}
	}
	return shown, elided
}

// maxListedNames is how many property names a marker lists.
const maxListedNames = 8

// nameList renders property names as the model would write them, optional
// ones with "?", at most maxListedNames then "…".
func nameList(props []property) string {
	var names []string
	for i, p := range props {
		if i == maxListedNames {
			names = append(names, "…")
			break
		}
		n := renderKey(p.name)
		if !p.required {
			n += "?"
		}
		names = append(names, n)
	}
	return commentSafe(strings.Join(names, ", "))
}

// commentSafe keeps text from closing the comment it is put in.
func commentSafe(s string) string { return strings.ReplaceAll(s, "*/", "* /") }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// collapsed is the budget's summary of an object whose body is not shown:
// { /* … 3 properties: id, name?, tags? */ }.
func collapsed(props []property, hasIndex bool) string {
	var parts []string
	if len(props) > 0 {
		parts = append(parts, plural(len(props), "property", "properties")+": "+nameList(props))
	}
	if hasIndex {
		parts = append(parts, "[key: string]: …")
	}
	return "{ /* … " + strings.Join(parts, "; ") + " */ }"
}

// elisionText describes left-out properties: … 12 more properties: a?, b?.
func elisionText(elided []property) string {
	return "… " + plural(len(elided), "more property", "more properties") + ": " + nameList(elided)
}

// moreMarker marks left-out enum values or alternatives.
func moreMarker(n int, one, many string) string {
	if n == 0 {
		return ""
	}
	return " /* … " + plural(n, "more "+one, "more "+many) + " */"
}

const (
	pending uint8 = iota + 1 // on the check's stack: its result waits on its cycle
	resolvedOK
	unresolvedRef
)

// refCheck is one scope's state of the allOf reference check: each
// definition's result and, for those still pending, their position in
// Tarjan's strongly connected components search, since every definition
// of a cycle shares one result.
type refCheck struct {
	memo  map[string]uint8
	index map[string]int // DFS order of the pending definitions
	stack []string       // pending definitions, their cycle not yet closed
}

// noLow is the low link of a subtree that touched no pending definition.
const noLow = int(^uint(0) >> 1)

// hasUnresolvedRef reports whether a schema reaches a $ref that does not
// resolve in sc, is malformed or external — through $ref, anyOf, oneOf,
// allOf, properties, items and additionalProperties, as the reference
// checks allOf members. Definitions nested inside the member are not
// consulted (the reference's scope), tuple members are. Unlike the
// reference, a cycle is not unresolved: the render cuts the back
// reference to unknown, and the allOf keeps its other members (OpenAI's
// CreateResponse reaches cycles through its input items).
func (r *renderer) hasUnresolvedRef(s any, sc *scope) bool {
	c := r.unresolved[sc]
	if c == nil {
		if r.unresolved == nil {
			r.unresolved = map[*scope]*refCheck{}
		}
		c = &refCheck{memo: map[string]uint8{}, index: map[string]int{}}
		r.unresolved[sc] = c
	}
	bad, _ := r.unresolvedIn(s, sc, c)
	return bad
}

// unresolvedIn returns whether s reaches an unresolved $ref and the
// lowest DFS index of a pending definition it reaches (noLow if none).
func (r *renderer) unresolvedIn(s any, sc *scope, c *refCheck) (bool, int) {
	o, ok := s.(*object)
	if !ok {
		return false, noLow
	}
	r.work++
	if r.work > maxWork {
		c.fail()
		return true, noLow
	}
	low := noLow
	if ref, ok := o.get("$ref"); ok {
		bad, l := r.refUnresolved(ref, sc, c)
		if bad {
			return true, noLow
		}
		low = l
	}
	for _, ch := range schemaChildren(o) {
		bad, l := r.unresolvedIn(ch, sc, c)
		if bad {
			return true, noLow
		}
		low = min(low, l)
	}
	return false, low
}

// refUnresolved checks one $ref: a definition's result is known once
// the component of definitions that reach each other is closed.
func (r *renderer) refUnresolved(ref any, sc *scope, c *refCheck) (bool, int) {
	name, ok := definitionName(ref)
	if !ok {
		c.fail()
		return true, noLow
	}
	def, found := sc.lookup(name)
	if !found || !truthy(def) {
		c.fail()
		return true, noLow
	}
	switch c.memo[name] {
	case resolvedOK:
		return false, noLow
	case unresolvedRef:
		c.fail()
		return true, noLow
	case pending:
		return false, c.index[name] // a cycle: resolved if the rest is
	}
	idx := len(c.index)
	c.index[name] = idx
	c.memo[name] = pending
	c.stack = append(c.stack, name)
	bad, low := r.unresolvedIn(def, sc, c)
	if bad {
		return true, noLow // fail already marked the stack
	}
	if low < idx {
		return false, low // part of an enclosing cycle, decided with it
	}
	for {
		n := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		c.memo[n] = resolvedOK
		delete(c.index, n)
		if n == name {
			return false, noLow
		}
	}
}

// fail marks every pending definition unresolved: each reaches the
// definition being checked, which has just been found to reach an
// unresolved $ref.
func (c *refCheck) fail() {
	for _, n := range c.stack {
		c.memo[n] = unresolvedRef
		delete(c.index, n)
	}
	c.stack = c.stack[:0]
}

// schemaChildren lists the subschemas the allOf check descends into.
func schemaChildren(o *object) []any {
	var children []any
	for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if a, ok := o.arr(k); ok {
			children = append(children, a...)
		}
	}
	if props, ok := o.obj("properties"); ok {
		for _, k := range props.keys {
			if v, ok := props.get(k); ok {
				children = append(children, v)
			}
		}
	}
	if items, ok := o.get("items"); ok {
		if list, ok := items.([]any); ok {
			children = append(children, list...)
		} else {
			children = append(children, items)
		}
	}
	if ap, ok := o.obj("additionalProperties"); ok {
		children = append(children, ap)
	}
	return children
}
