// Package snapshot writes a graph of Go values (a suspended run's heap:
// objects, closures, frames, promises) as compact bytes and reads it back
// into fresh values, preserving pointer identity and cycles.
//
// It is generic: it walks values with reflection, unexported fields
// included, so that the engines' own types (frames, coroutines, the
// internals of built-in objects) need no hand-written codec. What it
// cannot write is refused with an error that names the type and field: a
// Go function, a channel, an unregistered type in an interface. Types a
// package knows better (value.Value, strings) have custom codecs.
//
// Pointers that belong to the process rather than to the run (the
// library's built-in functions, the realm, the compiled program) are
// externs: written by name and resolved by the reader against the new
// process. Bytecode is never written.
//
// The format has no self-description: it is read back only by the same
// build, which the envelope (internal/snapfile) checks. Reading is
// bounded by the input (every count and length is checked against the
// bytes left) and never panics.
package snapshot

import (
	"fmt"
	"reflect"
	"sync"
)

// Registry is what both sides agree on: the concrete types that may
// appear in interfaces (by registration order), custom codecs, fields
// that are not saved, and checks run after reading. One Registry serves
// every snapshot of a Runtime; it is safe for concurrent use once built.
type Registry struct {
	types  []*typeInfo
	byType map[reflect.Type]*typeInfo

	mu     sync.RWMutex
	fields map[reflect.Type][]fieldInfo
}

type typeInfo struct {
	id    int
	name  string
	t     reflect.Type
	enc   func(*Encoder, reflect.Value)
	dec   func(*Decoder, reflect.Value)
	skip  map[string]bool
	after func(*Decoder, reflect.Value) error
	// externBy names a pointer of this type as an extern; the type is
	// never written as content.
	externBy func(reflect.Value) (string, bool)
	// externIf may name a pointer of this type as an extern; one it
	// gives no name is written as content.
	externIf func(*Encoder, reflect.Value) (string, bool)
}

type fieldInfo struct {
	index int
	name  string // Type.field, for errors
}

// NewRegistry makes an empty registry.
func NewRegistry() *Registry {
	return &Registry{byType: map[reflect.Type]*typeInfo{}, fields: map[reflect.Type][]fieldInfo{}}
}

// An Option configures a registered type.
type Option func(*typeInfo)

// Skip leaves the named struct fields out: caches rebuilt after reading
// (After), locks, links to the process.
func Skip(fields ...string) Option {
	return func(ti *typeInfo) {
		if ti.skip == nil {
			ti.skip = map[string]bool{}
		}
		for _, f := range fields {
			ti.skip[f] = true
		}
	}
}

// Custom gives T its own codec. enc writes v (addressable, of type T);
// dec reads into v (addressable, zero).
func Custom[T any](enc func(e *Encoder, v *T), dec func(d *Decoder, v *T)) Option {
	return func(ti *typeInfo) {
		ti.enc = func(e *Encoder, v reflect.Value) { enc(e, v.Addr().Interface().(*T)) }
		ti.dec = func(d *Decoder, v reflect.Value) { dec(d, v.Addr().Interface().(*T)) }
	}
}

// After runs f on every object of type T read (a pointer's content),
// once the whole graph is read, in the order they were read: to rebuild
// caches and to check invariants hostile bytes could break. An error
// fails the read.
func After[T any](f func(d *Decoder, v *T) error) Option {
	return func(ti *typeInfo) {
		ti.after = func(d *Decoder, v reflect.Value) error { return f(d, v.Addr().Interface().(*T)) }
	}
}

// ExternBy makes every pointer of the registered type *T an extern,
// named by name; a pointer it gives no name is refused. It is for the
// process's own objects (built-in functions) reachable from anywhere.
func ExternBy[T any](name func(p *T) (string, bool)) Option {
	return func(ti *typeInfo) {
		ti.externBy = func(v reflect.Value) (string, bool) { return name(v.Interface().(*T)) }
	}
}

// ExternIf lets name decide, for each pointer of the registered type *T
// first met, whether it is an extern (the process's own object, found by
// name) or content like any other.
func ExternIf[T any](name func(e *Encoder, p *T) (string, bool)) Option {
	return func(ti *typeInfo) {
		ti.externIf = func(e *Encoder, v reflect.Value) (string, bool) { return name(e, v.Interface().(*T)) }
	}
}

// Register registers T under name. A pointer type *S also registers S,
// to which the options apply.
func Register[T any](r *Registry, name string, opts ...Option) {
	t := reflect.TypeFor[T]()
	ti := r.add(t, name)
	target := ti
	if t.Kind() == reflect.Pointer {
		target = r.add(t.Elem(), name+".elem")
	}
	for _, o := range opts {
		o(target)
	}
	if target.externBy != nil {
		ti.externBy, target.externBy = target.externBy, nil
	}
	if target.externIf != nil {
		ti.externIf, target.externIf = target.externIf, nil
	}
}

func (r *Registry) add(t reflect.Type, name string) *typeInfo {
	if ti, ok := r.byType[t]; ok {
		return ti
	}
	ti := &typeInfo{id: len(r.types), name: name, t: t}
	r.types = append(r.types, ti)
	r.byType[t] = ti
	return ti
}

// structFields lists the saved fields of a struct type, in order.
func (r *Registry) structFields(t reflect.Type) ([]fieldInfo, error) {
	r.mu.RLock()
	fs, ok := r.fields[t]
	r.mu.RUnlock()
	if ok {
		return fs, nil
	}
	ti := r.byType[t]
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if ti != nil && ti.skip[f.Name] {
			continue
		}
		fs = append(fs, fieldInfo{index: i, name: t.String() + "." + f.Name})
	}
	if len(fs) > 63 {
		return nil, fmt.Errorf("snapshot: %s has %d saved fields, over 63", t, len(fs))
	}
	r.mu.Lock()
	r.fields[t] = fs
	r.mu.Unlock()
	return fs, nil
}
