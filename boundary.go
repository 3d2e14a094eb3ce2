package codemode

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/value"
)

// MaxValueDepth is how deep a value crossing the boundary may nest; the
// root is at depth 0.
const MaxValueDepth = 32

// host supplies the globals a run gets from the embedding program.
type host struct {
	bindings map[string]json.RawMessage
	tools    *toolHost
	exts     *extHost
	// hasFetch: the run has a fetch global, performed by fetcher (nil:
	// fetch throws, the run has no network).
	hasFetch bool
	fetcher  protocol.FetchFunc
}

func (h *host) setBindings(b map[string]any) error {
	if len(b) == 0 {
		return nil
	}
	h.bindings = make(map[string]json.RawMessage, len(b))
	for name, v := range b {
		data, err := marshalBounded(v)
		if err != nil {
			return fmt.Errorf("binding %q cannot be passed to the program: %v; pass JSON-compatible data", name, err)
		}
		h.bindings[name] = data
	}
	return nil
}

// Global implements engine.Host.
func (h *host) Global(r *value.Realm, name string) (value.Value, bool) {
	if name == "tools" && h.tools != nil {
		return value.Obj(h.tools.ref(r, nil)), true
	}
	if h.tools != nil && h.tools.providers != nil {
		if v, ok := h.tools.provider(r, name); ok {
			return v, true
		}
	}
	if h.exts != nil {
		if v, ok := h.exts.global(r, name); ok {
			return v, true
		}
	}
	if name == "search" && h.tools != nil {
		return value.Obj(r.NewBound(searchNative, h.tools, "search", 1)), true
	}
	if name == "require" {
		return value.Obj(r.NewBound(requireNative, h, "require", 1)), true
	}
	if name == "fetch" && h.hasFetch {
		return value.Obj(r.NewBound(fetchNative, h, "fetch", 1)), true
	}
	data, ok := h.bindings[name]
	if !ok {
		return value.Undefined, false
	}
	v, err := value.ParseJSON(value.NewString(string(data)), value.JSONProtos{
		Object: r.Intrinsic(value.ObjectPrototype), Array: r.Intrinsic(value.ArrayPrototype)},
		func(n int) error { r.Charge(n); return nil })
	if err != nil {
		r.ThrowType("binding %s is not valid JSON: %v", name, err)
	}
	return v, true
}

// toBoundary copies a program value out as JSON: JSON.stringify's rules
// plus the reference's table (promises awaited, Set as array, Map as {},
// errors as {name, message, ...}, Uint8Array refused, __proto__ dropped,
// depth at most 32).
//
// The copy is bounded whatever the value: every byte kept is charged to
// the memory budget, the deadline and the context are polled as it goes,
// and it stops at a size cap. With an output limit (keep >= 0) only the
// first keep bytes are kept (that is all boundOutput shows) and the rest
// is only counted, up to max(keep, MaxResultBytes); past that the count
// is reported as a lower bound. Without one, a value over MaxResultBytes
// fails with a RangeError. An interrupt (timeout, memory, cancellation)
// raised during the copy, in a getter, toJSON or an awaited promise, is
// returned as the run's failure.
func toBoundary(run engine.Run, v value.Value, keep int) (out boundaryText, fail *engine.Failure) {
	w := newBoundaryWriter(run.Realm(), run, keep)
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(outputOver); ok {
				out = boundaryText{text: string(w.out.buf), size: w.out.stop, atLeast: true}
				return
			}
			if f := interruptFailure(p); f != nil {
				fail = f
				return
			}
			panic(p)
		}
	}()
	exc := w.r.Try(func() {
		if !w.value(v, "", 0) {
			w.out.writeString("null")
		}
	})
	if exc != nil {
		return boundaryText{}, &engine.Failure{Exception: exc}
	}
	return boundaryText{text: string(w.out.buf), size: w.out.n}, nil
}

// boundaryText is a copied value: its JSON text, or only the first bytes
// of it when an output limit cut it (size is then the full length, or a
// lower bound when atLeast).
type boundaryText struct {
	text    string
	size    int
	atLeast bool
}

