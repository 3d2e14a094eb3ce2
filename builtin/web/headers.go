package web

// Headers, as node's undici has it: a header list of lowercased names
// and normalized values, read through "sort and combine" (names in
// order, values of one name joined with ", ", set-cookie kept apart).
// At the host boundary it becomes a plain {name: value} object.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/value"
)

type headerEntry struct{ name, value string }

// headersData is the Internal of a Headers object.
type headersData struct {
	list   []headerEntry
	sorted []headerEntry // sortCombine's result, nil when stale
	// immutable is the "immutable" guard: the headers of a fetched
	// Response, of Response.error() and Response.redirect().
	immutable bool
}

// BoundaryValue is the {name: value} object a Headers becomes at the
// host boundary.
func (h *headersData) BoundaryValue(r *value.Realm) value.Value {
	o := r.NewPlainObject()
	for _, e := range h.sortCombine(true) {
		o.Define(value.NewString(e.name).Key(), value.StrOf(e.value), value.DefaultFlags)
	}
	return value.Obj(o)
}

// sortCombine is the header list's sort and combine; with oneCookie,
// set-cookie values are combined like the others. The result is kept
// until the list next changes, so iterating stays linear.
func (h *headersData) sortCombine(oneCookie bool) []headerEntry {
	if !oneCookie && h.sorted != nil {
		return h.sorted
	}
	groups := map[string][]string{}
	var names []string
	for _, e := range h.list {
		if _, ok := groups[e.name]; !ok {
			names = append(names, e.name)
		}
		groups[e.name] = append(groups[e.name], e.value)
	}
	slices.Sort(names)
	out := make([]headerEntry, 0, len(names))
	for _, n := range names {
		if n == "set-cookie" && !oneCookie {
			for _, v := range groups[n] {
				out = append(out, headerEntry{n, v})
			}
			continue
		}
		out = append(out, headerEntry{n, strings.Join(groups[n], ", ")})
	}
	if !oneCookie {
		h.sorted = out
	}
	return out
}

func (h *headersData) get(name string) (string, bool) {
	var b strings.Builder
	found := false
	for _, e := range h.list {
		if e.name == name {
			if found {
				b.WriteString(", ")
			}
			found = true
			b.WriteString(e.value)
		}
	}
	return b.String(), found
}

func (h *headersData) append(name, val string) {
	h.sorted = nil
	h.list = append(h.list, headerEntry{name, val})
}

func (h *headersData) delete(name string) {
	h.sorted = nil
	h.list = slices.DeleteFunc(h.list, func(e headerEntry) bool { return e.name == name })
}

func (h *headersData) set(name, val string) {
	h.sorted = nil
	found := false
	out := h.list[:0]
	for _, e := range h.list {
		if e.name == name {
			if found {
				continue
			}
			found = true
			e.value = val
		}
		out = append(out, e)
	}
	clear(h.list[len(out):])
	h.list = out
	if !found {
		h.list = append(h.list, headerEntry{name, val})
	}
}

func installHeaders(l *value.Library) {
	l.Intrinsic(value.HeadersPrototype, value.IntrinsicSpec{Name: "Headers.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			constructorFirst(r, o, value.HeadersCtor)
			webMethods(r, o, headersProto)
			o.Define(value.SymIterator.Key(), r.GetObj(o, "entries", value.Obj(o)), value.Writable|value.Configurable)
			toStringTag(o, "Headers")
		}})
	l.Intrinsic(value.HeadersCtor, value.IntrinsicSpec{Name: "Headers",
		Func: &value.Native{Name: "Headers", Ctor: true, Fn: headersCtor},
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.HeadersPrototype))
		}})
	l.GlobalIntrinsic("Headers", value.HeadersCtor)
	l.Register(headersProto...)
	l.Register(headersIterNext)
}

const headersInitMessage = "Headers constructor: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>."

func headersCtor(r *value.Realm, c *value.Call) value.Value {
	requireNew(r, c, "Headers")
	o := newHeadersObject(r, r.ProtoFromCtor(c.NewTarget, value.HeadersPrototype), &headersData{})
	if init := c.Arg(0); !init.IsUndefined() {
		fillHeaders(r, o.Internal.(*headersData), init)
	}
	return value.Obj(o)
}

// newHeadersObject makes a Headers object over h.
func newHeadersObject(r *value.Realm, proto *value.Object, h *headersData) *value.Object {
	o := value.NewObject(proto)
	o.Class = value.ClassHeaders
	o.Internal = h
	r.Charge(128)
	return o
}

