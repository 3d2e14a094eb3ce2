package array

import (
	"slices"

	"github.com/go-codemode/codemode/value"
)

// The methods that change the array in place: push, pop, shift, unshift,
// splice, fill, copyWithin and reverse. Each has the specification's
// generic algorithm, and a fast path for a writable array whose elements
// are one slice (fastWritable), where no write can fail and no program
// code can run.

var arrayPush = &value.Native{Name: "Array.prototype.push", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	if a := fastWritable(r, o); a != nil {
		if a.Push(c.Args...) != nil {
			r.ThrowRange(value.ArrayLengthMessage)
		}
		r.Charge(elemBytes * len(c.Args))
		return value.Number(float64(a.Len()))
	}
	n := r.LengthOf(o)
	if n+len(c.Args) > maxSafeInteger {
		r.ThrowType("Pushing %d elements on an array-like of length %d is disallowed, as the total surpasses 2**53-1", len(c.Args), n)
	}
	for i, v := range c.Args {
		set(r, o, n+i, v)
	}
	n += len(c.Args)
	setLength(r, o, n)
	return value.Number(float64(n))
}}

var arrayPop = &value.Native{Name: "Array.prototype.pop", Length: 0, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	if a := fastWritable(r, o); a != nil {
		n := a.Len()
		if n == 0 {
			return value.Undefined
		}
		v, ok := a.Get(n - 1)
		if !ok {
			v = value.Undefined
		}
		_ = a.SetLength(n - 1) // shrinking cannot fail
		return v
	}
	n := r.LengthOf(o)
	if n == 0 {
		setLength(r, o, 0)
		return value.Undefined
	}
	v := get(r, o, n-1)
	del(r, o, n-1)
	setLength(r, o, n-1)
	return v
}}

var arrayShift = &value.Native{Name: "Array.prototype.shift", Length: 0, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	if a := fastWritable(r, o); a != nil {
		if a.Len() == 0 {
			return value.Undefined
		}
		if first, ok := a.ShiftDense(); ok {
			if first.IsHole() {
				first = value.Undefined
			}
			return first
		}
	}
	n := r.LengthOf(o)
	if n == 0 {
		setLength(r, o, 0)
		return value.Undefined
	}
	first := get(r, o, 0)
	a := arrayData(o)
	for k := 1; k < n; k++ {
		r.Poll()
		move(r, o, a, k, k-1)
	}
	del(r, o, n-1)
	setLength(r, o, n-1)
	return first
}}

// move copies element from to index to, or deletes to when from is a
// hole: one step of the shifting loops of shift, unshift, splice and
// copyWithin.
func move(r *value.Realm, o value.Value, a *value.ArrayData, from, to int) {
	if v, ok := elem(r, o, a, from); ok {
		set(r, o, to, v)
	} else {
		del(r, o, to)
	}
}

var arrayUnshift = &value.Native{Name: "Array.prototype.unshift", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	argc := len(c.Args)
	if a := fastWritable(r, o); a != nil {
		if d, ok := a.Dense(); ok {
			n := len(d)
			if argc == 0 {
				return value.Number(float64(n))
			}
			if a.Push(c.Args...) != nil {
				r.ThrowRange(value.ArrayLengthMessage)
			}
			r.Charge(elemBytes * argc)
			r.Tick(n)
			d, _ = a.Dense()
			copy(d[argc:], d[:n])
			copy(d, c.Args)
			return value.Number(float64(n + argc))
		}
	}
	n := r.LengthOf(o)
	if argc > 0 {
		checkLength(r, o, n+argc)
		a := arrayData(o)
		for k := n; k > 0; k-- {
			r.Poll()
			move(r, o, a, k-1, k+argc-1)
		}
		for j, v := range c.Args {
			set(r, o, j, v)
		}
	}
	setLength(r, o, n+argc)
	return value.Number(float64(n + argc))
}}

var arraySplice = &value.Native{Name: "Array.prototype.splice", Length: 2, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	start := relative(r, c.Arg(0), n, 0)
	var items []value.Value
	if len(c.Args) > 2 {
		items = c.Args[2:]
	}
	dc := 0
	switch {
	case len(c.Args) == 0:
	case len(c.Args) == 1:
		dc = n - start
	default:
		dc = clampIndex(integer(r, c.Args[1]), n-start)
	}
	ic := len(items)
	checkLength(r, o, n+ic-dc)
	ctor := species(r, o)
	if ctor == nil {
		if a := fastWritable(r, o); a != nil {
			if d, ok := a.Dense(); ok && len(d) == n {
				return spliceDense(r, a, d, start, dc, items)
			}
		}
	}
	b := create(r, ctor, dc, 0)
	a := arrayData(o)
	for k := 0; k < dc; k++ {
		r.Poll()
		if v, ok := elem(r, o, a, start+k); ok {
			b.put(r, k, v)
		}
	}
	b.setLength(r, dc)
	switch {
	case ic < dc:
		for k := start; k < n-dc; k++ {
			r.Poll()
			move(r, o, a, k+dc, k+ic)
		}
		for k := n; k > n-dc+ic; k-- {
			r.Poll()
			del(r, o, k-1)
		}
	case ic > dc:
		for k := n - dc; k > start; k-- {
			r.Poll()
			move(r, o, a, k+dc-1, k+ic-1)
		}
	}
	for i, v := range items {
		set(r, o, start+i, v)
	}
	setLength(r, o, n-dc+ic)
	return b.value(r)
}}