// interruptFailure returns the failure a recovered panic stands for when
// it is an interrupt (a limit, a cancellation) or a run failure, else nil.
func interruptFailure(p any) *engine.Failure {
	switch x := p.(type) {
	case *value.Interrupt:
		return &engine.Failure{Interrupt: x}
	case *engine.Failure:
		if x.Interrupt != nil || x.Exception != nil {
			return x
		}
	}
	return nil
}

// MaxResultBytes is the most JSON a value crossing to the host may take
// when no output limit says otherwise: the Result's value without
// Limits.MaxOutputBytes, a tool's or an extension's input. It is the
// 8 MiB value bound other code-mode runtimes use; past it the copy stops
// at once instead of writing (a shared subvalue repeated at every level
// writes exponentially more than the program allocated).
const MaxResultBytes = 8 << 20

// outputOver stops a copy whose output limit has been passed by far.
type outputOver struct{}

// outBuf is the text being written, bounded: the first keep bytes are
// kept (and charged to the budget), the rest only counted.
type outBuf struct {
	r    *value.Realm
	buf  []byte
	n    int // length of the whole text so far, kept or not
	keep int // bytes kept
	stop int // past this many bytes, stop
	// work counts every byte written, including members dropped later,
	// so that a value whose members keep being dropped is bounded too.
	work int
	// throwRange: passing stop is a RangeError the program sees (a value
	// with no limit of its own), else it stops the copy (outputOver).
	throwRange bool
}

// over is what passing stop does.
func (o *outBuf) over() {
	if o.throwRange {
		o.r.ThrowRange("The value is larger than %d bytes as JSON, the most that can cross to the host; return or pass a smaller value.", MaxResultBytes)
	}
	panic(outputOver{})
}

func (o *outBuf) writeString(s string) { writeText(o, s) }

// writeBytes is writeString for bytes, without converting them.
func (o *outBuf) writeBytes(b []byte) { writeText(o, b) }

func writeText[T string | []byte](o *outBuf, s T) {
	o.n += len(s)
	o.work += len(s) + 1
	if room := o.keep - len(o.buf); room > 0 {
		take := min(room, len(s))
		o.buf = append(o.buf, s[:take]...)
		o.r.Charge(take)
	}
	o.r.Tick(1 + len(s)>>6)
	if o.n > o.stop || o.work > 4*o.stop {
		o.over()
	}
}

// writeQuoted writes s, which needs no escape, as a JSON string.
func (o *outBuf) writeQuoted(s string) {
	if o.keep-len(o.buf) < len(s)+2 {
		o.writeString(`"` + s + `"`) // cut short: writeString keeps what fits
		return
	}
	o.n += len(s) + 2
	o.work += len(s) + 3
	o.buf = append(o.buf, '"')
	o.buf = append(o.buf, s...)
	o.buf = append(o.buf, '"')
	o.r.Charge(len(s) + 2)
	o.r.Tick(1 + len(s)>>6)
	if o.n > o.stop || o.work > 4*o.stop {
		o.over()
	}
}

// plainText reports text JSON writes as it is between quotes: printable
// ASCII without " or \.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

func (o *outBuf) writeByte(c byte) {
	o.n++
	o.work++
	if len(o.buf) < o.keep {
		o.buf = append(o.buf, c)
		o.r.Charge(1)
	}
	o.r.Poll()
	if o.n > o.stop {
		o.over()
	}
}

// rewind drops what was written past mark (a member that turned out to
// be skipped).
func (o *outBuf) rewind(mark int) {
	o.n = mark
	if len(o.buf) > mark {
		o.buf = o.buf[:mark]
	}
}

// newBoundaryWriter makes a writer for the Result's value (keep >= 0:
// the output limit) or, with keep < 0, for a value with no limit of its
// own (MaxResultBytes, a RangeError past it).
func newBoundaryWriter(r *value.Realm, run engine.Run, keep int) *boundaryWriter {
	w := &boundaryWriter{run: run, r: r}
	w.stack = w.stackBuf[:0]
	w.out.r = r
	if keep >= 0 {
		w.out.keep, w.out.stop = keep, max(keep, MaxResultBytes)
	} else {
		w.out.keep, w.out.stop = MaxResultBytes, MaxResultBytes
		w.out.throwRange = true
	}
	return w
}

// argumentJSON copies a tool's argument out as JSON, bounded as any
// value crossing to the host.
func argumentJSON(r *value.Realm, v value.Value) []byte {
	return argumentJSONWith(newBoundaryWriter(r, nil, -1), v)
}

