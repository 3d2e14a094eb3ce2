package array

import (
	"math"

	"github.com/go-codemode/codemode/internal/jsnum"
	"github.com/go-codemode/codemode/value"
)

// The methods that read an array without changing it: searching (at,
// includes, indexOf, lastIndexOf), copying (slice, concat, flat, with,
// toReversed, toSpliced) and iterators (keys, entries).

var arrayAt = &value.Native{Name: "Array.prototype.at", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	f := integer(r, c.Arg(0))
	if f < 0 {
		f += float64(n)
	}
	if f < 0 || f >= float64(n) {
		return value.Undefined
	}
	return get(r, o, int(f))
}}

// fromIndex resolves the fromIndex argument of includes and indexOf: the
// first index to look at, or n when there is none.
func fromIndex(r *value.Realm, c *value.Call, n int) int {
	if len(c.Args) < 2 {
		return 0
	}
	f := integer(r, c.Args[1])
	if f < 0 {
		f += float64(n)
	}
	return clampIndex(f, n)
}

var arrayIncludes = &value.Native{Name: "Array.prototype.includes", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	if n == 0 {
		return value.False
	}
	k := fromIndex(r, c, n)
	target := c.Arg(0)
	if d, ok := fastDense(r, o); ok {
		end := min(n, len(d))
		if indexInTicked(r, d, k, end, target, true) >= 0 {
			return value.True
		}
		// Past the slice (the array shrank while fromIndex converted),
		// every index reads as undefined.
		return value.Bool(end < n && k < n && target.IsUndefined())
	}
	for i := k; i < n; i++ {
		r.Poll()
		if value.SameValueZero(get(r, o, i), target) {
			return value.True
		}
	}
	return value.False
}}

// indexInTicked is indexIn a chunk at a time, ticking per chunk (and per
// character compared when the target is a string), so that searching a
// long array stops at the deadline.
func indexInTicked(r *value.Realm, d []value.Value, from, to int, target value.Value, zero bool) int {
	work := chunk
	if s := target.AsString(); s != nil {
		work += s.Len() / 8 * chunk / 64 // equal-length strings compare units
	}
	for lo := from; lo < to; lo += chunk {
		hi := min(lo+chunk, to)
		r.Tick(work)
		if i := indexIn(d, lo, hi, target, zero); i >= 0 {
			return i
		}
	}
	return -1
}

// indexIn finds target in d[from:to]: SameValueZero with holes as
// undefined when zero is set (includes), else strict equality skipping
// holes (indexOf). It returns the index or -1.
func indexIn(d []value.Value, from, to int, target value.Value, zero bool) int {
	switch {
	case target.IsNumber() && !(zero && math.IsNaN(target.Num())):
		t := target.Num()
		for i := from; i < to; i++ {
			if x := d[i]; x.IsNumber() && x.Num() == t {
				return i
			}
		}
	case target.IsString():
		t := target.AsString()
		for i := from; i < to; i++ {
			if s := d[i].AsString(); s != nil && value.Equal(s, t) {
				return i
			}
		}
	case zero:
		for i := from; i < to; i++ {
			if value.SameValueZero(d[i], target) {
				return i
			}
		}
	default:
		for i := from; i < to; i++ {
			if x := d[i]; !x.IsHole() && value.StrictEquals(x, target) {
				return i
			}
		}
	}
	return -1
}

var arrayIndexOf = &value.Native{Name: "Array.prototype.indexOf", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "Array.prototype.indexOf")
	n := r.LengthOf(o)
	if n == 0 {
		return value.Number(-1)
	}
	k := fromIndex(r, c, n)
	target := c.Arg(0)
	if d, ok := fastDense(r, o); ok {
		return value.Number(float64(indexInTicked(r, d, k, min(n, len(d)), target, false)))
	}
	a := arrayData(o)
	for i := k; i < n; i++ {
		r.Poll()
		if v, ok := elem(r, o, a, i); ok && value.StrictEquals(v, target) {
			return value.Number(float64(i))
		}
	}
	return value.Number(-1)
}}

var arrayLastIndexOf = &value.Native{Name: "Array.prototype.lastIndexOf", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	if n == 0 {
		return value.Number(-1)
	}
	f := float64(n - 1)
	if len(c.Args) >= 2 {
		f = integer(r, c.Args[1])
	}
	if f >= 0 {
		f = min(f, float64(n-1))
	} else {
		f += float64(n)
	}
	if f < 0 {
		return value.Number(-1)
	}
	target := c.Arg(0)
	d, dense := fastDense(r, o)
	a := arrayData(o)
	for i := int(f); i >= 0; i-- {
		if dense {
			if i%chunk == 0 {
				r.Tick(chunk)
			}
			if i < len(d) {
				if x := d[i]; !x.IsHole() && value.StrictEquals(x, target) {
					return value.Number(float64(i))
				}
			}
			continue
		}
		r.Poll()
		if v, ok := elem(r, o, a, i); ok && value.StrictEquals(v, target) {
			return value.Number(float64(i))
		}
	}
	return value.Number(-1)
}}

