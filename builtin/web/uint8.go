package web

// Uint8Array, the one binary type: a view (offset, length) over a shared
// byte buffer, so that subarray shares memory as it does in JavaScript.
// Its Internal implements value.Indexed, which is how u[i] reads and
// writes go through the engines. The methods are %TypedArray%'s, and
// their error messages name %TypedArray% as V8's do; they live directly
// on Uint8Array.prototype because there is no other typed array.

import (
	"encoding/base64"
	"encoding/hex"
	"math"
	"slices"
	"strings"

	"github.com/go-codemode/codemode/value"
)

// byteBuffer is the memory views share.
type byteBuffer struct{ data []byte }

// u8Data is the Internal of a Uint8Array.
type u8Data struct {
	buf *byteBuffer
	off int
	n   int
}

// IndexLen is the element count.
func (u *u8Data) IndexLen() int { return u.n }

// IndexGet reads element i (0 <= i < IndexLen).
func (u *u8Data) IndexGet(i int) value.Value { return value.Number(float64(u.buf.data[u.off+i])) }

// IndexSet converts v (ToNumber, then modulo 2^8) and stores it at i; an
// index out of range is ignored after the conversion, as JavaScript does.
func (u *u8Data) IndexSet(r *value.Realm, i int, v value.Value) bool {
	b := toUint8(r, v)
	if i < 0 || i >= u.n {
		return false
	}
	u.buf.data[u.off+i] = b
	return true
}

func (u *u8Data) bytes() []byte { return u.buf.data[u.off : u.off+u.n] }

// toUint8 is ToUint8: ToNumber, truncate, modulo 256 (NaN and ±Infinity
// become 0).
func toUint8(r *value.Realm, v value.Value) byte {
	var f float64
	if v.IsNumber() {
		f = v.Num()
	} else {
		f = r.ToNumber(v)
	}
	return numToUint8(f)
}

func numToUint8(f float64) byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	if f >= 0 && f < 256 {
		return byte(f)
	}
	m := math.Mod(math.Trunc(f), 256)
	if m < 0 {
		m += 256
	}
	return byte(m)
}

func installUint8Array(l *value.Library) {
	l.Intrinsic(value.Uint8ArrayPrototype, value.IntrinsicSpec{Name: "Uint8Array.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			constructorFirst(r, o, value.Uint8ArrayCtor)
			o.Define("BYTES_PER_ELEMENT", value.Number(1), 0)
			accessor(r, o, "byteLength", u8ByteLength, nil, false)
			accessor(r, o, "byteOffset", u8ByteOffset, nil, false)
			accessor(r, o, "length", u8Length, nil, false)
			r.Methods(o, u8Proto)
			o.Define(value.SymIterator.Key(), r.GetObj(o, "values", value.Obj(o)), value.Writable|value.Configurable)
			accessor(r, o, value.SymToStringTag.Key(), u8ToStringTag, nil, false)
		}})
	l.Intrinsic(value.Uint8ArrayCtor, value.IntrinsicSpec{Name: "Uint8Array",
		Func: &value.Native{Name: "Uint8Array", Length: 3, Ctor: true, Fn: u8Ctor},
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.Uint8ArrayPrototype))
			o.Define("BYTES_PER_ELEMENT", value.Number(1), 0)
			r.Methods(o, u8Statics)
		}})
	l.GlobalIntrinsic("Uint8Array", value.Uint8ArrayCtor)
	l.Register(u8Proto...)
	l.Register(u8Statics...)
	l.Register(u8ByteLength, u8ByteOffset, u8Length, u8ToStringTag)
}

// allocFailed is V8's message for a typed array too big to allocate:
// what a program sees past value.MaxArrayLength bytes.
const allocFailed = "Array buffer allocation failed"

// newU8 makes a Uint8Array of n zero bytes.
func newU8(r *value.Realm, proto *value.Object, n int) (*value.Object, *u8Data) {
	if n > value.MaxArrayLength {
		r.ThrowRange(allocFailed)
	}
	r.Charge(128 + n)
	d := &u8Data{buf: &byteBuffer{data: make([]byte, n)}, n: n}
	o := value.NewObject(proto)
	o.Class = value.ClassUint8Array
	o.Internal = d
	return o, d
}