// fillHeaders appends the headers of a HeadersInit (the Headers
// constructor's argument, a Response's init.headers) to h.
func fillHeaders(r *value.Realm, h *headersData, init value.Value) {
	if !init.IsObject() {
		r.ThrowType(headersInitMessage)
	}
	// undici takes init as a sequence when it has a callable
	// @@iterator, else as a record of every own key (enumerable or not).
	if iter := r.Get(init, value.SymIterator.Key()); isCallable(iter) {
		for i, pair := range iterateWith(r, init, iter) {
			if !pair.IsObject() {
				r.ThrowType("Headers constructor: init[%d] (%s) is not iterable.", i, inspectShort(r, pair))
			}
			method := r.Get(pair, value.SymIterator.Key())
			if !isCallable(method) {
				r.ThrowType("Headers constructor: init[%d] (%s) is not iterable.", i, inspectShort(r, pair))
			}
			kv := iterateWith(r, pair, method)
			if len(kv) != 2 {
				r.ThrowType("Headers constructor: expected name/value pair to be length 2, found %d.", len(kv))
			}
			headersAppend(r, h, "append", byteString(r, kv[0]), byteString(r, kv[1]))
		}
		return
	}
	obj := init.AsObject()
	for _, k := range r.OwnKeys(obj, false, true) {
		if s := value.SymbolOfKey(k); s != nil {
			r.ThrowType("Headers constructor: Key Symbol(%s) in init is a symbol, which cannot be converted to a ByteString.", s.Description)
		}
		name := byteString(r, value.StrOf(k))
		headersAppend(r, h, "append", name, byteString(r, r.Get(init, k)))
	}
}

// inspectShort renders a value as node's util.inspect would in a short
// message: strings double-quoted, numbers as they print.
func inspectShort(r *value.Realm, v value.Value) string {
	switch v.Kind() {
	case value.KindString:
		return strconv.Quote(v.AsString().String())
	case value.KindSymbol:
		return "Symbol(" + v.AsSymbol().Description + ")"
	}
	return r.ToString(v).String()
}

// byteString is Web IDL's ByteString conversion: ToString, then every
// code unit must fit in a byte. The result is Go text of those runes.
func byteString(r *value.Realm, v value.Value) string {
	s := r.ToString(v)
	n := s.Len()
	var b strings.Builder
	for i := 0; i < n; i++ {
		u := s.At(i)
		if u > 0xFF {
			r.ThrowType("Cannot convert argument to a ByteString because the character at index %d has a value of %d which is greater than 255.", i, u)
		}
		b.WriteRune(rune(u))
	}
	return b.String()
}

// normalizeHeaderValue strips leading and trailing HTTP whitespace.
func normalizeHeaderValue(s string) string {
	return strings.Trim(s, "\t\n\r ")
}

func validHeaderValue(s string) bool {
	return !strings.ContainsAny(s, "\x00\r\n")
}

func headersAppend(r *value.Realm, h *headersData, method, name, val string) {
	val = normalizeHeaderValue(val)
	if !protocol.IsToken(name) {
		r.ThrowType("Headers.%s: %s is an invalid header name.", method, strconv.Quote(name))
	}
	if !validHeaderValue(val) {
		r.ThrowType("Headers.%s: \"%s\" is an invalid header value.", method, val)
	}
	checkMutable(r, h)
	r.Charge(64 + len(name) + len(val))
	h.append(strings.ToLower(name), val)
}

func thisHeaders(r *value.Realm, c *value.Call) *headersData {
	if o := c.This.AsObject(); o != nil {
		if h, ok := o.Internal.(*headersData); ok {
			return h
		}
	}
	throwCoded(r, value.TypeError, "ERR_INVALID_THIS", "Illegal invocation")
	return nil
}

// checkMutable throws undici's TypeError for a change to immutable
// headers, once the arguments are checked.
func checkMutable(r *value.Realm, h *headersData) {
	if h.immutable {
		r.ThrowType("immutable")
	}
}

// headerArgs checks the argument count as Web IDL does and converts the
// name (and value) arguments.
func headerArgs(r *value.Realm, c *value.Call, method string, n int) (name, val string) {
	if len(c.Args) < n {
		if n == 1 {
			r.ThrowType("Headers.%s: 1 argument required, but 0 found.", method)
		}
		r.ThrowType("Headers.%s: %d arguments required, but only %d found.", method, n, len(c.Args))
	}
	name = byteString(r, c.Args[0])
	if n == 2 {
		val = byteString(r, c.Args[1])
	}
	return name, val
}

func checkName(r *value.Realm, method, name string) string {
	if !protocol.IsToken(name) {
		r.ThrowType("Headers.%s: %s is an invalid header name.", method, strconv.Quote(name))
	}
	return strings.ToLower(name)
}

