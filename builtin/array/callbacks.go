package array

import "github.com/go-codemode/codemode/value"

// The methods that call a program callback for each element: forEach,
// map, filter, some, every, the find family, reduce, reduceRight and
// flatMap. Each reads its element afresh on every step (the callback may
// change the array), and each call gets a fresh argument slice, because
// the callee may keep it (through `arguments`).

// callback is a method's callback with its this and the receiver it
// passes as the third argument.
type callback struct {
	fn   *value.Object
	this value.Value
	o    value.Value
}

func newCallback(r *value.Realm, c *value.Call, o value.Value) callback {
	return callback{fn: callable(r, c.Arg(0)), this: c.Arg(1), o: o}
}

// call runs the callback on (v, i, o).
func (cb *callback) call(r *value.Realm, v value.Value, i int) value.Value {
	return r.CallObject(cb.fn, cb.this, []value.Value{v, value.Number(float64(i)), cb.o})
}

var arrayForEach = &value.Native{Name: "Array.prototype.forEach", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "Array.prototype.forEach")
	n := r.LengthOf(o)
	cb := newCallback(r, c, o)
	a := arrayData(o)
	for i := 0; i < n; i++ {
		r.Poll()
		if v, ok := elem(r, o, a, i); ok {
			cb.call(r, v, i)
		}
	}
	return value.Undefined
}}

var arrayMap = &value.Native{Name: "Array.prototype.map", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "Array.prototype.map")
	n := r.LengthOf(o)
	cb := newCallback(r, c, o)
	a := arrayData(o)
	capHint := 0
	if d, ok := fastDense(r, o); ok {
		capHint = len(d)
	}
	b := create(r, species(r, o), n, capHint)
	for i := 0; i < n; i++ {
		r.Poll()
		if v, ok := elem(r, o, a, i); ok {
			b.put(r, i, cb.call(r, v, i))
		}
	}
	return b.value(r)
}}

var arrayFilter = &value.Native{Name: "Array.prototype.filter", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "Array.prototype.filter")
	n := r.LengthOf(o)
	cb := newCallback(r, c, o)
	a := arrayData(o)
	b := create(r, species(r, o), 0, 0)
	to := 0
	for i := 0; i < n; i++ {
		r.Poll()
		if v, ok := elem(r, o, a, i); ok && cb.call(r, v, i).ToBoolean() {
			if b.a != nil {
				b.push(r, v)
			} else {
				b.put(r, to, v)
			}
			to++
		}
	}
	return b.value(r)
}}

// someEvery is some (want true: stop at the first truthy result) and
// every (want false: stop at the first falsy one).
func someEvery(name string, want bool) value.NativeFunc {
	return func(r *value.Realm, c *value.Call) value.Value {
		o := receiver(r, c, name)
		n := r.LengthOf(o)
		cb := newCallback(r, c, o)
		a := arrayData(o)
		for i := 0; i < n; i++ {
			r.Poll()
			if v, ok := elem(r, o, a, i); ok && cb.call(r, v, i).ToBoolean() == want {
				return value.Bool(want)
			}
		}
		return value.Bool(!want)
	}
}

var (
	arraySome  = &value.Native{Name: "Array.prototype.some", Length: 1, Fn: someEvery("Array.prototype.some", true)}
	arrayEvery = &value.Native{Name: "Array.prototype.every", Length: 1, Fn: someEvery("Array.prototype.every", false)}
)

// find is the find family: holes are visited (as undefined), the search
// runs forwards or backwards, and gives the element or its index.
func find(name string, backwards, index bool) value.NativeFunc {
	return func(r *value.Realm, c *value.Call) value.Value {
		o := receiver(r, c, name)
		n := r.LengthOf(o)
		cb := newCallback(r, c, o)
		a := arrayData(o)
		for k := 0; k < n; k++ {
			i := k
			if backwards {
				i = n - 1 - k
			}
			r.Poll()
			v := elemOrUndefined(r, o, a, i)
			if cb.call(r, v, i).ToBoolean() {
				if index {
					return value.Number(float64(i))
				}
				return v
			}
		}
		if index {
			return value.Number(-1)
		}
		return value.Undefined
	}
}

var (
	arrayFind          = &value.Native{Name: "Array.prototype.find", Length: 1, Fn: find("Array.prototype.find", false, false)}
	arrayFindIndex     = &value.Native{Name: "Array.prototype.findIndex", Length: 1, Fn: find("Array.prototype.findIndex", false, true)}
	arrayFindLast      = &value.Native{Name: "Array.prototype.findLast", Length: 1, Fn: find("Array.prototype.findLast", true, false)}
	arrayFindLastIndex = &value.Native{Name: "Array.prototype.findLastIndex", Length: 1, Fn: find("Array.prototype.findLastIndex", true, true)}
)

// reduce is reduce and reduceRight.
func reduce(name string, backwards bool) value.NativeFunc {
	return func(r *value.Realm, c *value.Call) value.Value {
		o := receiver(r, c, name)
		n := r.LengthOf(o)
		fn := callable(r, c.Arg(0))
		a := arrayData(o)
		at := func(k int) int {
			if backwards {
				return n - 1 - k
			}
			return k
		}
		k := 0
		var acc value.Value
		if len(c.Args) >= 2 {
			acc = c.Args[1]
		} else {
			found := false
			for ; k < n && !found; k++ {
				r.Poll()
				acc, found = elem(r, o, a, at(k))
			}
			if !found {
				r.ThrowType("Reduce of empty array with no initial value")
			}
		}
		for ; k < n; k++ {
			r.Poll()
			i := at(k)
			if v, ok := elem(r, o, a, i); ok {
				acc = r.CallObject(fn, value.Undefined, []value.Value{acc, v, value.Number(float64(i)), o})
			}
		}
		return acc
	}
}

var (
	arrayReduce      = &value.Native{Name: "Array.prototype.reduce", Length: 1, Fn: reduce("Array.prototype.reduce", false)}
	arrayReduceRight = &value.Native{Name: "Array.prototype.reduceRight", Length: 1, Fn: reduce("Array.prototype.reduceRight", true)}
)

var arrayFlatMap = &value.Native{Name: "Array.prototype.flatMap", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	cb := newCallback(r, c, o)
	a := arrayData(o)
	b := create(r, species(r, o), 0, 0)
	t := 0
	add := func(v value.Value) {
		if t >= maxSafeInteger {
			r.ThrowType(value.ArrayLengthMessage)
		}
		b.put(r, t, v)
		t++
	}
	for i := 0; i < n; i++ {
		r.Poll()
		v, ok := elem(r, o, a, i)
		if !ok {
			continue
		}
		m := cb.call(r, v, i)
		if !isArray(m) {
			add(m)
			continue
		}
		ml := r.LengthOf(m)
		ma := arrayData(m)
		for j := 0; j < ml; j++ {
			r.Poll()
			if x, ok := elem(r, m, ma, j); ok {
				add(x)
			}
		}
	}
	return b.value(r)
}}
