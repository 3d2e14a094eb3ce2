package web

// URLSearchParams: an ordered list of name/value pairs with the
// application/x-www-form-urlencoded parser and serializer. A list bound
// to a URL writes its serialization back to the URL's query after every
// change. At the host boundary it becomes its query string.

import (
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-codemode/codemode/value"
)

type formPair struct{ name, value string }

// paramsData is the Internal of a URLSearchParams object.
type paramsData struct {
	list []formPair
	url  *urlData // the URL it belongs to, or nil
}

// BoundaryValue is the query string: what a URLSearchParams becomes when
// it crosses to the host.
func (p *paramsData) BoundaryValue(r *value.Realm) value.Value {
	return value.StrOf(serializeForm(p.list))
}

// update is the URLSearchParams update steps.
func (p *paramsData) update() {
	if p.url == nil {
		return
	}
	s := serializeForm(p.list)
	if s == "" {
		p.url.rec.query = nil
	} else {
		p.url.rec.query = &s
	}
}

// parseForm is the application/x-www-form-urlencoded parser.
func parseForm(s string) []formPair { return parseFormTicked(s, nil) }

// parseFormTicked is parseForm ticking (when tick is not nil) per pair
// and per character, so that a run can stop the parse of a 16 M-character
// query at its deadline.
func parseFormTicked(s string, tick func(n int)) []formPair {
	var out []formPair
	for seq := range strings.SplitSeq(s, "&") {
		if tick != nil {
			tick(1 + len(seq))
		}
		if seq == "" {
			continue
		}
		name, val, _ := strings.Cut(seq, "=")
		out = append(out, formPair{decodeFormPart(name), decodeFormPart(val)})
	}
	return out
}

func decodeFormPart(s string) string {
	if strings.IndexByte(s, '+') >= 0 {
		s = strings.ReplaceAll(s, "+", " ")
	}
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	return utf8DecodeLossy(percentDecode(s))
}

// utf8DecodeLossy is UTF-8 decode without BOM: one U+FFFD for each
// maximal invalid subpart, as the Encoding standard decodes.
func utf8DecodeLossy(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	u, _ := decodeUTF8(b, false)
	return string(utf16.Decode(u))
}

// serializeForm is the application/x-www-form-urlencoded serializer.
func serializeForm(list []formPair) string {
	var b strings.Builder
	for i, p := range list {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(percentEncode(p.name, formSet, true))
		b.WriteByte('=')
		b.WriteString(percentEncode(p.value, formSet, true))
	}
	return b.String()
}

func installParams(l *value.Library) {
	l.Intrinsic(value.URLSearchParamsPrototype, value.IntrinsicSpec{Name: "URLSearchParams.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			constructorFirst(r, o, value.URLSearchParamsCtor)
			accessor(r, o, "size", paramsSize, nil, true)
			webMethods(r, o, paramsProto)
			o.Define(value.SymIterator.Key(), r.GetObj(o, "entries", value.Obj(o)), value.Writable|value.Configurable)
			toStringTag(o, "URLSearchParams")
		}})
	l.Intrinsic(value.URLSearchParamsCtor, value.IntrinsicSpec{Name: "URLSearchParams",
		Func: &value.Native{Name: "URLSearchParams", Ctor: true, Fn: paramsCtor},
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.URLSearchParamsPrototype))
		}})
	l.GlobalIntrinsic("URLSearchParams", value.URLSearchParamsCtor)
	l.Register(paramsProto...)
	l.Register(paramsSize, paramsIterNext)
}

func newParamsObject(r *value.Realm, proto *value.Object) *value.Object {
	o := value.NewObject(proto)
	o.Class = value.ClassURLSearchParams
	o.Internal = &paramsData{}
	r.Charge(128)
	return o
}

func paramsCtor(r *value.Realm, c *value.Call) value.Value {
	requireNew(r, c, "URLSearchParams")
	o := newParamsObject(r, r.ProtoFromCtor(c.NewTarget, value.URLSearchParamsPrototype))
	pd := o.Internal.(*paramsData)
	init := c.Arg(0)
	switch {
	case init.IsUndefined():
	case init.IsObject():
		iter := r.Get(init, value.SymIterator.Key())
		if !iter.IsNullish() {
			if !isCallable(iter) {
				throwCoded(r, value.TypeError, "ERR_ARG_NOT_ITERABLE", "Query pairs must be iterable")
			}
			for _, pair := range iterateWith(r, init, iter) {
				if !pair.IsObject() {
					throwCoded(r, value.TypeError, "ERR_INVALID_TUPLE", "Each query pair must be an iterable [name, value] tuple")
				}
				kv := r.IterateToSlice(pair)
				if len(kv) != 2 {
					throwCoded(r, value.TypeError, "ERR_INVALID_TUPLE", "Each query pair must be an iterable [name, value] tuple")
				}
				pd.list = append(pd.list, formPair{usv(r, kv[0]), usv(r, kv[1])})
			}
		} else {
			obj := init.AsObject()
			for _, k := range r.OwnKeys(obj, false, true) {
				p, ok := r.GetOwnProperty(obj, k)
				if !ok || p.Flags&value.Enumerable == 0 {
					continue
				}
				if value.IsSymbolKey(k) {
					r.ThrowType("Cannot convert a Symbol value to a string")
				}
				v := r.Get(init, k)
				pd.list = append(pd.list, formPair{value.NewString(k).String(), usv(r, v)})
			}
		}
	default:
		s := usv(r, init)
		r.Reserve(4 * len(s)) // the pairs' strings and records
		pd.list = parseFormTicked(strings.TrimPrefix(s, "?"), r.Tick)
	}
	r.Charge(64 * len(pd.list))
	return value.Obj(o)
}