// argumentJSONWith is argumentJSON with a writer to (re)use.
func argumentJSONWith(w *boundaryWriter, v value.Value) []byte {
	w.inArgument = true
	w.out.buf = make([]byte, 0, 128) // most arguments are small objects
	if !w.value(v, "", 0) {
		return []byte("null")
	}
	return w.out.buf
}

type boundaryWriter struct {
	run   engine.Run
	r     *value.Realm
	out   outBuf
	stack []*value.Object
	// stackBuf holds the stack of a value nested a few levels deep.
	stackBuf [8]*value.Object
	// inArgument marks a tool call's argument: its promises have settled
	// already (the call waited for them).
	inArgument bool
	// binary writes a Uint8Array as the dispatch grammar's
	// {"$binary": "<base64>"} (a provider call's argument).
	binary bool
}

// reset readies a writer for another argument: its output now belongs
// to the call it was made for.
func (w *boundaryWriter) reset() {
	clear(w.stackBuf[:])
	w.stack = w.stackBuf[:0]
	w.out.buf, w.out.n, w.out.work = nil, 0, 0
}

func (w *boundaryWriter) throw(t value.ErrorType, msg string) {
	w.r.Throw(value.Obj(w.r.NewError(t, msg)))
}

// quote writes s as a JSON string.
func (w *boundaryWriter) quote(s *value.String) {
	if s.IsASCII() {
		if str := s.String(); plainText(str) {
			w.out.writeQuoted(str)
			return
		}
	}
	var b strings.Builder
	value.QuoteJSON(&b, s)
	w.out.writeString(b.String())
}

// value writes v; it reports false when v is left out (undefined,
// functions, symbols).
func (w *boundaryWriter) value(v value.Value, key string, depth int) bool {
	r := w.r
	if depth > MaxValueDepth {
		w.throw(value.RangeError, fmt.Sprintf("Value exceeds the maximum depth of %d.", MaxValueDepth))
	}
	if o := v.AsObject(); o != nil {
		if o.Class == value.ClassPromise {
			v = w.await(o)
		}
	}
	if o := v.AsObject(); o != nil && o.Class != value.ClassError && !o.Callable() {
		if toJSON := r.Get(v, "toJSON"); toJSON.AsObject() != nil && toJSON.AsObject().Callable() {
			v = r.Call(toJSON, v, []value.Value{value.StrOf(key)})
		}
	}
	v = r.UnwrapForJSON(v) // new Number(1) crosses as 1, as JSON.stringify writes it
	switch v.Kind() {
	case value.KindUndefined, value.KindSymbol:
		return false
	case value.KindNull:
		w.out.writeString("null")
		return true
	case value.KindBoolean:
		if v.BoolValue() {
			w.out.writeString("true")
		} else {
			w.out.writeString("false")
		}
		return true
	case value.KindNumber:
		f := v.Num()
		switch {
		case math.IsNaN(f) || math.IsInf(f, 0):
			w.out.writeString("null")
		case f == math.Trunc(f) && math.Abs(f) < 1e15:
			var scratch [24]byte
			w.out.writeBytes(strconv.AppendInt(scratch[:0], int64(f), 10))
		default:
			w.out.writeString(value.NumberToString(f).String())
		}
		return true
	case value.KindString:
		w.quote(v.AsString())
		return true
	}
	o := v.AsObject()
	if o.Callable() {
		return false
	}
	for _, s := range w.stack {
		if s == o {
			r.ThrowKind("InvalidDataValue", value.TypeError, "%s", value.CircularMessage)
		}
	}
	w.stack = append(w.stack, o)
	defer func() { w.stack = w.stack[:len(w.stack)-1] }()
	if bv, ok := o.Internal.(value.BoundaryValue); ok {
		return w.value(bv.BoundaryValue(r), key, depth)
	}
	switch o.Class {
	case value.ClassUint8Array:
		if w.binary {
			b := uint8Bytes(o)
			r.Charge(len(b) * 2)
			binaryJSON(&w.out, b)
			return true
		}
		r.ThrowKind("InvalidDataValue", value.TypeError, "A Uint8Array cannot cross to the host; pass text instead, e.g. `new TextDecoder().decode(bytes)` or `bytes.toBase64()`.")
	case value.ClassSet:
		keys, _ := o.Internal.(*value.OrderedMap).Entries()
		w.list(len(keys), func(i int) value.Value { return keys[i] }, depth)
		return true
	case value.ClassMap, value.ClassRegExp, value.ClassGenerator, value.ClassWeakMap, value.ClassWeakSet:
		w.out.writeString("{}")
		return true
	case value.ClassError:
		w.errorObject(o, v, depth)
		return true
	}
	if o.Class == value.ClassArray {
		// Elements are read one at a time: a sparse array's length says
		// nothing about what it holds, and the writer bounds the output.
		w.list(r.LengthOf(v), func(i int) value.Value { return r.GetIndex(v, i) }, depth)
		return true
	}
	w.out.writeByte('{')
	first := true
	member := func(k string, val value.Value) {
		if k == "__proto__" {
			return
		}
		mark := w.out.n
		if !first {
			w.out.writeByte(',')
		}
		w.key(k)
		w.out.writeByte(':')
		if w.value(val, k, depth+1) {
			first = false
		} else {
			w.out.rewind(mark)
		}
	}
	if o.Class == value.ClassObject && !o.HasIndexKeys() && plainData(o) {
		// Insertion order is the key order and no getter can run: walk
		// the slots without building a key list.
		o.EachOwn(func(p *value.Property) {
			if p.Flags&value.Enumerable != 0 && !value.IsSymbolKey(p.Key) && !value.IsPrivateKey(p.Key) {
				member(p.Key, p.Value)
			}
		})
	} else {
		for _, k := range r.OwnKeys(o, true, false) {
			member(k, r.Get(v, k))
		}
	}
	w.out.writeByte('}')
	return true
}

