package codemode

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-codemode/codemode/interp"
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
}

func (h *host) setBindings(b map[string]any) error {
	if len(b) == 0 {
		return nil
	}
	h.bindings = make(map[string]json.RawMessage, len(b))
	for name, v := range b {
		data, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("binding %q cannot be passed to the program: %v; pass JSON-compatible data", name, err)
		}
		h.bindings[name] = data
	}
	return nil
}

// Global implements interp.Host.
func (h *host) Global(r *value.Realm, name string) (value.Value, bool) {
	if name == "tools" && h.tools != nil {
		return value.Obj(h.tools.ref(r, nil)), true
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
func toBoundary(run *interp.Run, v value.Value) (text string, fail *interp.Failure) {
	w := &boundaryWriter{run: run, r: run.Realm()}
	exc := w.r.Try(func() {
		if !w.value(v, "", 0) {
			w.b.WriteString("null")
		}
	})
	if exc != nil {
		return "", &interp.Failure{Exception: exc}
	}
	if w.fail != nil {
		return "", w.fail
	}
	return w.b.String(), nil
}

type boundaryWriter struct {
	run   *interp.Run
	r     *value.Realm
	b     strings.Builder
	stack []*value.Object
	fail  *interp.Failure
	// inArgument marks a tool call's argument: its promises have settled
	// already (the call waited for them).
	inArgument bool
}

func (w *boundaryWriter) throw(t value.ErrorType, msg string) {
	w.r.Throw(value.Obj(w.r.NewError(t, msg)))
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
	switch v.Kind() {
	case value.KindUndefined, value.KindSymbol:
		return false
	case value.KindNull:
		w.b.WriteString("null")
		return true
	case value.KindBoolean:
		if v.BoolValue() {
			w.b.WriteString("true")
		} else {
			w.b.WriteString("false")
		}
		return true
	case value.KindNumber:
		f := v.Num()
		switch {
		case math.IsNaN(f) || math.IsInf(f, 0):
			w.b.WriteString("null")
		case f == math.Trunc(f) && math.Abs(f) < 1e15:
			var scratch [24]byte
			w.b.Write(strconv.AppendInt(scratch[:0], int64(f), 10))
		default:
			w.b.WriteString(value.NumberToString(f).String())
		}
		return true
	case value.KindString:
		value.QuoteJSON(&w.b, v.AsString())
		return true
	}
	o := v.AsObject()
	if o.Callable() {
		return false
	}
	for _, s := range w.stack {
		if s == o {
			w.throw(value.TypeError, value.CircularMessage)
		}
	}
	w.stack = append(w.stack, o)
	defer func() { w.stack = w.stack[:len(w.stack)-1] }()
	if bv, ok := o.Internal.(value.BoundaryValue); ok {
		return w.value(bv.BoundaryValue(r), key, depth)
	}
	switch o.Class {
	case value.ClassUint8Array:
		r.ThrowKind("InvalidDataValue", value.TypeError, "A Uint8Array cannot cross to the host; pass text instead, e.g. `new TextDecoder().decode(bytes)` or `bytes.toBase64()`.")
	case value.ClassSet:
		keys, _ := o.Internal.(*value.OrderedMap).Entries()
		w.list(keys, depth)
		return true
	case value.ClassMap, value.ClassRegExp, value.ClassGenerator, value.ClassWeakMap, value.ClassWeakSet:
		w.b.WriteString("{}")
		return true
	case value.ClassError:
		w.errorObject(o, v, depth)
		return true
	}
	if o.Class == value.ClassArray {
		n := r.LengthOf(v)
		vals := make([]value.Value, n)
		for i := range vals {
			vals[i] = r.GetIndex(v, i)
		}
		w.list(vals, depth)
		return true
	}
	w.b.WriteByte('{')
	first := true
	member := func(k string, val value.Value) {
		if k == "__proto__" {
			return
		}
		mark := w.b.Len()
		if !first {
			w.b.WriteByte(',')
		}
		value.QuoteKey(&w.b, k)
		w.b.WriteByte(':')
		if w.value(val, k, depth+1) {
			first = false
		} else {
			w.truncate(mark)
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
	w.b.WriteByte('}')
	return true
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

// truncate drops what was written past mark (a member that turned out
// to be skipped).
func (w *boundaryWriter) truncate(mark int) {
	s := w.b.String()[:mark]
	w.b.Reset()
	w.b.WriteString(s)
}

func (w *boundaryWriter) list(vals []value.Value, depth int) {
	w.b.WriteByte('[')
	for i, e := range vals {
		if i > 0 {
			w.b.WriteByte(',')
		}
		if !w.value(e, value.NumberToString(float64(i)).String(), depth+1) {
			w.b.WriteString("null")
		}
	}
	w.b.WriteByte(']')
}

// errorObject writes an error as {name, message, ...own enumerable}.
func (w *boundaryWriter) errorObject(o *value.Object, v value.Value, depth int) {
	r := w.r
	w.b.WriteString(`{"name":`)
	w.value(value.Str(r.ToString(r.Get(v, "name"))), "name", depth+1)
	w.b.WriteString(`,"message":`)
	w.value(value.Str(r.ToString(r.Get(v, "message"))), "message", depth+1)
	for _, k := range r.OwnKeys(o, true, false) {
		if k == "name" || k == "message" || k == "__proto__" {
			continue
		}
		mark := w.b.Len()
		w.b.WriteByte(',')
		value.QuoteJSON(&w.b, value.NewString(k))
		w.b.WriteByte(':')
		if !w.value(r.Get(v, k), k, depth+1) {
			s := w.b.String()[:mark]
			w.b.Reset()
			w.b.WriteString(s)
		}
	}
	w.b.WriteByte('}')
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
