package snapshot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

// Decoder reads one graph written by an Encoder over the same registry.
// It is used once.
type Decoder struct {
	reg  *Registry
	data []byte
	off  int
	objs []reflect.Value // pointers, by number
	strs []string
	// Resolve turns an extern's name back into a pointer of type t.
	Resolve func(name string, t reflect.Type) (reflect.Value, error)
	// MaxObjects, when positive, bounds the objects read.
	MaxObjects int
	// Env is the caller's, for custom codecs that rebuild objects of the
	// run being restored.
	Env    any
	depth  int
	afters []reflect.Value
	marks  map[any]struct{}
	memos  memo
}

// Memo is per-decoding state of a custom codec, made by mk on first use
// under key.
func (d *Decoder) Memo(key any, mk func() any) any { return d.memos.get(key, mk) }

// Marked reports whether Mark recorded p.
func (d *Decoder) Marked(p any) bool {
	_, ok := d.marks[p]
	return ok
}

// Mark records p as seen by an After check and reports whether it was
// the first time: checks that walk links (a prototype chain) stop where
// an earlier walk already went.
func (d *Decoder) Mark(p any) (first bool) {
	if d.marks == nil {
		d.marks = map[any]struct{}{}
	}
	if _, ok := d.marks[p]; ok {
		return false
	}
	d.marks[p] = struct{}{}
	return true
}

// NewDecoder makes a decoder of data over reg.
func NewDecoder(reg *Registry, data []byte) *Decoder {
	return &Decoder{reg: reg, data: data}
}

// errMalformed is the cause of every error about the bytes themselves.
var errMalformed = errors.New("malformed")

// Malformedf is an error about the bytes, for After checks: IsMalformed
// reports it as such.
func Malformedf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errMalformed, fmt.Sprintf(format, args...))
}

// IsMalformed reports whether err is about the bytes (as opposed to an
// extern that does not resolve here, or a check that failed).
func IsMalformed(err error) bool { return errors.Is(err, errMalformed) }

// decodeError carries a failure out of the recursive reader.
type decodeError struct{ err error }

// Fail stops the decoding with err.
func (d *Decoder) Fail(err error) { panic(decodeError{err}) }

// Malformed stops the decoding: the bytes break the format (a custom
// codec's check).
func (d *Decoder) Malformed(format string, args ...any) { d.bad(format, args...) }

func (d *Decoder) bad(format string, args ...any) {
	d.Fail(fmt.Errorf("%w: %s (at byte %d)", errMalformed, fmt.Sprintf(format, args...), d.off))
}

// Decode reads the root into root (a pointer to a zero value), then
// every object, then runs the After checks. It never panics.
func (d *Decoder) Decode(root any) (err error) {
	if err := d.DecodeMore(root); err != nil {
		return err
	}
	return d.Finish()
}

// DecodeMore reads another root written by EncodeMore, before Finish.
func (d *Decoder) DecodeMore(root any) (err error) {
	defer d.recover(&err)
	v := reflect.ValueOf(root)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("snapshot: Decode needs a non-nil pointer, not %T", root)
	}
	d.Value(v.Elem())
	return nil
}

// Finish reads the content of every object, checks that nothing is left
// over, and runs the After checks.
func (d *Decoder) Finish() (err error) {
	defer d.recover(&err)
	for i := 0; i < len(d.objs); i++ {
		d.Value(d.objs[i].Elem())
	}
	if d.off != len(d.data) {
		d.bad("%d bytes left over", len(d.data)-d.off)
	}
	for _, v := range d.afters {
		ti := d.reg.byType[v.Type()]
		if err := ti.after(d, v); err != nil {
			return err
		}
	}
	return nil
}

func (d *Decoder) recover(err *error) {
	if p := recover(); p != nil {
		if de, ok := p.(decodeError); ok {
			*err = de.err
			return
		}
		// A bug or hostile bytes the checks missed: still an error.
		*err = fmt.Errorf("%w: %v", errMalformed, p)
	}
}