// newU8Bytes makes a Uint8Array over b (which it keeps).
func newU8Bytes(r *value.Realm, b []byte) *value.Object {
	if len(b) > value.MaxArrayLength {
		r.ThrowRange(allocFailed)
	}
	r.Charge(128 + len(b))
	o := value.NewObject(r.Intrinsic(value.Uint8ArrayPrototype))
	o.Class = value.ClassUint8Array
	o.Internal = &u8Data{buf: &byteBuffer{data: b}, n: len(b)}
	return o
}

// asU8 returns the data of a Uint8Array value, or nil.
func asU8(v value.Value) *u8Data {
	if o := v.AsObject(); o != nil {
		if d, ok := o.Internal.(*u8Data); ok {
			return d
		}
	}
	return nil
}

func u8Ctor(r *value.Realm, c *value.Call) value.Value {
	if c.NewTarget == nil {
		r.ThrowType("Constructor Uint8Array requires 'new'")
	}
	proto := r.ProtoFromCtor(c.NewTarget, value.Uint8ArrayPrototype)
	arg := c.Arg(0)
	if !arg.IsObject() {
		if arg.IsUndefined() {
			o, _ := newU8(r, proto, 0)
			return value.Obj(o)
		}
		f := r.ToNumber(arg)
		n := math.Trunc(f)
		if math.IsNaN(f) {
			n = 0
		}
		if n < 0 || n > 1<<53-1 {
			r.ThrowRange("Invalid typed array length: %s", value.NumberToString(f).String())
		}
		o, _ := newU8(r, proto, int(min(n, value.MaxArrayLength+1)))
		return value.Obj(o)
	}
	if src := asU8(arg); src != nil {
		o, d := newU8(r, proto, src.n)
		copy(d.bytes(), src.bytes())
		return value.Obj(o)
	}
	method := r.Get(arg, value.SymIterator.Key())
	if !method.IsNullish() {
		if !isCallable(method) {
			r.ThrowType("%s is not a function", r.Describe(method))
		}
		vals := iterateWith(r, arg, method)
		o, d := newU8(r, proto, len(vals))
		for i, v := range vals {
			d.buf.data[d.off+i] = toUint8(r, v)
		}
		return value.Obj(o)
	}
	o, d := newU8(r, proto, r.LengthOf(arg))
	for i := 0; i < d.n; i++ {
		r.Poll()
		d.IndexSet(r, i, r.GetIndex(arg, i))
	}
	return value.Obj(o)
}

// receiverDesc renders an incompatible receiver as V8's messages do.
func receiverDesc(r *value.Realm, v value.Value) string {
	o := v.AsObject()
	switch {
	case o == nil:
		if v.IsSymbol() {
			return v.AsSymbol().Description
		}
		s, _ := v.ToString()
		return s.String()
	case o.Callable():
		return functionSource(r, o)
	case o.Class == value.ClassArray:
		return "[object Array]"
	}
	if n := constructorName(r, o); n != "" {
		return "#<" + n + ">"
	}
	return "#<Object>"
}

// typedDesc renders a non-callable callback the way V8's "x is not a
// function" does for most typed array methods: "number 5", "object".
func typedDesc(r *value.Realm, v value.Value) string {
	switch v.Kind() {
	case value.KindUndefined:
		return "undefined"
	case value.KindNull:
		return "object null"
	case value.KindString:
		return `string "` + v.AsString().String() + `"`
	case value.KindObject:
		return "object"
	case value.KindSymbol:
		return "symbol " + v.AsSymbol().Description
	}
	s, _ := v.ToString()
	return v.TypeOf() + " " + s.String()
}

// functionSource is Function.prototype.toString of a function, through
// the library's own native so that a program cannot change it.
func functionSource(r *value.Realm, f *value.Object) string {
	if n := r.Library().Native("Function.prototype.toString"); n != nil && n.Fn != nil {
		if s := n.Fn(r, &value.Call{This: value.Obj(f)}); s.IsString() {
			return s.AsString().String()
		}
	}
	return "function " + r.FunctionName(f) + "() { [native code] }"
}

func thisU8(r *value.Realm, c *value.Call, method string) *u8Data {
	if d := asU8(c.This); d != nil {
		return d
	}
	r.ThrowType("Method %%TypedArray%%.prototype.%s called on incompatible receiver %s", method, receiverDesc(r, c.This))
	return nil
}

// callback checks a callback argument, V8's message style by method.
func callback(r *value.Realm, c *value.Call, receiverStyle bool) value.Value {
	cb := c.Arg(0)
	if !isCallable(cb) {
		if receiverStyle {
			r.ThrowType("%s is not a function", receiverDesc(r, cb))
		}
		r.ThrowType("%s is not a function", typedDesc(r, cb))
	}
	return cb
}

