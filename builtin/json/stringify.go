package json

import (
	"strconv"
	"strings"

	"github.com/go-codemode/codemode/internal/jsnum"
	"github.com/go-codemode/codemode/value"
)

// The general path of JSON.stringify: SerializeJSONProperty,
// SerializeJSONObject and SerializeJSONArray of the specification, with
// the reference's rules for Errors, Headers and Promises. Its output is
// byte for byte what the data path (value.StringifyData) writes for the
// values both can take.

// promiseMessage is the reference's TypeError for a promise in the value.
const promiseMessage = "JSON.stringify received an un-awaited Promise; await it first - e.g. `const result = await tools.ns.tool(...)`."

// stringify is JSON.stringify(value, replacer, space).
func stringify(r *value.Realm, c *value.Call) value.Value {
	v := c.Arg(0)
	s := &serializer{r: r}
	if ro := c.Arg(1).AsObject(); ro != nil {
		if ro.Callable() {
			s.replacer = ro
		} else if ro.Class == value.ClassArray {
			s.props = propertyList(r, c.Arg(1))
			s.hasProps = true
		}
	}
	s.gap = gapOf(r, c.Arg(2))

	if s.replacer == nil && !s.hasProps {
		if text, ok, done := fastStringify(r, v, s.gap); done {
			if !ok {
				return value.Undefined
			}
			return result(r, text)
		}
	}

	text, ok := s.run(v)
	if !ok {
		return value.Undefined
	}
	return result(r, text)
}

// run writes v with the general path; ok is false when JSON.stringify
// returns undefined.
func (s *serializer) run(v value.Value) (text string, ok bool) {
	var holder value.Value
	if s.replacer != nil {
		// The replacer sees the wrapper {"": value} as `this`.
		w := s.r.NewPlainObject()
		w.Put("", v)
		holder = value.Obj(w)
	}
	v, ok = s.resolve(holder, propKey{name: ""}, v)
	if !ok {
		return "", false
	}
	s.write(v, propKey{name: ""})
	return s.b.String(), true
}

// result makes the JSON text a string value, counting it against the
// run's memory.
func result(r *value.Realm, text string) value.Value {
	str := value.NewString(text)
	if str.Len() > value.MaxStringLength {
		r.ThrowRange("Invalid string length")
	}
	r.Charge(str.Bytes())
	return value.Str(str)
}

// propertyList reads an array replacer: its strings and numbers, as
// property keys, each once, in order.
func propertyList(r *value.Realm, arr value.Value) []string {
	n := r.LengthOf(arr)
	list := make([]string, 0, min(n, 64))
	seen := make(map[string]bool, min(n, 64))
	for i := 0; i < n; i++ {
		poll(r)
		el := r.GetIndex(arr, i)
		var key string
		switch {
		case el.IsString():
			key = el.AsString().Key()
		case el.IsNumber():
			key = value.NumberToString(el.Num()).Key()
		case isWrapper(el, value.ClassString) || isWrapper(el, value.ClassNumber):
			key = r.ToString(el).Key()
		default:
			continue
		}
		if !seen[key] {
			seen[key] = true
			list = append(list, key)
		}
	}
	return list
}

// gapOf is the indent the space argument asks for: a number of spaces
// (at most 10) or the first 10 code units of a string; WTF-8, as the
// data path takes it.
func gapOf(r *value.Realm, space value.Value) string {
	switch {
	case isWrapper(space, value.ClassNumber):
		space = value.Number(r.ToNumber(space))
	case isWrapper(space, value.ClassString):
		space = value.Str(r.ToString(space))
	}
	switch {
	case space.IsNumber():
		n := r.ToIntegerOrInfinity(space)
		if n >= 1 {
			return strings.Repeat(" ", int(min(n, 10)))
		}
	case space.IsString():
		s := space.AsString()
		return s.Slice(0, min(s.Len(), 10)).Key()
	}
	return ""
}

// propKey is the key a value was reached under: a property name, or an
// array index.
type propKey struct {
	name    string
	index   int
	isIndex bool
}

func (k propKey) String() string {
	if k.isIndex {
		return strconv.Itoa(k.index)
	}
	return k.name
}