// iterateWith collects the values of an iterable whose @@iterator
// method has already been read.
func iterateWith(r *value.Realm, v, method value.Value) []value.Value {
	it := r.Call(method, v, nil)
	if !it.IsObject() {
		r.ThrowType("Result of the Symbol.iterator method is not an object")
	}
	next := r.Get(it, "next")
	var out []value.Value
	for {
		res := r.Call(next, it, nil)
		if !res.IsObject() {
			r.ThrowType("Iterator result %s is not an object", r.Describe(res))
		}
		if r.Get(res, "done").ToBoolean() {
			return out
		}
		if len(out) >= value.MaxArrayLength {
			r.ThrowRange(value.ArrayLengthMessage)
		}
		out = append(out, r.Get(res, "value"))
	}
}

func thisParams(r *value.Realm, c *value.Call) *paramsData {
	if o := c.This.AsObject(); o != nil {
		if d, ok := o.Internal.(*paramsData); ok {
			return d
		}
	}
	throwCoded(r, value.TypeError, "ERR_INVALID_THIS", `Value of "this" must be of type URLSearchParams`)
	return nil
}

// needArgs throws node's ERR_MISSING_ARGS when fewer than n arguments
// were passed.
func needArgs(r *value.Realm, c *value.Call, n int) {
	if len(c.Args) >= n {
		return
	}
	if n == 1 {
		throwCoded(r, value.TypeError, "ERR_MISSING_ARGS", `The "name" argument must be specified`)
	}
	throwCoded(r, value.TypeError, "ERR_MISSING_ARGS", `The "name" and "value" arguments must be specified`)
}

var paramsSize = native("URLSearchParams.prototype.get size", 0, func(r *value.Realm, c *value.Call) value.Value {
	return value.Number(float64(len(thisParams(r, c).list)))
})