var arraySlice = &value.Native{Name: "Array.prototype.slice", Length: 2, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	k := relative(r, c.Arg(0), n, 0)
	final := relative(r, c.Arg(1), n, n)
	count := max(final-k, 0)
	ctor := species(r, o)
	if ctor == nil {
		if d, ok := fastDense(r, o); ok {
			r.Reserve(elemBytes * count)
			r.Tick(count)
			elems := make([]value.Value, count)
			for i := range elems {
				if j := k + i; j < len(d) {
					elems[i] = d[j]
				} else {
					elems[i] = value.Hole
				}
			}
			return wrap(r, elems)
		}
	}
	b := create(r, ctor, count, 0)
	a := arrayData(o)
	to := 0
	for i := k; i < final; i++ {
		r.Poll()
		if v, ok := elem(r, o, a, i); ok {
			b.put(r, to, v)
		}
		to++
	}
	b.setLength(r, to)
	return b.value(r)
}}

// concatSpreadable is IsConcatSpreadable: an object's
// Symbol.isConcatSpreadable when it is defined, else whether it is an
// array.
func concatSpreadable(r *value.Realm, e value.Value) bool {
	o := e.AsObject()
	if o == nil {
		return false
	}
	if p, _ := o.Lookup(value.SymIsConcatSpreadable.Key()); p != nil {
		if v := r.GetObj(o, value.SymIsConcatSpreadable.Key(), e); !v.IsUndefined() {
			return v.ToBoolean()
		}
	}
	return isArray(e)
}

// anySpreadableKey reports whether a part of a concat has a
// Symbol.isConcatSpreadable property (which a getter may compute, so the
// parts cannot be sized before they are copied).
func anySpreadableKey(o value.Value, args []value.Value) bool {
	for i := -1; i < len(args); i++ {
		e := o
		if i >= 0 {
			e = args[i]
		}
		if eo := e.AsObject(); eo != nil {
			if p, _ := eo.Lookup(value.SymIsConcatSpreadable.Key()); p != nil {
				return true
			}
		}
	}
	return false
}

var arrayConcat = &value.Native{Name: "Array.prototype.concat", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "Array.prototype.concat")
	ctor := species(r, o)
	capHint := 0
	if ctor == nil && !anySpreadableKey(o, c.Args) {
		// When every part is data (dense arrays and non-arrays), the total
		// is known before anything is copied.
		exact := true
		for i := -1; i < len(c.Args); i++ {
			e := o
			if i >= 0 {
				e = c.Args[i]
			}
			if !isArray(e) {
				capHint++
			} else if d, ok := fastDense(r, e); ok {
				capHint += len(d)
			} else {
				exact = false
			}
		}
		if exact && capHint > value.MaxArrayLength {
			r.ThrowRange(value.ArrayLengthMessage)
		}
	}
	b := create(r, ctor, 0, capHint)
	n := 0
	for i := -1; i < len(c.Args); i++ {
		e := o
		if i >= 0 {
			e = c.Args[i]
		}
		if !concatSpreadable(r, e) {
			if n >= maxSafeInteger {
				r.ThrowType(value.ArrayLengthMessage)
			}
			b.put(r, n, e)
			n++
			continue
		}
		if d, ok := fastDense(r, e); ok && b.a != nil && b.a.Len() == n {
			if n+len(d) > value.MaxArrayLength {
				r.ThrowRange(value.ArrayLengthMessage)
			}
			r.Tick(len(d))
			b.push(r, d...)
			n += len(d)
			continue
		}
		m := r.LengthOf(e)
		if n+m > maxSafeInteger {
			r.ThrowType(value.ArrayLengthMessage)
		}
		if b.a != nil && n+m > value.MaxArrayLength {
			r.ThrowRange(value.ArrayLengthMessage)
		}
		ea := arrayData(e)
		for k := 0; k < m; k++ {
			r.Poll()
			if v, ok := elem(r, e, ea, k); ok {
				b.put(r, n, v)
			}
			n++
		}
		if b.a != nil {
			b.setLength(r, n) // keep trailing holes
		}
	}
	b.setLength(r, n)
	return b.value(r)
}}

var arrayFlat = &value.Native{Name: "Array.prototype.flat", Length: 0, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	depth := 1.0
	if d := c.Arg(0); !d.IsUndefined() {
		depth = max(integer(r, d), 0)
	}
	b := create(r, species(r, o), 0, 0)
	flatten(r, &b, o, n, depth)
	return b.value(r)
}}

