package snapshot

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"unsafe"
)

// Wire form, shared by Encoder and Decoder:
//   - a pointer is a uvarint: 0 nil, 1 an extern (its name follows, as a
//     string), n >= 2 the object n-2. Objects are numbered in the order
//     they are first referenced; the first reference of an object is its
//     number, and its content comes later, in number order, after the
//     root.
//   - a string is a uvarint: 0 a new string (uvarint length, bytes),
//     which joins the string table; n >= 1 the table's entry n-1.
//   - a slice or map is a uvarint: 0 nil, else length+1, then elements
//     (maps in sorted key order).
//   - a struct is a uvarint bitmap of its non-zero saved fields, then
//     those fields.
//   - an interface is a uvarint: 0 nil, else the concrete type's
//     registration number + 1, then the value.
//   - a float is a uvarint u: u even, the integer zigzag(u>>1); u odd, the
//     8 bytes of its bits follow.

// ptrKey identifies a pointer: the same address under two types (a
// struct and its first field) is two objects.
type ptrKey struct {
	t reflect.Type
	p unsafe.Pointer
}

type typedID struct {
	t  reflect.Type
	id int
}

type typedName struct {
	t    reflect.Type
	name string
}

// Encoder writes one graph. It is used once.
type Encoder struct {
	reg *Registry
	buf []byte
	// ids and externs are keyed by address, the cheap hash; the entry
	// holds the type, and an address met under a second type goes to
	// the slow maps keyed by both.
	ids         map[unsafe.Pointer]typedID
	idsSlow     map[ptrKey]int
	queue       []reflect.Value // the objects, by number: pointers
	externs     map[unsafe.Pointer]typedName
	externsSlow map[ptrKey]string
	strs        map[string]int
	depth       int
	where       string // the field being written, for errors
	err         error
	// Env is the caller's, for custom codecs that need the run being
	// saved.
	Env   any
	memos memo

	lastT  reflect.Type
	lastTI *typeInfo
}

// Memo is per-encoding state of a custom codec (a table of shapes), made
// by mk on first use under key.
func (e *Encoder) Memo(key any, mk func() any) any { return e.memos.get(key, mk) }

// NewEncoder makes an encoder over reg.
func NewEncoder(reg *Registry) *Encoder {
	return &Encoder{reg: reg, ids: make(map[unsafe.Pointer]typedID, 256), idsSlow: map[ptrKey]int{},
		externs: make(map[unsafe.Pointer]typedName, 64), externsSlow: map[ptrKey]string{},
		strs: make(map[string]int, 64), buf: make([]byte, 0, 4096)}
}

func (e *Encoder) setExtern(t reflect.Type, p unsafe.Pointer, name string) {
	if x, ok := e.externs[p]; ok && x.t != t {
		e.externsSlow[ptrKey{t, p}] = name
		return
	}
	e.externs[p] = typedName{t, name}
}

func (e *Encoder) extern(t reflect.Type, p unsafe.Pointer) (string, bool) {
	x, ok := e.externs[p]
	if !ok {
		return "", false
	}
	if x.t == t {
		return x.name, true
	}
	name, ok := e.externsSlow[ptrKey{t, p}]
	return name, ok
}

func (e *Encoder) id(t reflect.Type, p unsafe.Pointer) (int, bool) {
	x, ok := e.ids[p]
	if !ok {
		return 0, false
	}
	if x.t == t {
		return x.id, true
	}
	n, ok := e.idsSlow[ptrKey{t, p}]
	return n, ok
}

func (e *Encoder) setID(t reflect.Type, p unsafe.Pointer, n int) {
	if x, ok := e.ids[p]; ok && x.t != t {
		e.idsSlow[ptrKey{t, p}] = n
		return
	}
	e.ids[p] = typedID{t, n}
}

// Extern makes the pointer p be written as name, never as content.
func (e *Encoder) Extern(p any, name string) {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return
	}
	e.setExtern(v.Type(), v.UnsafePointer(), name)
}

// Encode writes root (a pointer) and everything it reaches, and returns
// the bytes.
func (e *Encoder) Encode(root any) ([]byte, error) {
	v := reflect.ValueOf(root)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, fmt.Errorf("snapshot: Encode needs a non-nil pointer, not %T", root)
	}
	if err := e.EncodeMore(root); err != nil {
		return nil, err
	}
	return e.Finish()
}