// Left is how many bytes are not read yet.
func (d *Decoder) Left() int { return len(d.data) - d.off }

// Uint reads an unsigned integer.
func (d *Decoder) Uint() uint64 {
	u, n := binary.Uvarint(d.data[d.off:])
	if n <= 0 {
		d.bad("a bad integer")
	}
	d.off += n
	return u
}

// Int reads a signed integer.
func (d *Decoder) Int() int64 {
	i, n := binary.Varint(d.data[d.off:])
	if n <= 0 {
		d.bad("a bad integer")
	}
	d.off += n
	return i
}

// Count reads a length of things that take at least one byte each.
func (d *Decoder) Count() int {
	u := d.Uint()
	if u > uint64(d.Left()) {
		d.bad("a count of %d with %d bytes left", u, d.Left())
	}
	return int(u)
}

// Bool reads a bool.
func (d *Decoder) Bool() bool {
	if d.Left() < 1 {
		d.bad("truncated")
	}
	b := d.data[d.off]
	d.off++
	if b > 1 {
		d.bad("a bool of %d", b)
	}
	return b == 1
}

// Float reads a float64.
func (d *Decoder) Float() float64 {
	u := d.Uint()
	if u&1 == 0 {
		z := u >> 1
		return float64(int64(z>>1) ^ -int64(z&1))
	}
	if d.Left() < 8 {
		d.bad("truncated")
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64(d.data[d.off:]))
	d.off += 8
	return f
}

// String reads a string.
func (d *Decoder) String() string {
	u := d.Uint()
	if u > 0 {
		if u-1 >= uint64(len(d.strs)) {
			d.bad("string %d of %d", u-1, len(d.strs))
		}
		return d.strs[u-1]
	}
	n := d.Count()
	s := string(d.data[d.off : d.off+n])
	d.off += n
	d.strs = append(d.strs, s)
	return s
}

// Bytes reads a byte slice (nil when empty).
func (d *Decoder) Bytes() []byte {
	n := d.Count()
	if n == 0 {
		return nil
	}
	b := slices.Clone(d.data[d.off : d.off+n])
	d.off += n
	return b
}

// Ptr reads a pointer into pp, a pointer to a pointer variable.
func (d *Decoder) Ptr(pp any) {
	v := reflect.ValueOf(pp)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Pointer {
		d.Fail(fmt.Errorf("snapshot: Ptr needs a pointer to a pointer, not %T", pp))
	}
	d.pointer(v.Elem())
}

// Any reads into v, a pointer to a value of the type Encoder.Any wrote.
func (d *Decoder) Any(v any) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer {
		d.Fail(fmt.Errorf("snapshot: Any needs a pointer, not %T", v))
	}
	d.Value(rv.Elem())
}

func (d *Decoder) pointer(v reflect.Value) {
	u := d.Uint()
	switch {
	case u == 0:
		return
	case u == 1:
		name := d.String()
		if d.Resolve == nil {
			d.Fail(fmt.Errorf("snapshot: the state refers to %q, which nothing resolves", name))
		}
		p, err := d.Resolve(name, v.Type())
		if err != nil {
			d.Fail(err)
		}
		if !p.IsValid() || p.Type() != v.Type() {
			d.Fail(fmt.Errorf("snapshot: %q does not resolve to a %s here", name, v.Type()))
		}
		v.Set(p)
		return
	}
	n := u - 2
	switch {
	case n < uint64(len(d.objs)):
		p := d.objs[n]
		if p.Type() != v.Type() {
			d.bad("object %d is a %s, not a %s", n, p.Type(), v.Type())
		}
		v.Set(p)
	case n == uint64(len(d.objs)):
		if d.MaxObjects > 0 && len(d.objs) >= d.MaxObjects {
			d.bad("more than %d objects", d.MaxObjects)
		}
		if len(d.objs) > len(d.data) {
			d.bad("more objects than bytes")
		}
		p := reflect.New(v.Type().Elem())
		d.objs = append(d.objs, p)
		if ti := d.reg.byType[v.Type().Elem()]; ti != nil && ti.after != nil {
			d.afters = append(d.afters, p.Elem())
		}
		v.Set(p)
	default:
		d.bad("object %d before object %d", n, len(d.objs))
	}
}