func (k propKey) value() value.Value { return value.StrOf(k.String()) }

// frame is an object being written, with the key it was reached under
// (for the circular-structure message).
type frame struct {
	obj *value.Object
	key propKey
}

// shallowStack is the depth past which open objects are also kept in a
// map, so that the circularity check stays constant-time.
const shallowStack = 32

type serializer struct {
	r        *value.Realm
	replacer *value.Object // a replacer function, or nil
	props    []string      // an array replacer's property list
	hasProps bool
	gap      string

	b       strings.Builder
	stack   []frame
	onStack map[*value.Object]int // index in stack, once it is deep
	// units counts the UTF-16 length of b up to scanned bytes; it is
	// only brought up to date once b could be too long.
	units, scanned int
}

// resolve is the first half of SerializeJSONProperty: toJSON, then the
// replacer. It reports false when the result is left out (undefined, a
// function, a symbol).
func (s *serializer) resolve(holder value.Value, key propKey, v value.Value) (value.Value, bool) {
	r := s.r
	if v.IsObject() {
		if toJSON := r.Get(v, "toJSON"); isCallable(toJSON) {
			v = r.Call(toJSON, v, []value.Value{key.value()})
		}
	}
	if s.replacer != nil {
		v = r.CallObject(s.replacer, holder, []value.Value{key.value(), v})
	}
	v = r.UnwrapForJSON(v)
	switch v.Kind() {
	case value.KindUndefined, value.KindSymbol:
		return v, false
	case value.KindObject:
		return v, !v.AsObject().Callable()
	}
	return v, true
}

// isWrapper reports a wrapper object of the given class.
func isWrapper(v value.Value, class value.Class) bool {
	o := v.AsObject()
	if o == nil || o.Class != class {
		return false
	}
	_, ok := o.PrimitiveValue()
	return ok
}

func isCallable(v value.Value) bool {
	o := v.AsObject()
	return o != nil && o.Callable()
}

// write is the second half of SerializeJSONProperty, for a value resolve
// kept.
func (s *serializer) write(v value.Value, key propKey) {
	switch v.Kind() {
	case value.KindNull:
		s.b.WriteString("null")
	case value.KindBoolean:
		if v.BoolValue() {
			s.b.WriteString("true")
		} else {
			s.b.WriteString("false")
		}
	case value.KindNumber:
		f := v.Num()
		if f != f || f-f != 0 { // NaN, ±Infinity
			s.b.WriteString("null")
		} else {
			s.b.WriteString(jsnum.Format(f))
		}
	case value.KindString:
		s.quote(v.AsString())
	case value.KindObject:
		s.object(v.AsObject(), key)
	}
}

// quote writes a string literal, refusing first a string whose literal
// alone would make the result too long (so that no huge escaped copy is
// built only to be thrown away).
func (s *serializer) quote(str *value.String) {
	if n := str.Len(); n > value.MaxStringLength/6 {
		if n+2 > value.MaxStringLength || s.unitsNow()+quotedUnits(str) > value.MaxStringLength {
			s.r.ThrowRange("Invalid string length")
		}
	}
	value.QuoteJSON(&s.b, str)
	s.check()
}

// quotedUnits is the UTF-16 length of str's JSON literal.
func quotedUnits(str *value.String) int {
	n := 2
	for i := 0; i < str.Len(); i++ {
		u := str.At(i)
		switch {
		case u == '"' || u == '\\' || u == '\b' || u == '\f' || u == '\n' || u == '\r' || u == '\t':
			n += 2
		case u < 0x20:
			n += 6
		case u >= 0xD800 && u < 0xDC00 && i+1 < str.Len() && str.At(i+1) >= 0xDC00 && str.At(i+1) < 0xE000:
			n += 2
			i++
		case u >= 0xD800 && u < 0xE000:
			n += 6
		default:
			n++
		}
	}
	return n
}

// check throws once the text is longer than a string may be. Until b
// holds more bytes than that, it cannot be (a code unit takes at least a
// byte), so the exact count is kept only past that point.
func (s *serializer) check() {
	if s.b.Len() <= value.MaxStringLength {
		return
	}
	if s.unitsNow() > value.MaxStringLength {
		s.r.ThrowRange("Invalid string length")
	}
}