func u8Getter(name string, fn func(*u8Data) int) *value.Native {
	return native("Uint8Array.prototype.get "+name, 0, func(r *value.Realm, c *value.Call) value.Value {
		d := asU8(c.This)
		if d == nil {
			r.ThrowType("Method get TypedArray.prototype.%s called on incompatible receiver %s", name, receiverDesc(r, c.This))
		}
		return value.Number(float64(fn(d)))
	})
}

var (
	u8Length      = u8Getter("length", func(d *u8Data) int { return d.n })
	u8ByteLength  = u8Getter("byteLength", func(d *u8Data) int { return d.n })
	u8ByteOffset  = u8Getter("byteOffset", func(d *u8Data) int { return d.off })
	u8ToStringTag = native("Uint8Array.prototype.get [Symbol.toStringTag]", 0, func(r *value.Realm, c *value.Call) value.Value {
		if asU8(c.This) == nil {
			return value.Undefined
		}
		return value.StrOf("Uint8Array")
	})
)

// ctorFromThis is the constructor of from and of: this when it is a
// constructor other than Uint8Array (a subclass), else nil.
func ctorFromThis(r *value.Realm, c *value.Call) *value.Object {
	o := c.This.AsObject()
	if o == r.Intrinsic(value.Uint8ArrayCtor) {
		return nil
	}
	if !value.IsConstructor(c.This) {
		r.ThrowType("%s is not a constructor", r.Describe(c.This))
	}
	return o
}

// createFrom makes the result of from/of: a Uint8Array of n, through a
// subclass constructor when there is one.
func createFrom(r *value.Realm, ctor *value.Object, n int, method string) (*value.Object, *u8Data) {
	if ctor == nil {
		return newU8(r, r.Intrinsic(value.Uint8ArrayPrototype), n)
	}
	v := r.Construct(value.Obj(ctor), []value.Value{value.Number(float64(n))}, nil)
	d := asU8(v)
	if d == nil {
		r.ThrowType("Method %%TypedArray%%.%s called on incompatible receiver %s", method, receiverDesc(r, v))
	}
	if d.n < n {
		r.ThrowType("Derived TypedArray constructor created an array which was too small")
	}
	return v.AsObject(), d
}

var u8Statics = []*value.Native{
	native("Uint8Array.from", 1, func(r *value.Realm, c *value.Call) value.Value {
		ctor := ctorFromThis(r, c)
		src, mapFn := c.Arg(0), c.Arg(1)
		if !mapFn.IsUndefined() && !isCallable(mapFn) {
			r.ThrowType("%s is not a function", typedDesc(r, mapFn))
		}
		var vals []value.Value
		if src.IsNullish() {
			r.ThrowType("%s is not iterable (cannot read property Symbol(Symbol.iterator))", typedDesc(r, src))
		}
		method := r.Get(src, value.SymIterator.Key())
		if !method.IsNullish() {
			if !isCallable(method) {
				r.ThrowType("%s is not a function", r.Describe(method))
			}
			vals = iterateWith(r, src, method)
		} else {
			n := r.LengthOf(src)
			if n > value.MaxArrayLength {
				r.ThrowRange(allocFailed)
			}
			vals = make([]value.Value, n)
			for i := range vals {
				r.Poll()
				vals[i] = r.GetIndex(src, i)
			}
		}
		o, d := createFrom(r, ctor, len(vals), "from")
		for i, v := range vals {
			if !mapFn.IsUndefined() {
				r.Poll()
				v = r.Call(mapFn, c.Arg(2), []value.Value{v, value.Number(float64(i))})
			}
			d.IndexSet(r, i, v)
		}
		return value.Obj(o)
	}),
	native("Uint8Array.of", 0, func(r *value.Realm, c *value.Call) value.Value {
		ctor := ctorFromThis(r, c)
		o, d := createFrom(r, ctor, len(c.Args), "of")
		for i, v := range c.Args {
			d.IndexSet(r, i, v)
		}
		return value.Obj(o)
	}),
	native("Uint8Array.fromBase64", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := c.Arg(0).AsString()
		if s == nil {
			r.ThrowType("input argument must be a string")
		}
		url, last := base64Options(r, c.Arg(1), true)
		decodeCost(r, s)
		_, b, msg := decodeBase64JS(s.Units(), url, last, math.MaxInt, r.Tick)
		if msg != "" {
			r.ThrowError(value.SyntaxError, "%s", msg)
		}
		return value.Obj(newU8Bytes(r, b))
	}),
	native("Uint8Array.fromHex", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := c.Arg(0).AsString()
		if s == nil {
			r.ThrowType("input argument must be a string")
		}
		r.Tick(s.Len())
		r.Reserve(s.Len() / 2)
		_, b, bad := decodeHexJS(s, math.MaxInt)
		if bad {
			r.ThrowError(value.SyntaxError, hexMessage)
		}
		return value.Obj(newU8Bytes(r, b))
	}),
}