// EncodeMore writes another root (a pointer's content) before Finish.
func (e *Encoder) EncodeMore(root any) error {
	v := reflect.ValueOf(root)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("snapshot: EncodeMore needs a non-nil pointer, not %T", root)
	}
	e.Value(v.Elem())
	return e.err
}

// Finish writes the content of every object numbered, in order.
func (e *Encoder) Finish() ([]byte, error) {
	for i := 0; i < len(e.queue) && e.err == nil; i++ {
		e.Value(e.queue[i].Elem())
	}
	if e.err != nil {
		return nil, e.err
	}
	return e.buf, nil
}

// Fail stops the encoding with err (the first one wins).
func (e *Encoder) Fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// Uint writes an unsigned integer.
func (e *Encoder) Uint(u uint64) { e.buf = binary.AppendUvarint(e.buf, u) }

// Int writes a signed integer.
func (e *Encoder) Int(i int64) { e.buf = binary.AppendVarint(e.buf, i) }

// Bool writes a bool.
func (e *Encoder) Bool(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// Float writes a float64, small integers in a byte or two.
func (e *Encoder) Float(f float64) {
	if i := int64(f); float64(i) == f && i > -1<<52 && i < 1<<52 && (f != 0 || !math.Signbit(f)) {
		e.Uint(uint64((i<<1)^(i>>63)) << 1)
		return
	}
	e.Uint(1)
	e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(f))
}

// String writes a string through the string table.
func (e *Encoder) String(s string) {
	if n, ok := e.strs[s]; ok {
		e.Uint(uint64(n) + 1)
		return
	}
	e.strs[s] = len(e.strs)
	e.Uint(0)
	e.Uint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

// Bytes writes a byte slice (nil and empty are the same).
func (e *Encoder) Bytes(b []byte) {
	e.Uint(uint64(len(b)))
	e.buf = append(e.buf, b...)
}

// Ptr writes a pointer (any pointer type; nil allowed).
func (e *Encoder) Ptr(p any) {
	v := reflect.ValueOf(p)
	if !v.IsValid() {
		e.Uint(0)
		return
	}
	e.pointer(v)
}

// Any writes v, whose static type is T, as the generic codec does.
func (e *Encoder) Any(v any) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer {
		e.Fail(fmt.Errorf("snapshot: Any needs a pointer to the value, not %T", v))
		return
	}
	e.Value(rv.Elem())
}

func (e *Encoder) pointer(v reflect.Value) {
	if v.IsNil() {
		e.Uint(0)
		return
	}
	k := ptrKey{v.Type(), v.UnsafePointer()}
	if n, ok := e.id(k.t, k.p); ok {
		e.Uint(uint64(n) + 2)
		return
	}
	if name, ok := e.extern(k.t, k.p); ok {
		e.Uint(1)
		e.String(name)
		return
	}
	if ti := e.typeInfo(k.t); ti != nil && (ti.externBy != nil || ti.externIf != nil) {
		var name string
		var ok bool
		if ti.externBy != nil {
			if name, ok = ti.externBy(v); !ok {
				e.Fail(fmt.Errorf("snapshot: cannot save a %s (in %s): it has no name to be saved by", k.t, e.where))
				return
			}
		} else {
			name, ok = ti.externIf(e, v)
		}
		if ok {
			e.setExtern(k.t, k.p, name)
			e.Uint(1)
			e.String(name)
			return
		}
	}
	n := len(e.queue)
	e.setID(k.t, k.p, n)
	e.queue = append(e.queue, v)
	e.Uint(uint64(n) + 2)
}

// typeInfo is the registry's entry for t, with the last one looked up
// kept: a heap is mostly runs of the same few types.
func (e *Encoder) typeInfo(t reflect.Type) *typeInfo {
	if t == e.lastT {
		return e.lastTI
	}
	ti := e.reg.byType[t]
	e.lastT, e.lastTI = t, ti
	return ti
}

// maxDepth bounds how deeply values held by value in interfaces nest.
const maxDepth = 64