var headersProto = []*value.Native{
	native("Headers.prototype.append", 2, func(r *value.Realm, c *value.Call) value.Value {
		h := thisHeaders(r, c)
		name, val := headerArgs(r, c, "append", 2)
		headersAppend(r, h, "append", name, val)
		return value.Undefined
	}),
	native("Headers.prototype.delete", 1, func(r *value.Realm, c *value.Call) value.Value {
		h := thisHeaders(r, c)
		name, _ := headerArgs(r, c, "delete", 1)
		lname := checkName(r, "delete", name)
		checkMutable(r, h)
		h.delete(lname)
		return value.Undefined
	}),
	native("Headers.prototype.get", 1, func(r *value.Realm, c *value.Call) value.Value {
		h := thisHeaders(r, c)
		name, _ := headerArgs(r, c, "get", 1)
		if v, ok := h.get(checkName(r, "get", name)); ok {
			return value.StrOf(v)
		}
		return value.Null
	}),
	native("Headers.prototype.has", 1, func(r *value.Realm, c *value.Call) value.Value {
		h := thisHeaders(r, c)
		name, _ := headerArgs(r, c, "has", 1)
		_, ok := h.get(checkName(r, "has", name))
		return value.Bool(ok)
	}),
	native("Headers.prototype.set", 2, func(r *value.Realm, c *value.Call) value.Value {
		h := thisHeaders(r, c)
		name, val := headerArgs(r, c, "set", 2)
		val = normalizeHeaderValue(val)
		lname := checkName(r, "set", name)
		if !validHeaderValue(val) {
			r.ThrowType("Headers.set: \"%s\" is an invalid header value.", val)
		}
		checkMutable(r, h)
		r.Charge(64 + len(name) + len(val))
		h.set(lname, val)
		return value.Undefined
	}),
	native("Headers.prototype.getSetCookie", 0, func(r *value.Realm, c *value.Call) value.Value {
		h := thisHeaders(r, c)
		var out []value.Value
		for _, e := range h.list {
			if e.name == "set-cookie" {
				out = append(out, value.StrOf(e.value))
			}
		}
		return value.Obj(r.NewArrayValue(out))
	}),
	native("Headers.prototype.keys", 0, func(r *value.Realm, c *value.Call) value.Value {
		return headersIterator(r, c, value.IterKeys)
	}),
	native("Headers.prototype.values", 0, func(r *value.Realm, c *value.Call) value.Value {
		return headersIterator(r, c, value.IterValues)
	}),
	native("Headers.prototype.entries", 0, func(r *value.Realm, c *value.Call) value.Value {
		return headersIterator(r, c, value.IterEntries)
	}),
	native("Headers.prototype.forEach", 1, func(r *value.Realm, c *value.Call) value.Value {
		h := thisHeaders(r, c)
		if len(c.Args) == 0 {
			r.ThrowType("Headers.forEach: 1 argument required, but 0 found.")
		}
		cb := c.Args[0]
		if !isCallable(cb) {
			r.ThrowType("Failed to execute 'forEach' on 'Headers': parameter 1 is not of type 'Function'.")
		}
		for i := 0; ; i++ {
			list := h.sortCombine(false)
			if i >= len(list) {
				return value.Undefined
			}
			r.Call(cb, c.Arg(1), []value.Value{value.StrOf(list[i].value), value.StrOf(list[i].name), c.This})
		}
	}),
}

func headersIterator(r *value.Realm, c *value.Call, kind value.IterKind) value.Value {
	thisHeaders(r, c)
	o := value.NewObject(iterProto(r, value.HeadersPrototype, "Headers Iterator", headersIterNext))
	o.Class = value.ClassIterator
	o.Internal = &listIter{target: c.This.AsObject(), kind: kind}
	r.Charge(96)
	return value.Obj(o)
}

var headersIterNext = native("%HeadersIteratorPrototype%.next", 0, func(r *value.Realm, c *value.Call) value.Value {
	var it *listIter
	if o := c.This.AsObject(); o != nil {
		it, _ = o.Internal.(*listIter)
	}
	var h *headersData
	if it != nil && it.target != nil {
		h, _ = it.target.Internal.(*headersData)
	}
	if it == nil || it.target != nil && h == nil {
		r.ThrowType("'next' called on an object that does not implement interface Headers Iterator.")
	}
	if it.target == nil {
		return value.Obj(r.IterResult(value.Undefined, true))
	}
	list := h.sortCombine(false)
	if it.index >= len(list) {
		it.target = nil
		return value.Obj(r.IterResult(value.Undefined, true))
	}
	e := list[it.index]
	it.index++
	return value.Obj(r.IterResult(pairValue(r, e.name, e.value, it.kind), false))
})