// decodeCost charges a base64 decode of s as work, and checks that its
// copies (the code units, the cleaned digits, the bytes) fit the budget.
func decodeCost(r *value.Realm, s *value.String) {
	r.Tick(4 * s.Len())
	r.Reserve(4 * s.Len())
}

const hexMessage = "Input string must contain hex characters in even length"

// base64Options reads the alphabet (and, for decoding, the
// lastChunkHandling) option.
func base64Options(r *value.Realm, opts value.Value, decoding bool) (url bool, last string) {
	last = "loose"
	if opts.IsUndefined() {
		return false, last
	}
	if !opts.IsObject() {
		r.ThrowType("invalid_argument")
	}
	switch a := r.Get(opts, "alphabet"); {
	case a.IsUndefined():
	case a.IsString() && a.AsString().String() == "base64":
	case a.IsString() && a.AsString().String() == "base64url":
		url = true
	default:
		r.ThrowType("invalid option %s", r.ToString(a).String())
	}
	if decoding {
		switch l := r.Get(opts, "lastChunkHandling"); {
		case l.IsUndefined():
		case l.IsString() && (l.AsString().String() == "loose" || l.AsString().String() == "strict" || l.AsString().String() == "stop-before-partial"):
			last = l.AsString().String()
		default:
			r.ThrowType("invalid option %s", r.ToString(l).String())
		}
	}
	return url, last
}

const (
	b64BadChar   = "Found a character that cannot be part of a valid base64 string."
	b64Partial   = "The base64 input terminates with a single character, excluding padding (=)."
	b64ExtraBits = "The base64 input terminates with non-zero padding bits."
)

// decodeBase64JS is the FromBase64 operation of the base64 proposal:
// it returns how many code units were consumed, the bytes, and a
// SyntaxError message on failure (the bytes decoded before it remain).
func decodeBase64JS(s []uint16, url bool, last string, maxLength int, tick func(int)) (int, []byte, string) {
	if maxLength == 0 {
		return 0, nil, ""
	}
	var bytes []byte
	read, index, n := 0, 0, len(s)
	var chunk []byte
	skip := func(i int) int {
		for i < n && isASCIIWhitespace(s[i]) {
			i++
		}
		return i
	}
	decodeChunk := func(strict bool) string {
		full := append(append([]byte(nil), chunk...), "AAAA"[len(chunk):]...)
		dec := decodeBase64Loose(full, false)
		switch len(chunk) {
		case 2:
			if strict && dec[1] != 0 {
				return b64ExtraBits
			}
			dec = dec[:1]
		case 3:
			if strict && dec[2] != 0 {
				return b64ExtraBits
			}
			dec = dec[:2]
		}
		bytes = append(bytes, dec...)
		return ""
	}
	nextTick := value.TickInterval
	for {
		index = skip(index)
		// Ticked as the decode goes, so that a huge input still ends at
		// the deadline.
		if index >= nextTick && tick != nil {
			tick(value.TickInterval)
			nextTick = index + value.TickInterval
		}
		if index == n {
			if len(chunk) > 0 {
				switch {
				case last == "stop-before-partial":
					return read, bytes, ""
				case last == "loose" && len(chunk) > 1:
					if msg := decodeChunk(false); msg != "" {
						return read, bytes, msg
					}
				default:
					return read, bytes, b64Partial
				}
			}
			return n, bytes, ""
		}
		ch := s[index]
		index++
		if ch == '=' {
			if len(chunk) < 2 {
				return read, bytes, b64BadChar
			}
			index = skip(index)
			if len(chunk) == 2 {
				if index == n {
					if last == "stop-before-partial" {
						return read, bytes, ""
					}
					return read, bytes, b64BadChar
				}
				if s[index] == '=' {
					index = skip(index + 1)
				}
			}
			if index < n {
				return read, bytes, b64BadChar
			}
			if msg := decodeChunk(last == "strict"); msg != "" {
				return read, bytes, msg
			}
			return n, bytes, ""
		}
		if url {
			switch ch {
			case '+', '/':
				return read, bytes, b64BadChar
			case '-':
				ch = '+'
			case '_':
				ch = '/'
			}
		}
		if !isBase64Char(ch) {
			return read, bytes, b64BadChar
		}
		remaining := maxLength - len(bytes)
		if remaining == 1 && len(chunk) == 2 || remaining == 2 && len(chunk) == 3 {
			return read, bytes, ""
		}
		chunk = append(chunk, byte(ch))
		if len(chunk) == 4 {
			bytes = append(bytes, decodeBase64Loose(chunk, false)...)
			chunk = chunk[:0]
			read = index
			if len(bytes) == maxLength {
				return read, bytes, ""
			}
		}
	}
}