// unitsNow brings the UTF-16 length of the text up to date. The text is
// WTF-8 and always holds whole characters between writes: every byte but
// a continuation byte starts one code unit, and a 4-byte sequence is two.
func (s *serializer) unitsNow() int {
	text := s.b.String()
	for i := s.scanned; i < len(text); i++ {
		c := text[i]
		if c&0xC0 != 0x80 {
			s.units++
			if c >= 0xF0 {
				s.units++
			}
		}
	}
	s.scanned = len(text)
	return s.units
}

func (s *serializer) newline(depth int) {
	if s.gap == "" {
		return
	}
	s.b.WriteByte('\n')
	for i := 0; i < depth; i++ {
		s.b.WriteString(s.gap)
	}
}

// object writes an object or array: SerializeJSONObject and
// SerializeJSONArray, after the checks V8 makes on entry.
func (s *serializer) object(o *value.Object, key propKey) {
	r := s.r
	if o.Class == value.ClassPromise {
		r.ThrowKind("InvalidDataValue", value.TypeError, "%s", promiseMessage)
	}
	depth := len(s.stack)
	if depth >= value.MaxJSONDepth {
		r.ThrowRange("Maximum call stack size exceeded")
	}
	r.Enter() // toJSON and the replacer may run the program below
	s.push(o, key)
	if o.Class == value.ClassArray {
		s.array(o, depth)
	} else {
		s.members(o, depth)
	}
	s.pop()
	r.Leave()
}

func (s *serializer) push(o *value.Object, key propKey) {
	at := -1
	if s.onStack != nil {
		if i, ok := s.onStack[o]; ok {
			at = i
		}
	} else {
		for i := range s.stack {
			if s.stack[i].obj == o {
				at = i
				break
			}
		}
	}
	if at >= 0 {
		s.r.ThrowType("%s", circularMessage(s.r, s.stack[at:], key))
	}
	s.stack = append(s.stack, frame{obj: o, key: key})
	if s.onStack == nil && len(s.stack) > shallowStack {
		s.onStack = make(map[*value.Object]int, 2*len(s.stack))
		for i, f := range s.stack {
			s.onStack[f.obj] = i
		}
	} else if s.onStack != nil {
		s.onStack[o] = len(s.stack) - 1
	}
}

func (s *serializer) pop() {
	o := s.stack[len(s.stack)-1].obj
	s.stack = s.stack[:len(s.stack)-1]
	if s.onStack != nil {
		delete(s.onStack, o)
	}
}

func (s *serializer) array(o *value.Object, depth int) {
	r := s.r
	v := value.Obj(o)
	n := r.LengthOf(v)
	if n == 0 {
		s.b.WriteString("[]")
		return
	}
	s.b.WriteByte('[')
	for i := 0; i < n; i++ {
		poll(r)
		if i > 0 {
			s.b.WriteByte(',')
		}
		s.newline(depth + 1)
		s.check()
		key := propKey{index: i, isIndex: true}
		el, ok := s.resolve(v, key, r.GetIndex(v, i))
		if ok {
			s.write(el, key)
		} else {
			s.b.WriteString("null")
		}
	}
	s.newline(depth)
	s.b.WriteByte(']')
	s.check()
}

