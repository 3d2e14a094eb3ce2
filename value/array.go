package value

import (
	"errors"
	"slices"
	"strconv"
)

// MaxArrayLength is the longest array a program may make (the reference's
// cap); longer is a RangeError "Invalid array length".
const MaxArrayLength = 10_000_000

// ArrayLengthMessage is the RangeError message for an invalid length.
const ArrayLengthMessage = "Invalid array length"

// ErrArrayLength is returned when an operation would make an array longer
// than MaxArrayLength; engines raise it as a RangeError with
// ArrayLengthMessage.
var ErrArrayLength = errors.New("value: invalid array length")

// sparseGap is how far past the dense part a write may land before the
// array switches that element to the sparse map instead of filling the gap
// with holes.
const sparseGap = 1024

// ArrayData is the Internal of a ClassArray object: its elements. The
// first len(dense) elements are stored in order (Hole where missing);
// elements far beyond them, written out of order, sit in sparse; every
// index below Len that is in neither is a hole. So Array(1e7) costs
// nothing until written, and a[5e6] = 1 on it one map entry.
type ArrayData struct {
	dense  []Value
	sparse map[uint32]Value
	length uint32
	// Frozen and Sealed mirror Object.freeze and Object.seal for the
	// elements; LengthReadOnly is a non-writable length.
	Frozen, Sealed, LengthReadOnly bool
	// meter, when set, counts the bytes the elements grow by (the run's
	// allocation count).
	meter *int64
}

// valueBytes is the size of one element.
const valueBytes = 24

// grew charges the growth of the dense part from capacity before.
func (a *ArrayData) grew(before int) {
	if a.meter != nil && cap(a.dense) > before {
		*a.meter += int64(cap(a.dense)-before) * valueBytes
	}
}

// NewArray makes an array object holding elems (which it keeps).
func NewArray(proto *Object, elems []Value) *Object {
	return &Object{Proto: proto, Class: ClassArray, Internal: &ArrayData{dense: elems, length: uint32(len(elems))}}
}

// Array returns the elements of an array object, or nil.
func (o *Object) Array() *ArrayData {
	a, _ := o.Internal.(*ArrayData)
	return a
}

// Len is the array's length.
func (a *ArrayData) Len() int { return int(a.length) }

// Get returns element i and whether it is present (not a hole).
func (a *ArrayData) Get(i int) (Value, bool) {
	if i < 0 || i >= int(a.length) {
		return Undefined, false
	}
	if i < len(a.dense) {
		v := a.dense[i]
		return v, !v.IsHole()
	}
	if v, ok := a.sparse[uint32(i)]; ok {
		return v, true
	}
	return Undefined, false
}

// Set writes element i, growing the array when i >= Len.
func (a *ArrayData) Set(i int, v Value) error {
	if i < 0 || i >= MaxArrayLength {
		return ErrArrayLength
	}
	switch {
	case i < len(a.dense):
		a.dense[i] = v
	case i-len(a.dense) <= sparseGap:
		// Grow the dense part, taking over any sparse elements it reaches.
		before := cap(a.dense)
		for len(a.dense) < i {
			a.dense = append(a.dense, a.takeSparse(len(a.dense)))
		}
		a.takeSparse(i)
		a.dense = append(a.dense, v)
		a.grew(before)
	default:
		if a.sparse == nil {
			a.sparse = map[uint32]Value{}
		}
		if _, ok := a.sparse[uint32(i)]; !ok && a.meter != nil {
			*a.meter += 2 * valueBytes
		}
		a.sparse[uint32(i)] = v
	}
	if uint32(i) >= a.length {
		a.length = uint32(i) + 1
	}
	return nil
}

// takeSparse removes element i from the sparse part and returns it, or
// Hole.
func (a *ArrayData) takeSparse(i int) Value {
	if v, ok := a.sparse[uint32(i)]; ok {
		delete(a.sparse, uint32(i))
		return v
	}
	return Hole
}

// Push appends elements, as Array.prototype.push does.
func (a *ArrayData) Push(vs ...Value) error {
	if int(a.length)+len(vs) > MaxArrayLength {
		return ErrArrayLength
	}
	if a.sparse == nil && len(a.dense) == int(a.length) {
		before := cap(a.dense)
		a.dense = append(a.dense, vs...)
		a.length = uint32(len(a.dense))
		a.grew(before)
		return nil
	}
	for _, v := range vs {
		if err := a.Set(int(a.length), v); err != nil {
			return err
		}
	}
	return nil
}

// Adopt replaces the elements with elems (holes marked), which the array
// keeps: a built-in that laid out every element at once (fill on
// new Array(n)) hands the slice over instead of copying it. The caller
// has charged elems.
func (a *ArrayData) Adopt(elems []Value) error {
	if len(elems) > MaxArrayLength {
		return ErrArrayLength
	}
	a.dense, a.sparse, a.length = elems, nil, uint32(len(elems))
	return nil
}

// Delete makes element i a hole.
func (a *ArrayData) Delete(i int) {
	if i < 0 || i >= int(a.length) {
		return
	}
	if i < len(a.dense) {
		a.dense[i] = Hole
		return
	}
	delete(a.sparse, uint32(i))
}

// SetLength truncates or extends the array (extending adds holes only).
func (a *ArrayData) SetLength(n int) error {
	if n < 0 || n > MaxArrayLength {
		return ErrArrayLength
	}
	if n < len(a.dense) {
		clear(a.dense[n:])
		a.dense = a.dense[:n]
	}
	for k := range a.sparse {
		if int(k) >= n {
			delete(a.sparse, k)
		}
	}
	a.length = uint32(n)
	return nil
}

// Dense returns the elements as one slice with holes, when the array has
// no sparse part and is fully materialized; ok is false otherwise. Fast
// paths (iteration, spreading, JSON) use it.
func (a *ArrayData) Dense() ([]Value, bool) {
	if a.sparse != nil || len(a.dense) != int(a.length) {
		return nil, false
	}
	return a.dense, true
}

// PresentIndexes returns the indexes that hold an element, ascending.
func (a *ArrayData) PresentIndexes() []int {
	var out []int
	for i, v := range a.dense {
		if !v.IsHole() {
			out = append(out, i)
		}
	}
	if len(a.sparse) > 0 {
		start := len(out)
		for k := range a.sparse {
			out = append(out, int(k))
		}
		slices.Sort(out[start:])
	}
	return out
}

// IndexKeys returns the present indexes as property keys, for
// Object.keys and for...in.
func (a *ArrayData) IndexKeys() []string {
	idx := a.PresentIndexes()
	keys := make([]string, len(idx))
	for i, n := range idx {
		keys[i] = strconv.Itoa(n)
	}
	return keys
}

// ShiftDense removes and returns the first element of a fully dense
// array in constant time (the slice is re-sliced, not copied), reporting
// false when the array is sparse or empty. A queue built on push and
// shift stays linear.
func (a *ArrayData) ShiftDense() (Value, bool) {
	if a.sparse != nil || len(a.dense) != int(a.length) || a.length == 0 {
		return Undefined, false
	}
	v := a.dense[0]
	a.dense[0] = Undefined // let the element be collected
	a.dense = a.dense[1:]
	a.length--
	return v, true
}