// decodeHexJS is FromHex: the code units read, the bytes, and whether
// the input was bad (odd length or a non-hex digit).
func decodeHexJS(s *value.String, maxLength int) (int, []byte, bool) {
	n := s.Len()
	if n%2 != 0 {
		return 0, nil, true
	}
	var out []byte
	read := 0
	for read < n && len(out) < maxLength {
		a, b := s.At(read), s.At(read+1)
		if a > 127 || b > 127 {
			return read, out, true
		}
		h, ok1 := hexVal(byte(a))
		l, ok2 := hexVal(byte(b))
		if !ok1 || !ok2 {
			return read, out, true
		}
		out = append(out, h<<4|l)
		read += 2
	}
	return read, out, false
}

func readWritten(r *value.Realm, read, written int) value.Value {
	o := r.NewPlainObject()
	o.Define("read", value.Number(float64(read)), value.DefaultFlags)
	o.Define("written", value.Number(float64(written)), value.DefaultFlags)
	return value.Obj(o)
}

// relIndex resolves a relative index argument against n, clamped.
func relIndex(r *value.Realm, v value.Value, n, dflt int) int { return r.RelativeIndex(v, n, dflt) }

var u8Proto = []*value.Native{
	native("Uint8Array.prototype.at", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "at")
		k := r.ToIntegerOrInfinity(c.Arg(0))
		if k < 0 {
			k += float64(d.n)
		}
		if k < 0 || k >= float64(d.n) {
			return value.Undefined
		}
		return d.IndexGet(int(k))
	}),
	native("Uint8Array.prototype.copyWithin", 2, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "copyWithin")
		to := relIndex(r, c.Arg(0), d.n, 0)
		from := relIndex(r, c.Arg(1), d.n, 0)
		end := relIndex(r, c.Arg(2), d.n, d.n)
		if count := min(end-from, d.n-to); count > 0 {
			b := d.bytes()
			copy(b[to:to+count], b[from:from+count])
		}
		return c.This
	}),
	native("Uint8Array.prototype.entries", 0, func(r *value.Realm, c *value.Call) value.Value {
		thisU8(r, c, "entries")
		return value.Obj(r.NewArrayIterator(c.This, value.IterEntries))
	}),
	native("Uint8Array.prototype.every", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "every")
		cb := callback(r, c, false)
		for i := 0; i < d.n; i++ {
			if !r.Call(cb, c.Arg(1), []value.Value{d.IndexGet(i), value.Number(float64(i)), c.This}).ToBoolean() {
				return value.False
			}
		}
		return value.True
	}),
	native("Uint8Array.prototype.fill", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "fill")
		b := toUint8(r, c.Arg(0))
		start := relIndex(r, c.Arg(1), d.n, 0)
		end := relIndex(r, c.Arg(2), d.n, d.n)
		buf := d.bytes()
		for i := start; i < end; i++ {
			buf[i] = b
		}
		return c.This
	}),
	native("Uint8Array.prototype.filter", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "filter")
		cb := callback(r, c, false)
		var kept []byte
		for i := 0; i < d.n; i++ {
			v := d.IndexGet(i)
			if r.Call(cb, c.Arg(1), []value.Value{v, value.Number(float64(i)), c.This}).ToBoolean() {
				kept = append(kept, byte(v.Num()))
			}
		}
		return value.Obj(newU8Bytes(r, kept))
	}),
	findNative("find", false, false),
	findNative("findIndex", false, true),
	findNative("findLast", true, false),
	findNative("findLastIndex", true, true),
	native("Uint8Array.prototype.forEach", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "forEach")
		cb := callback(r, c, false)
		for i := 0; i < d.n; i++ {
			r.Call(cb, c.Arg(1), []value.Value{d.IndexGet(i), value.Number(float64(i)), c.This})
		}
		return value.Undefined
	}),
	native("Uint8Array.prototype.includes", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "includes")
		if d.n == 0 {
			return value.False
		}
		from := relIndex(r, c.Arg(1), d.n, 0)
		if b, ok := byteOf(c.Arg(0)); ok {
			return value.Bool(slices.Contains(d.bytes()[from:], b))
		}
		return value.False
	}),
	native("Uint8Array.prototype.indexOf", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "indexOf")
		if d.n == 0 {
			return value.Number(-1)
		}
		from := relIndex(r, c.Arg(1), d.n, 0)
		if b, ok := byteOf(c.Arg(0)); ok {
			if i := slices.Index(d.bytes()[from:], b); i >= 0 {
				return value.Number(float64(from + i))
			}
		}
		return value.Number(-1)
	}),
	native("Uint8Array.prototype.join", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "join")
		sep := ","
		if !c.Arg(0).IsUndefined() {
			sep = r.ToString(c.Arg(0)).String()
		}
		return joinBytes(r, d, sep)
	}),
	native("Uint8Array.prototype.keys", 0, func(r *value.Realm, c *value.Call) value.Value {
		thisU8(r, c, "keys")
		return value.Obj(r.NewArrayIterator(c.This, value.IterKeys))
	}),
	native("Uint8Array.prototype.lastIndexOf", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "lastIndexOf")
		if d.n == 0 {
			return value.Number(-1)
		}
		from := float64(d.n - 1)
		if len(c.Args) > 1 {
			from = r.ToIntegerOrInfinity(c.Args[1])
			if from < 0 {
				from += float64(d.n)
			}
			from = min(from, float64(d.n-1))
		}
		if b, ok := byteOf(c.Arg(0)); ok {
			buf := d.bytes()
			for i := int(max(from, -1)); i >= 0; i-- {
				if buf[i] == b {
					return value.Number(float64(i))
				}
			}
		}
		return value.Number(-1)
	}),
	native("Uint8Array.prototype.map", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "map")
		cb := callback(r, c, true)
		o, out := newU8(r, r.Intrinsic(value.Uint8ArrayPrototype), d.n)
		for i := 0; i < d.n; i++ {
			out.IndexSet(r, i, r.Call(cb, c.Arg(1), []value.Value{d.IndexGet(i), value.Number(float64(i)), c.This}))
		}
		return value.Obj(o)
	}),
	reduceNative("reduce", false),
	reduceNative("reduceRight", true),
	native("Uint8Array.prototype.reverse", 0, func(r *value.Realm, c *value.Call) value.Value {
		slices.Reverse(thisU8(r, c, "reverse").bytes())
		return c.This
	}),
	native("Uint8Array.prototype.set", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "set")
		off := r.ToIntegerOrInfinity(c.Arg(1))
		if off < 0 {
			r.ThrowRange("offset is out of bounds")
		}
		if src := asU8(c.Arg(0)); src != nil {
			if off > float64(d.n-src.n) {
				r.ThrowRange("offset is out of bounds")
			}
			copy(d.bytes()[int(off):], src.bytes())
			return value.Undefined
		}
		src := c.Arg(0)
		r.ToObject(src) // throws for null and undefined
		n := r.LengthOf(src)
		if off > float64(d.n-n) {
			r.ThrowRange("offset is out of bounds")
		}
		for i := 0; i < n; i++ {
			r.Poll()
			d.IndexSet(r, int(off)+i, r.GetIndex(src, i))
		}
		return value.Undefined
	}),
	native("Uint8Array.prototype.slice", 2, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "slice")
		start := relIndex(r, c.Arg(0), d.n, 0)
		end := relIndex(r, c.Arg(1), d.n, d.n)
		b := []byte{}
		if end > start {
			b = append(b, d.bytes()[start:end]...)
		}
		return value.Obj(newU8Bytes(r, b))
	}),
	native("Uint8Array.prototype.some", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "some")
		cb := callback(r, c, false)
		for i := 0; i < d.n; i++ {
			if r.Call(cb, c.Arg(1), []value.Value{d.IndexGet(i), value.Number(float64(i)), c.This}).ToBoolean() {
				return value.True
			}
		}
		return value.False
	}),
	native("Uint8Array.prototype.sort", 1, func(r *value.Realm, c *value.Call) value.Value {
		cmp := compareFn(r, c.Arg(0))
		d := thisU8(r, c, "sort")
		sorted := sortBytes(r, d.bytes(), cmp)
		copy(d.bytes(), sorted)
		return c.This
	}),
	native("Uint8Array.prototype.subarray", 2, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "subarray")
		start := relIndex(r, c.Arg(0), d.n, 0)
		end := relIndex(r, c.Arg(1), d.n, d.n)
		n := max(end-start, 0)
		r.Charge(128)
		o := value.NewObject(r.Intrinsic(value.Uint8ArrayPrototype))
		o.Class = value.ClassUint8Array
		o.Internal = &u8Data{buf: d.buf, off: d.off + start, n: n}
		return value.Obj(o)
	}),
	native("Uint8Array.prototype.toLocaleString", 0, func(r *value.Realm, c *value.Call) value.Value {
		return joinBytes(r, thisU8(r, c, "toLocaleString"), ",")
	}),
	native("Uint8Array.prototype.toReversed", 0, func(r *value.Realm, c *value.Call) value.Value {
		b := slices.Clone(thisU8(r, c, "toReversed").bytes())
		slices.Reverse(b)
		return value.Obj(newU8Bytes(r, b))
	}),
	native("Uint8Array.prototype.toSorted", 1, func(r *value.Realm, c *value.Call) value.Value {
		cmp := compareFn(r, c.Arg(0))
		d := thisU8(r, c, "toSorted")
		return value.Obj(newU8Bytes(r, sortBytes(r, d.bytes(), cmp)))
	}),
	native("Uint8Array.prototype.toString", 0, func(r *value.Realm, c *value.Call) value.Value {
		// Array.prototype.toString, which V8 shares with typed arrays.
		if c.This.IsNullish() {
			r.ThrowType("Cannot convert undefined or null to object")
		}
		if join := r.Get(c.This, "join"); isCallable(join) {
			return r.Call(join, c.This, nil)
		}
		if n := r.Library().Native("Object.prototype.toString"); n != nil && n.Fn != nil {
			return n.Fn(r, &value.Call{This: c.This})
		}
		return value.StrOf("[object Object]")
	}),
	native("Uint8Array.prototype.values", 0, func(r *value.Realm, c *value.Call) value.Value {
		thisU8(r, c, "values")
		return value.Obj(r.NewArrayIterator(c.This, value.IterValues))
	}),
	native("Uint8Array.prototype.with", 2, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "with")
		k := r.ToIntegerOrInfinity(c.Arg(0))
		if k < 0 {
			k += float64(d.n)
		}
		b := toUint8(r, c.Arg(1))
		if k < 0 || k >= float64(d.n) {
			r.ThrowRange("Invalid typed array index")
		}
		out := slices.Clone(d.bytes())
		out[int(k)] = b
		return value.Obj(newU8Bytes(r, out))
	}),
	native("Uint8Array.prototype.toBase64", 0, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "toBase64")
		url, _ := base64Options(r, c.Arg(0), false)
		omit := false
		if o := c.Arg(0); o.IsObject() {
			omit = r.Get(o, "omitPadding").ToBoolean()
		}
		enc := base64.StdEncoding
		switch {
		case url && omit:
			enc = base64.RawURLEncoding
		case url:
			enc = base64.URLEncoding
		case omit:
			enc = base64.RawStdEncoding
		}
		if enc.EncodedLen(d.n) > value.MaxStringLength {
			r.ThrowRange("Invalid string length")
		}
		r.Tick(enc.EncodedLen(d.n))
		r.Charge(enc.EncodedLen(d.n)) // before the text is made
		s := enc.EncodeToString(d.bytes())
		return value.StrOf(s)
	}),
	native("Uint8Array.prototype.setFromBase64", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "setFromBase64")
		s := c.Arg(0).AsString()
		if s == nil {
			r.ThrowType("input argument must be a string")
		}
		url, last := base64Options(r, c.Arg(1), true)
		decodeCost(r, s)
		read, b, msg := decodeBase64JS(s.Units(), url, last, d.n, r.Tick)
		copy(d.bytes(), b)
		if msg != "" {
			r.ThrowError(value.SyntaxError, "%s", msg)
		}
		return readWritten(r, read, len(b))
	}),
	native("Uint8Array.prototype.toHex", 0, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "toHex")
		if 2*d.n > value.MaxStringLength {
			r.ThrowRange("Invalid string length")
		}
		r.Tick(2 * d.n)
		r.Charge(2 * d.n)
		return value.StrOf(hex.EncodeToString(d.bytes()))
	}),
	native("Uint8Array.prototype.setFromHex", 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, "setFromHex")
		s := c.Arg(0).AsString()
		if s == nil {
			r.ThrowType("input argument must be a string")
		}
		r.Tick(min(s.Len(), 2*d.n))
		read, b, bad := decodeHexJS(s, d.n)
		copy(d.bytes(), b)
		if bad {
			r.ThrowError(value.SyntaxError, hexMessage)
		}
		return readWritten(r, read, len(b))
	}),
}