// members writes an object as {"key": value, ...}: its own enumerable
// string keys (or the replacer's property list). An Error is written as
// {name, message, ...own enumerable}, as the reference does everywhere a
// value becomes JSON, and Headers as {name: value}.
func (s *serializer) members(o *value.Object, depth int) {
	r := s.r
	holder := value.Obj(o)
	if o.Class == value.ClassHeaders {
		if bv, ok := o.Internal.(value.BoundaryValue); ok {
			if h := bv.BoundaryValue(r); h.IsObject() {
				holder = h
				o = h.AsObject()
			}
		}
	}
	isError := o.Class == value.ClassError && !s.hasProps
	var keys []string
	switch {
	case s.hasProps:
		keys = s.props
	case isError:
		keys = append([]string{"name", "message"}, r.OwnKeys(o, true, false)...)
	default:
		keys = r.OwnKeys(o, true, false)
	}
	wrote := false
	s.b.WriteByte('{')
	for i, k := range keys {
		poll(r)
		if isError && i >= 2 && (k == "name" || k == "message") {
			continue
		}
		key := propKey{name: k}
		v := r.Get(holder, k)
		if isError && i < 2 {
			v = value.Str(r.ToString(v))
		}
		v, ok := s.resolve(holder, key, v)
		if !ok {
			continue
		}
		if wrote {
			s.b.WriteByte(',')
		}
		s.newline(depth + 1)
		quoteKey(&s.b, k)
		s.b.WriteByte(':')
		if s.gap != "" {
			s.b.WriteByte(' ')
		}
		s.check()
		s.write(v, key)
		wrote = true
	}
	if wrote {
		s.newline(depth)
	}
	s.b.WriteByte('}')
	s.check()
}

// quoteKey writes a property key (WTF-8) as a JSON string, as the data
// path does: plain ASCII directly, anything else through QuoteJSON.
func quoteKey(b *strings.Builder, key string) {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			value.QuoteJSON(b, value.NewString(key))
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(key)
	b.WriteByte('"')
}

// circularMessage is V8's TypeError for a cycle: the object where the
// circle starts, the path to the key that closes it (the first two and
// the last step, with an ellipsis between when there are more), and that
// key.
func circularMessage(r *value.Realm, cycle []frame, closing propKey) string {
	const prefix, postfix = 2, 1
	var b strings.Builder
	b.WriteString(value.CircularMessage)
	b.WriteString("\n    --> starting at object with constructor ")
	writeCtorName(r, &b, cycle[0].obj)
	line := func(f frame) {
		b.WriteString("\n    |     ")
		writeKey(&b, f.key)
		b.WriteString(" -> object with constructor ")
		writeCtorName(r, &b, f.obj)
	}
	i := 1
	for ; i < len(cycle) && i < 1+prefix; i++ {
		line(cycle[i])
	}
	if len(cycle) > i+postfix {
		b.WriteString("\n    |     ...")
	}
	for i = max(i, len(cycle)-postfix); i < len(cycle); i++ {
		line(cycle[i])
	}
	b.WriteString("\n    --- ")
	writeKey(&b, closing)
	b.WriteString(" closes the circle")
	return b.String()
}

func writeKey(b *strings.Builder, k propKey) {
	switch {
	case k.isIndex:
		b.WriteString("index ")
		b.WriteString(strconv.Itoa(k.index))
	case k.name == "":
		b.WriteString("<anonymous>")
	default:
		b.WriteString("property '")
		b.WriteString(value.NewString(k.name).String())
		b.WriteByte('\'')
	}
}

// writeCtorName writes V8's constructor name for an object, quoted: the
// name of the first `constructor` function on its prototype chain other
// than Object, else its Symbol.toStringTag, else its class ("Object",
// "Array", ...). V8 looks first at the function that made the object,
// which for codemode's objects is the prototype chain's constructor.
func writeCtorName(r *value.Realm, b *strings.Builder, o *value.Object) {
	b.WriteByte('\'')
	b.WriteString(ctorName(r, o))
	b.WriteByte('\'')
}

func ctorName(r *value.Realm, o *value.Object) string {
	for p := o.Proto; p != nil; p = p.Proto {
		prop := p.GetOwn("constructor")
		if prop == nil || prop.IsAccessor() {
			continue
		}
		if f := prop.Value.AsObject(); f != nil && f.Callable() {
			if name := r.FunctionName(f); name != "" && name != "Object" {
				return name
			}
		}
	}
	if prop, _ := o.Lookup(value.SymToStringTag.Key()); prop != nil && !prop.IsAccessor() && prop.Value.IsString() {
		return prop.Value.AsString().String()
	}
	switch o.Class {
	case value.ClassArray:
		return "Array"
	case value.ClassError:
		return "Error"
	case value.ClassFunction:
		return "Function"
	}
	return "Object"
}