// flatten is FlattenIntoArray without a mapper, with its own stack
// instead of recursion: a self-containing array flattened to Infinity
// stops with the RangeError V8 gives instead of exhausting the Go stack.
func flatten(r *value.Realm, b *out, src value.Value, n int, depth float64) {
	type frame struct {
		src   value.Value
		a     *value.ArrayData
		i, n  int
		depth float64
	}
	stack := []frame{{src: src, a: arrayData(src), n: n, depth: depth}}
	t := 0
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i >= f.n {
			stack = stack[:len(stack)-1]
			continue
		}
		i := f.i
		f.i++
		r.Poll()
		v, ok := elem(r, f.src, f.a, i)
		if !ok {
			continue
		}
		if f.depth > 0 && isArray(v) {
			if len(stack) >= value.MaxCallDepth {
				r.ThrowRange("Maximum call stack size exceeded")
			}
			next := frame{src: v, a: arrayData(v), n: r.LengthOf(v), depth: f.depth - 1}
			stack = append(stack, next)
			continue
		}
		if t >= maxSafeInteger {
			r.ThrowType(value.ArrayLengthMessage)
		}
		b.put(r, t, v)
		t++
		if t%chunk == 0 {
			b.meter(r) // charge the growth as it happens, not only at the end
		}
	}
}

var arrayWith = &value.Native{Name: "Array.prototype.with", Length: 2, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	num := r.ToNumber(c.Arg(0))
	rel := jsnum.ToIntegerOrInfinity(num)
	if rel < 0 {
		rel += float64(n)
	}
	if rel < 0 || rel >= float64(n) {
		r.ThrowRange("Invalid index : %s", value.NumberToString(num).String())
	}
	elems := readAllExcept(r, o, n, int(rel))
	elems[int(rel)] = c.Arg(1)
	return wrap(r, elems)
}}

// readAll copies elements [0, n) into a new slice, holes read through
// (as undefined, or an inherited element), for the copying methods.
func readAll(r *value.Realm, o value.Value, n int) []value.Value {
	return readAllExcept(r, o, n, -1)
}

// readAllExcept is readAll without reading element skip (with's replaced
// index, which the spec does not Get).
func readAllExcept(r *value.Realm, o value.Value, n, skip int) []value.Value {
	if n > value.MaxArrayLength {
		r.ThrowRange(value.ArrayLengthMessage)
	}
	r.Reserve(elemBytes * n)
	elems := make([]value.Value, n)
	if d, ok := fastDense(r, o); ok && len(d) == n {
		r.Tick(n)
		for i, x := range d {
			if !x.IsHole() {
				elems[i] = x
			}
		}
		return elems
	}
	a := arrayData(o)
	for i := range elems {
		r.Poll()
		if i != skip {
			elems[i] = elemOrUndefined(r, o, a, i)
		}
	}
	return elems
}

var arrayToReversed = &value.Native{Name: "Array.prototype.toReversed", Length: 0, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	if n > value.MaxArrayLength {
		r.ThrowRange(value.ArrayLengthMessage)
	}
	r.Reserve(elemBytes * n)
	elems := make([]value.Value, n)
	a := arrayData(o)
	for k := range elems {
		r.Poll()
		elems[k] = elemOrUndefined(r, o, a, n-1-k)
	}
	return wrap(r, elems)
}}

var arrayToSpliced = &value.Native{Name: "Array.prototype.toSpliced", Length: 2, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	start := relative(r, c.Arg(0), n, 0)
	var items []value.Value
	if len(c.Args) > 2 {
		items = c.Args[2:]
	}
	skip := 0
	switch {
	case len(c.Args) == 0:
	case len(c.Args) == 1:
		skip = n - start
	default:
		skip = clampIndex(integer(r, c.Args[1]), n-start)
	}
	newLen := n + len(items) - skip
	if newLen > maxSafeInteger {
		r.ThrowType(value.ArrayLengthMessage)
	}
	if newLen > value.MaxArrayLength {
		r.ThrowRange(value.ArrayLengthMessage)
	}
	r.Reserve(elemBytes * newLen)
	elems := make([]value.Value, 0, newLen)
	a := arrayData(o)
	for i := 0; i < start; i++ {
		r.Poll()
		elems = append(elems, elemOrUndefined(r, o, a, i))
	}
	elems = append(elems, items...)
	for i := start + skip; i < n; i++ {
		r.Poll()
		elems = append(elems, elemOrUndefined(r, o, a, i))
	}
	return wrap(r, elems)
}}

var (
	arrayKeys = &value.Native{Name: "Array.prototype.keys", Length: 0, Fn: func(r *value.Realm, c *value.Call) value.Value {
		return value.Obj(r.NewArrayIterator(receiver(r, c, ""), value.IterKeys))
	}}
	arrayEntries = &value.Native{Name: "Array.prototype.entries", Length: 0, Fn: func(r *value.Realm, c *value.Call) value.Value {
		return value.Obj(r.NewArrayIterator(receiver(r, c, ""), value.IterEntries))
	}}
)