// Value writes v (addressable) by its type.
func (e *Encoder) Value(v reflect.Value) {
	if e.err != nil {
		return
	}
	t := v.Type()
	if ti := e.typeInfo(t); ti != nil && ti.enc != nil {
		ti.enc(e, v)
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		e.Bool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.Int(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.Uint(v.Uint())
	case reflect.Float32, reflect.Float64:
		e.Float(v.Float())
	case reflect.String:
		e.String(v.String())
	case reflect.Pointer:
		e.pointer(v)
	case reflect.Slice:
		if v.IsNil() {
			e.Uint(0)
			return
		}
		e.Uint(uint64(v.Len()) + 1)
		if t.Elem().Kind() == reflect.Uint8 {
			e.buf = append(e.buf, v.Bytes()...)
			return
		}
		for i := 0; i < v.Len(); i++ {
			e.Value(v.Index(i))
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			e.Value(v.Index(i))
		}
	case reflect.Map:
		e.mapValue(v)
	case reflect.Struct:
		e.structValue(v)
	case reflect.Interface:
		if v.IsNil() {
			e.Uint(0)
			return
		}
		c := v.Elem()
		ti := e.reg.byType[c.Type()]
		if ti == nil {
			e.Fail(fmt.Errorf("snapshot: cannot save a %s held in %s: the type is not registered", c.Type(), e.where))
			return
		}
		e.Uint(uint64(ti.id) + 1)
		if c.Kind() == reflect.Pointer {
			e.pointer(c)
			return
		}
		e.depth++
		if e.depth > maxDepth {
			e.Fail(fmt.Errorf("snapshot: values nest more than %d deep in %s", maxDepth, e.where))
			return
		}
		cp := reflect.New(c.Type()).Elem()
		cp.Set(c)
		e.Value(cp)
		e.depth--
	default:
		e.Fail(fmt.Errorf("snapshot: cannot save a %s (in %s): a run holding one cannot be suspended", t, e.where))
	}
}

func (e *Encoder) structValue(v reflect.Value) {
	fs, err := e.reg.structFields(v.Type())
	if err != nil {
		e.Fail(err)
		return
	}
	var bits uint64
	for i, f := range fs {
		if !isZero(v.Field(f.index)) {
			bits |= 1 << i
		}
	}
	e.Uint(bits)
	for i, f := range fs {
		if bits&(1<<i) == 0 {
			continue
		}
		fv := v.Field(f.index)
		if !fv.CanInterface() {
			fv = reflect.NewAt(fv.Type(), unsafe.Pointer(fv.UnsafeAddr())).Elem()
		}
		e.where = f.name
		e.Value(fv)
	}
}

func (e *Encoder) mapValue(v reflect.Value) {
	if v.IsNil() {
		e.Uint(0)
		return
	}
	keys := v.MapKeys()
	if err := sortKeys(keys); err != nil {
		e.Fail(fmt.Errorf("snapshot: cannot save the map in %s: %v", e.where, err))
		return
	}
	e.Uint(uint64(len(keys)) + 1)
	kt, vt := v.Type().Key(), v.Type().Elem()
	for _, k := range keys {
		kc := reflect.New(kt).Elem()
		kc.Set(k)
		e.Value(kc)
		vc := reflect.New(vt).Elem()
		vc.Set(v.MapIndex(k))
		e.Value(vc)
	}
}

// isZero is reflect's IsZero, except that -0 is not zero.
func isZero(v reflect.Value) bool {
	if k := v.Kind(); k == reflect.Float64 || k == reflect.Float32 {
		return math.Float64bits(v.Float()) == 0
	}
	return v.IsZero()
}

// memo is a codec's per-run state by key, with the last entry looked up
// kept (a codec asks for its table once per object).
type memo struct {
	m             map[any]any
	lastKey, last any
}

func (m *memo) get(key any, mk func() any) any {
	if m.last != nil && key == m.lastKey {
		return m.last
	}
	v, ok := m.m[key]
	if !ok {
		if m.m == nil {
			m.m = map[any]any{}
		}
		v = mk()
		m.m[key] = v
	}
	m.lastKey, m.last = key, v
	return v
}