// Value reads into v (addressable, zero) by its type.
func (d *Decoder) Value(v reflect.Value) {
	t := v.Type()
	if ti := d.reg.byType[t]; ti != nil && ti.dec != nil {
		ti.dec(d, v)
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(d.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i := d.Int()
		if v.OverflowInt(i) {
			d.bad("%d overflows a %s", i, t)
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		u := d.Uint()
		if v.OverflowUint(u) {
			d.bad("%d overflows a %s", u, t)
		}
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(d.Float())
	case reflect.String:
		v.SetString(d.String())
	case reflect.Pointer:
		d.pointer(v)
	case reflect.Slice:
		u := d.Uint()
		if u == 0 {
			return
		}
		n := u - 1
		if n > uint64(d.Left()) && !(n <= 1<<16 && t.Elem().Size() == 0) {
			d.bad("a slice of %d with %d bytes left", n, d.Left())
		}
		s := reflect.MakeSlice(t, int(n), int(n))
		if t.Elem().Kind() == reflect.Uint8 {
			copy(s.Bytes(), d.data[d.off:d.off+int(n)])
			d.off += int(n)
		} else {
			for i := 0; i < int(n); i++ {
				d.Value(s.Index(i))
			}
		}
		v.Set(s)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			d.Value(v.Index(i))
		}
	case reflect.Map:
		u := d.Uint()
		if u == 0 {
			return
		}
		n := u - 1
		if n > uint64(d.Left()) {
			d.bad("a map of %d with %d bytes left", n, d.Left())
		}
		m := reflect.MakeMapWithSize(t, int(n))
		for i := 0; i < int(n); i++ {
			k := reflect.New(t.Key()).Elem()
			d.Value(k)
			e := reflect.New(t.Elem()).Elem()
			d.Value(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		d.structValue(v)
	case reflect.Interface:
		u := d.Uint()
		if u == 0 {
			return
		}
		if u-1 >= uint64(len(d.reg.types)) {
			d.bad("type %d of %d", u-1, len(d.reg.types))
		}
		ti := d.reg.types[u-1]
		if !ti.t.Implements(t) {
			d.bad("a %s in a %s", ti.t, t)
		}
		c := reflect.New(ti.t).Elem()
		if ti.t.Kind() == reflect.Pointer {
			d.pointer(c)
		} else {
			d.depth++
			if d.depth > maxDepth {
				d.bad("values nest more than %d deep", maxDepth)
			}
			d.Value(c)
			d.depth--
		}
		v.Set(c)
	default:
		d.bad("a %s cannot be read", t)
	}
}

func (d *Decoder) structValue(v reflect.Value) {
	fs, err := d.reg.structFields(v.Type())
	if err != nil {
		d.Fail(err)
	}
	bits := d.Uint()
	if bits>>len(fs) != 0 {
		d.bad("fields %b of %s", bits, v.Type())
	}
	for i, f := range fs {
		if bits&(1<<i) == 0 {
			continue
		}
		fv := v.Field(f.index)
		if !fv.CanSet() {
			fv = reflect.NewAt(fv.Type(), unsafe.Pointer(fv.UnsafeAddr())).Elem()
		}
		d.Value(fv)
	}
}

// sortKeys orders map keys so that the same map is written the same way.
func sortKeys(keys []reflect.Value) error {
	if len(keys) == 0 {
		return nil
	}
	switch keys[0].Kind() {
	case reflect.String:
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmpOrdered(a.Int(), b.Int()) })
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmpOrdered(a.Uint(), b.Uint()) })
	case reflect.Bool:
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			return cmpOrdered(btoi(a.Bool()), btoi(b.Bool()))
		})
	default:
		return fmt.Errorf("keys of kind %s cannot be ordered", keys[0].Kind())
	}
	return nil
}

func cmpOrdered[T int64 | uint64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func btoi(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
