package array

import (
	"github.com/go-codemode/codemode/value"
)

// join, toString and toLocaleString. Like V8, a join that reaches an
// array already being joined further up (a cycle: a = [1]; a.push(a))
// renders it as the empty string instead of recursing forever; the
// arrays being joined are kept per realm for the duration of the call.

var comma = value.NewString(",")

var arrayJoin = &value.Native{Name: "Array.prototype.join", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	sep := comma
	if s := c.Arg(0); !s.IsUndefined() {
		sep = r.ToString(s)
	}
	return value.Str(join(r, o, n, sep, nil))
}}

var arrayToString = &value.Native{Name: "Array.prototype.toString", Length: 0, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	f := r.Get(o, "join")
	if fo := f.AsObject(); fo != nil && fo.Callable() {
		if fo.Internal == arrayJoin {
			return value.Str(join(r, o, r.LengthOf(o), comma, nil))
		}
		return r.CallObject(fo, o, nil)
	}
	if n := r.Library().Native("Object.prototype.toString"); n != nil {
		return n.Fn(r, &value.Call{This: o})
	}
	return value.StrOf("[object Object]")
}}

var arrayToLocaleString = &value.Native{Name: "Array.prototype.toLocaleString", Length: 0, Fn: func(r *value.Realm, c *value.Call) value.Value {
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	var args []value.Value
	if len(c.Args) > 0 {
		args = c.Args[:min(len(c.Args), 2)]
	}
	return value.Str(join(r, o, n, comma, func(x value.Value) *value.String {
		return r.ToString(r.Call(r.Get(x, "toLocaleString"), x, args))
	}))
}}

// join joins elements [0, n) of o with sep, rendering null and undefined
// as empty and every other element with str (ToString when nil).
func join(r *value.Realm, o value.Value, n int, sep *value.String, str func(value.Value) *value.String) *value.String {
	if n == 0 || joining(r, o) {
		return value.Empty
	}
	if l := sep.Len(); l > 0 && n-1 > value.MaxStringLength/l {
		// The separators alone are too long.
		r.ThrowRange("Invalid string length")
	}
	var j joiner
	if d, ok := fastDense(r, o); ok && len(d) == n && str == nil && primitives(d) {
		// Nothing here can run program code.
		for i, x := range d {
			if i%chunk == 0 {
				r.Tick(chunk)
			}
			if i > 0 {
				j.add(r, sep)
			}
			if !x.IsNullish() {
				j.add(r, r.ToString(x))
			}
		}
		return j.done(r)
	}
	// While fa is set (an array with a clean prototype chain), holes read
	// as undefined without a lookup; it is checked again after each
	// element that could run program code.
	_, fa := fast(r, o)
	entered := false
	defer func() {
		if entered {
			leaveJoin(r)
		}
	}()
	for i := 0; i < n; i++ {
		r.Poll()
		if i > 0 {
			j.add(r, sep)
		}
		var x value.Value
		if fa != nil {
			x, _ = fa.Get(i)
		} else {
			x = get(r, o, i)
		}
		if x.IsNullish() {
			continue
		}
		if str == nil && !x.IsObject() {
			j.add(r, r.ToString(x))
			continue
		}
		if obj := o.AsObject(); obj != nil && !entered {
			enterJoin(r, obj)
			entered = true
		}
		// An element's toString may join again (nested arrays): count the
		// depth so that deep nesting ends in a RangeError rather than
		// exhausting the Go stack.
		r.Enter()
		if str != nil {
			j.add(r, str(x))
		} else {
			j.add(r, r.ToString(x))
		}
		r.Leave()
		_, fa = fast(r, o)
	}
	return j.done(r)
}

// primitives reports whether every element is a primitive (or a hole).
func primitives(d []value.Value) bool {
	for _, x := range d {
		if x.IsObject() {
			return false
		}
	}
	return true
}

// joiner builds a string from pieces, ASCII bytes until a wide piece
// arrives, enforcing MaxStringLength.
type joiner struct {
	ascii []byte
	wide  []uint16
	n     int
	isW   bool
}

func (j *joiner) add(r *value.Realm, s *value.String) {
	l := s.Len()
	if l == 0 {
		return
	}
	if j.n+l > value.MaxStringLength {
		r.ThrowRange("Invalid string length")
	}
	j.n += l
	if !j.isW && s.IsASCII() {
		j.ascii = append(j.ascii, s.String()...)
		return
	}
	if !j.isW {
		j.isW = true
		j.wide = make([]uint16, len(j.ascii), max(2*len(j.ascii), len(j.ascii)+l))
		for i, b := range j.ascii {
			j.wide[i] = uint16(b)
		}
		j.ascii = nil
	}
	if s.IsASCII() {
		for _, b := range []byte(s.String()) {
			j.wide = append(j.wide, uint16(b))
		}
		return
	}
	j.wide = append(j.wide, s.Units()...)
}

func (j *joiner) done(r *value.Realm) *value.String {
	var s *value.String
	if j.isW {
		s = value.FromUTF16(j.wide)
	} else {
		s = value.NewString(string(j.ascii))
	}
	r.Charge(s.Bytes())
	return s
}

// joinKey keys the arrays being joined in the realm's scratch state, for
// the cycle check (a self-containing array joins as "").
type joinKey struct{}

// joining reports whether o is already being joined further up.
func joining(r *value.Realm, o value.Value) bool {
	obj := o.AsObject()
	if obj == nil {
		return false
	}
	stack, _ := r.Scratch(joinKey{}).([]*value.Object)
	for _, x := range stack {
		if x == obj {
			return true
		}
	}
	return false
}

func enterJoin(r *value.Realm, o *value.Object) {
	stack, _ := r.Scratch(joinKey{}).([]*value.Object)
	r.SetScratch(joinKey{}, append(stack, o))
}

func leaveJoin(r *value.Realm) {
	stack, _ := r.Scratch(joinKey{}).([]*value.Object)
	if len(stack) <= 1 {
		r.SetScratch(joinKey{}, nil)
		return
	}
	r.SetScratch(joinKey{}, stack[:len(stack)-1])
}