var paramsProto = []*value.Native{
	native("URLSearchParams.prototype.append", 2, func(r *value.Realm, c *value.Call) value.Value {
		p := thisParams(r, c)
		needArgs(r, c, 2)
		name, val := usv(r, c.Args[0]), usv(r, c.Args[1])
		r.Charge(64 + len(name) + len(val))
		p.list = append(p.list, formPair{name, val})
		p.update()
		return value.Undefined
	}),
	native("URLSearchParams.prototype.delete", 1, func(r *value.Realm, c *value.Call) value.Value {
		p := thisParams(r, c)
		needArgs(r, c, 1)
		name := usv(r, c.Args[0])
		withValue := !c.Arg(1).IsUndefined()
		var val string
		if withValue {
			val = usv(r, c.Args[1])
		}
		p.list = slices.DeleteFunc(p.list, func(x formPair) bool {
			return x.name == name && (!withValue || x.value == val)
		})
		p.update()
		return value.Undefined
	}),
	native("URLSearchParams.prototype.get", 1, func(r *value.Realm, c *value.Call) value.Value {
		p := thisParams(r, c)
		needArgs(r, c, 1)
		name := usv(r, c.Args[0])
		for _, x := range p.list {
			if x.name == name {
				return value.StrOf(x.value)
			}
		}
		return value.Null
	}),
	native("URLSearchParams.prototype.getAll", 1, func(r *value.Realm, c *value.Call) value.Value {
		p := thisParams(r, c)
		needArgs(r, c, 1)
		name := usv(r, c.Args[0])
		var out []value.Value
		for _, x := range p.list {
			if x.name == name {
				out = append(out, value.StrOf(x.value))
			}
		}
		return value.Obj(r.NewArrayValue(out))
	}),
	native("URLSearchParams.prototype.has", 1, func(r *value.Realm, c *value.Call) value.Value {
		p := thisParams(r, c)
		needArgs(r, c, 1)
		name := usv(r, c.Args[0])
		withValue := !c.Arg(1).IsUndefined()
		var val string
		if withValue {
			val = usv(r, c.Args[1])
		}
		for _, x := range p.list {
			if x.name == name && (!withValue || x.value == val) {
				return value.True
			}
		}
		return value.False
	}),
	native("URLSearchParams.prototype.set", 2, func(r *value.Realm, c *value.Call) value.Value {
		p := thisParams(r, c)
		needArgs(r, c, 2)
		name, val := usv(r, c.Args[0]), usv(r, c.Args[1])
		found := false
		out := p.list[:0]
		for _, x := range p.list {
			if x.name == name {
				if found {
					continue
				}
				found = true
				x.value = val
			}
			out = append(out, x)
		}
		clear(p.list[len(out):])
		p.list = out
		if !found {
			r.Charge(64 + len(name) + len(val))
			p.list = append(p.list, formPair{name, val})
		}
		p.update()
		return value.Undefined
	}),
	native("URLSearchParams.prototype.sort", 0, func(r *value.Realm, c *value.Call) value.Value {
		p := thisParams(r, c)
		slices.SortStableFunc(p.list, func(a, b formPair) int { return compareUTF16(a.name, b.name) })
		p.update()
		return value.Undefined
	}),
	native("URLSearchParams.prototype.entries", 0, func(r *value.Realm, c *value.Call) value.Value {
		return paramsIterator(r, c, value.IterEntries)
	}),
	native("URLSearchParams.prototype.forEach", 1, func(r *value.Realm, c *value.Call) value.Value {
		p := thisParams(r, c)
		cb := c.Arg(0)
		if !isCallable(cb) {
			throwCoded(r, value.TypeError, "ERR_INVALID_ARG_TYPE", `The "callback" argument must be of type function. `+received(r, cb))
		}
		for i := 0; i < len(p.list); i++ {
			x := p.list[i]
			r.Call(cb, c.Arg(1), []value.Value{value.StrOf(x.value), value.StrOf(x.name), c.This})
		}
		return value.Undefined
	}),
	native("URLSearchParams.prototype.keys", 0, func(r *value.Realm, c *value.Call) value.Value {
		return paramsIterator(r, c, value.IterKeys)
	}),
	native("URLSearchParams.prototype.values", 0, func(r *value.Realm, c *value.Call) value.Value {
		return paramsIterator(r, c, value.IterValues)
	}),
	native("URLSearchParams.prototype.toString", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.StrOf(serializeForm(thisParams(r, c).list))
	}),
}

// compareUTF16 orders Go strings by their UTF-16 code units, as the
// URL standard's sort does.
func compareUTF16(a, b string) int {
	if isASCIIString(a) && isASCIIString(b) {
		return strings.Compare(a, b)
	}
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	return slices.Compare(ua, ub)
}

// listIter is the Internal of a URLSearchParams or Headers iterator: it
// walks its target's list by index, live, as Web IDL's pair iterators do.
type listIter struct {
	target *value.Object
	index  int
	kind   value.IterKind
}

func paramsIterator(r *value.Realm, c *value.Call, kind value.IterKind) value.Value {
	thisParams(r, c)
	o := value.NewObject(iterProto(r, value.URLSearchParamsPrototype, "URLSearchParams Iterator", paramsIterNext))
	o.Class = value.ClassIterator
	o.Internal = &listIter{target: c.This.AsObject(), kind: kind}
	r.Charge(96)
	return value.Obj(o)
}

var paramsIterNext = native("%URLSearchParamsIteratorPrototype%.next", 0, func(r *value.Realm, c *value.Call) value.Value {
	var it *listIter
	if o := c.This.AsObject(); o != nil {
		it, _ = o.Internal.(*listIter)
	}
	var pd *paramsData
	if it != nil && it.target != nil {
		pd, _ = it.target.Internal.(*paramsData)
	}
	if it == nil || it.target != nil && pd == nil {
		throwCoded(r, value.TypeError, "ERR_INVALID_THIS", `Value of "this" must be of type URLSearchParamsIterator`)
	}
	if it.target == nil || it.index >= len(pd.list) {
		it.target = nil
		return value.Obj(r.IterResult(value.Undefined, true))
	}
	x := pd.list[it.index]
	it.index++
	return value.Obj(r.IterResult(pairValue(r, x.name, x.value, it.kind), false))
})

// pairValue is what a pair iterator yields for one pair.
func pairValue(r *value.Realm, name, val string, kind value.IterKind) value.Value {
	switch kind {
	case value.IterKeys:
		return value.StrOf(name)
	case value.IterValues:
		return value.StrOf(val)
	}
	return value.Obj(r.NewArrayValue([]value.Value{value.StrOf(name), value.StrOf(val)}))
}