// spliceDense is splice on a fastWritable array whose elements are d.
func spliceDense(r *value.Realm, a *value.ArrayData, d []value.Value, start, dc int, items []value.Value) value.Value {
	n := len(d)
	r.Reserve(elemBytes * dc)
	r.Tick(n)
	removed := make([]value.Value, dc)
	copy(removed, d[start:start+dc])
	ic := len(items)
	switch {
	case ic > dc:
		grow := ic - dc
		if a.Push(make([]value.Value, grow)...) != nil {
			r.ThrowRange(value.ArrayLengthMessage)
		}
		r.Charge(elemBytes * grow)
		d, _ = a.Dense()
		copy(d[start+ic:], d[start+dc:n])
	case ic < dc:
		copy(d[start+ic:], d[start+dc:])
		_ = a.SetLength(n - dc + ic) // shrinking cannot fail
	}
	copy(d[start:], items)
	return wrap(r, removed)
}

var arrayFill = &value.Native{Name: "Array.prototype.fill", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	v := c.Arg(0)
	k := relative(r, c.Arg(1), n, 0)
	final := relative(r, c.Arg(2), n, n)
	if a := fastWritable(r, o); a != nil {
		if d, ok := a.Dense(); ok && final <= len(d) {
			r.Tick(final - k)
			for i := k; i < final; i++ {
				d[i] = v
			}
			return o
		}
		if n := a.Len(); final-k >= n/2 {
			// new Array(n).fill(x): lay the elements out once instead of
			// growing the slice one write at a time.
			r.Reserve(elemBytes * n)
			elems := make([]value.Value, n)
			for i := range elems {
				if i%chunk == 0 {
					r.Tick(chunk)
				}
				elems[i] = value.Hole
			}
			for _, i := range a.PresentIndexes() {
				elems[i], _ = a.Get(i)
			}
			for i := k; i < final; i++ {
				elems[i] = v
			}
			r.Charge(elemBytes * (final - k))
			if a.Adopt(elems) != nil {
				r.ThrowRange(value.ArrayLengthMessage)
			}
			return o
		}
		for i := k; i < final; i++ {
			r.Poll()
			if a.Set(i, v) != nil {
				r.ThrowRange(value.ArrayLengthMessage)
			}
		}
		return o
	}
	for i := k; i < final; i++ {
		r.Poll()
		set(r, o, i, v)
	}
	return o
}}

var arrayCopyWithin = &value.Native{Name: "Array.prototype.copyWithin", Length: 2, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	to := relative(r, c.Arg(0), n, 0)
	from := relative(r, c.Arg(1), n, 0)
	final := relative(r, c.Arg(2), n, n)
	count := min(final-from, n-to)
	if count <= 0 {
		return o
	}
	if a := fastWritable(r, o); a != nil {
		if d, ok := a.Dense(); ok && len(d) == n {
			r.Tick(count)
			copy(d[to:to+count], d[from:from+count]) // holes move as holes, as deletes would
			return o
		}
	}
	dir := 1
	if from < to && to < from+count {
		dir = -1
		from += count - 1
		to += count - 1
	}
	a := arrayData(o)
	for ; count > 0; count-- {
		r.Poll()
		move(r, o, a, from, to)
		from += dir
		to += dir
	}
	return o
}}

var arrayReverse = &value.Native{Name: "Array.prototype.reverse", Length: 0, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	if a := fastWritable(r, o); a != nil {
		if d, ok := a.Dense(); ok {
			r.Tick(len(d))
			slices.Reverse(d) // a hole moves to the mirrored index, as the generic steps do
			return o
		}
		// Sparse: move the present elements only.
		n := a.Len()
		idx := a.PresentIndexes()
		r.Tick(len(idx))
		r.Reserve(elemBytes * len(idx))
		vals := make([]value.Value, len(idx))
		for k, i := range idx {
			vals[k], _ = a.Get(i)
			a.Delete(i)
		}
		for k, i := range idx {
			_ = a.Set(n-1-i, vals[k]) // within the length
		}
		return o
	}
	n := r.LengthOf(o)
	a := arrayData(o)
	for lower := 0; lower < n/2; lower++ {
		r.Poll()
		upper := n - 1 - lower
		lv, lok := elem(r, o, a, lower)
		uv, uok := elem(r, o, a, upper)
		switch {
		case lok && uok:
			set(r, o, lower, uv)
			set(r, o, upper, lv)
		case uok:
			set(r, o, lower, uv)
			del(r, o, upper)
		case lok:
			del(r, o, lower)
			set(r, o, upper, lv)
		}
	}
	return o
}}