// byteOf returns the byte a search argument equals, if it is a number
// that a Uint8Array can hold.
func byteOf(v value.Value) (byte, bool) {
	if !v.IsNumber() {
		return 0, false
	}
	f := v.Num()
	if f < 0 || f > 255 || f != math.Trunc(f) {
		return 0, false
	}
	return byte(f), true
}

func joinBytes(r *value.Realm, d *u8Data, sep string) value.Value {
	var b strings.Builder
	for i, x := range d.bytes() {
		if i > 0 {
			b.WriteString(sep)
		}
		if b.Len() > value.MaxStringLength {
			r.ThrowRange("Invalid string length")
		}
		b.WriteString(itoa(int(x)))
	}
	r.Charge(b.Len())
	return value.StrOf(b.String())
}

func findNative(name string, fromEnd, wantIndex bool) *value.Native {
	return native("Uint8Array.prototype."+name, 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, name)
		cb := callback(r, c, false)
		n := d.n
		for j := 0; j < n; j++ {
			i := j
			if fromEnd {
				i = n - 1 - j
			}
			var v value.Value = value.Undefined
			if i < d.n {
				v = d.IndexGet(i)
			}
			if r.Call(cb, c.Arg(1), []value.Value{v, value.Number(float64(i)), c.This}).ToBoolean() {
				if wantIndex {
					return value.Number(float64(i))
				}
				return v
			}
		}
		if wantIndex {
			return value.Number(-1)
		}
		return value.Undefined
	})
}