// key writes a property key, quoted.
func (w *boundaryWriter) key(k string) {
	if plainText(k) {
		w.out.writeQuoted(k)
		return
	}
	var b strings.Builder
	value.QuoteKey(&b, k)
	w.out.writeString(b.String())
}

// plainData reports an object whose own properties are all data (no
// accessor), so reading them runs no program code.
func plainData(o *value.Object) bool {
	ok := true
	o.EachOwn(func(p *value.Property) {
		if p.IsAccessor() {
			ok = false
		}
	})
	return ok
}

// list writes n elements, holes and left-out values as null.
func (w *boundaryWriter) list(n int, get func(int) value.Value, depth int) {
	w.out.writeByte('[')
	var scratch [24]byte
	for i := 0; i < n; i++ {
		if i > 0 {
			w.out.writeByte(',')
		}
		e := get(i)
		key := ""
		if e.AsObject() != nil {
			key = string(strconv.AppendInt(scratch[:0], int64(i), 10)) // toJSON's argument
		}
		if !w.value(e, key, depth+1) {
			w.out.writeString("null")
		}
	}
	w.out.writeByte(']')
}

// errorObject writes an error as {name, message, ...own enumerable}.
func (w *boundaryWriter) errorObject(o *value.Object, v value.Value, depth int) {
	r := w.r
	w.out.writeString(`{"name":`)
	w.value(value.Str(r.ToString(r.Get(v, "name"))), "name", depth+1)
	w.out.writeString(`,"message":`)
	w.value(value.Str(r.ToString(r.Get(v, "message"))), "message", depth+1)
	for _, k := range r.OwnKeys(o, true, false) {
		if k == "name" || k == "message" || k == "__proto__" {
			continue
		}
		mark := w.out.n
		w.out.writeByte(',')
		w.quote(value.NewString(k))
		w.out.writeByte(':')
		if !w.value(r.Get(v, k), k, depth+1) {
			w.out.rewind(mark)
		}
	}
	w.out.writeByte('}')
}

// await settles a promise inside the value: a rejection fails the run
// with the reason.
func (w *boundaryWriter) await(p *value.Object) value.Value {
	pd := p.Internal.(*value.PromiseData)
	pd.Handled = true
	if pd.State == value.Pending && w.run != nil {
		if fail := w.run.Settle(p); fail != nil {
			if fail.Exception != nil {
				panic(fail.Exception)
			}
			panic(fail)
		}
	}
	if pd.State == value.Rejected {
		w.r.Throw(pd.Result)
	}
	return pd.Result
}
