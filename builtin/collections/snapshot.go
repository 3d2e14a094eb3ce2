package collections

import (
	"github.com/go-codemode/codemode/internal/snapshot"
	"github.com/go-codemode/codemode/value"
)

// SnapshotTypes registers the types of this package that a saved run's
// heap holds: iterators, iterator helpers and weak collections.
func SnapshotTypes(reg *snapshot.Registry) {
	snapshot.Register[*CollectionIterator](reg, "collections.CollectionIterator")
	snapshot.Register[*Wrap](reg, "collections.Wrap")
	snapshot.Register[*Helper](reg, "collections.Helper")
	snapshot.Register[*Direct](reg, "collections.Direct")
	snapshot.Register[*fastRecord](reg, "collections.fastRecord")
	snapshot.Register[*WeakData](reg, "collections.WeakData", snapshot.Custom(encodeWeak, decodeWeak))
}

// A weak collection is saved as its entries (a Go map with struct keys,
// which the generic codec does not order).
func encodeWeak(e *snapshot.Encoder, w *WeakData) {
	e.Uint(uint64(len(w.M)))
	for k, v := range w.M {
		e.Ptr(k.Obj)
		e.String(k.Sym)
		e.Any(&v)
	}
}

func decodeWeak(d *snapshot.Decoder, w *WeakData) {
	n := d.Count()
	w.M = make(map[WeakKey]value.Value, n)
	for range n {
		var k WeakKey
		d.Ptr(&k.Obj)
		k.Sym = d.String()
		if (k.Obj == nil) == (k.Sym == "") {
			d.Malformed("a weak key that is neither an object nor a symbol")
		}
		var v value.Value
		d.Any(&v)
		w.M[k] = v
	}
}