func reduceNative(name string, fromEnd bool) *value.Native {
	return native("Uint8Array.prototype."+name, 1, func(r *value.Realm, c *value.Call) value.Value {
		d := thisU8(r, c, name)
		cb := callback(r, c, false)
		n := d.n
		k := 0
		var acc value.Value
		if len(c.Args) >= 2 {
			acc = c.Args[1]
		} else {
			if n == 0 {
				r.ThrowType("Reduce of empty array with no initial value")
			}
			acc = d.IndexGet(index(fromEnd, n, 0))
			k = 1
		}
		for ; k < n; k++ {
			i := index(fromEnd, n, k)
			var v value.Value = value.Undefined
			if i < d.n {
				v = d.IndexGet(i)
			}
			acc = r.Call(cb, value.Undefined, []value.Value{acc, v, value.Number(float64(i)), c.This})
		}
		return acc
	})
}

func index(fromEnd bool, n, k int) int {
	if fromEnd {
		return n - 1 - k
	}
	return k
}

// compareFn checks sort's comparator argument.
func compareFn(r *value.Realm, v value.Value) value.Value {
	if !v.IsUndefined() && !isCallable(v) {
		r.ThrowType("The comparison function must be either a function or undefined: %s", receiverDesc(r, v))
	}
	return v
}

// sortBytes returns the bytes sorted (numerically, or by cmp); a throw
// from cmp leaves the array as it was.
func sortBytes(r *value.Realm, b []byte, cmp value.Value) []byte {
	out := slices.Clone(b)
	if cmp.IsUndefined() {
		slices.Sort(out)
		return out
	}
	slices.SortStableFunc(out, func(x, y byte) int {
		r.Poll()
		f := r.ToNumber(r.Call(cmp, value.Undefined, []value.Value{value.Number(float64(x)), value.Number(float64(y))}))
		switch {
		case f < 0:
			return -1
		case f > 0:
			return 1
		}
		return 0
	})
	return out
}
