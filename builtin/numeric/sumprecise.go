package numeric

import (
	"math"
	"math/big"

	"github.com/go-codemode/codemode/value"
)

// Math.sumPrecise(items): the exact sum of an iterable of Numbers,
// rounded once. Finite values are added into a fixed-point
// superaccumulator wide enough for any sum of up to 2^53 doubles, so no
// intermediate rounding or overflow happens; the infinities and NaN are
// tracked on the side, and an empty sum (or a sum of only -0) is -0, as
// the proposal specifies.

var mathSumPrecise = native("Math.sumPrecise", 1, func(r *value.Realm, c *value.Call) value.Value {
	it := sumIterator(r, c.Arg(0))
	var acc superAcc
	const (
		minusZero = iota
		finite
		plusInf
		minusInf
		notANumber
	)
	state := minusZero
	for {
		r.Poll()
		v, ok := it.Step(r)
		if !ok {
			break
		}
		if !v.IsNumber() {
			it.CloseQuietly(r)
			r.ThrowType("Type of 'Iterator value' must be 'number', found '%s'", v.TypeOf())
		}
		if state == notANumber {
			continue
		}
		x := v.Num()
		switch {
		case math.IsNaN(x):
			state = notANumber
		case math.IsInf(x, 1):
			if state == minusInf {
				state = notANumber
			} else {
				state = plusInf
			}
		case math.IsInf(x, -1):
			if state == plusInf {
				state = notANumber
			} else {
				state = minusInf
			}
		case x == 0 && math.Signbit(x):
		default:
			if state == minusZero || state == finite {
				state = finite
				acc.add(x)
			}
		}
	}
	switch state {
	case notANumber:
		return value.Number(math.NaN())
	case plusInf:
		return value.Number(math.Inf(1))
	case minusInf:
		return value.Number(math.Inf(-1))
	case minusZero:
		return value.Number(math.Copysign(0, -1))
	}
	return value.Number(acc.float64())
})

// sumIterator is GetIterator(items, sync) with the messages V8 gives in
// Math.sumPrecise.
func sumIterator(r *value.Realm, items value.Value) *value.IteratorRecord {
	if items.IsNullish() {
		r.ThrowType("Math.sumPrecise called on null or undefined")
	}
	method := r.Get(items, value.SymIterator.Key())
	m := method.AsObject()
	switch {
	case method.IsNullish():
		r.ThrowType("%s is not iterable", iterableString(r, items))
	case m == nil || !m.Callable():
		r.ThrowType("'%s' returned for property 'Symbol(Symbol.iterator)' of object '%s' is not a function",
			r.ToString(method), receiverString(r, items))
	}
	if o := items.AsObject(); items.IsString() || o != nil && o.Class == value.ClassArray {
		// The engine iterates arrays and strings directly while their
		// iteration is untouched (and looks the method up itself otherwise).
		return r.GetIterator(items)
	}
	it := r.CallObject(m, items, nil)
	if !it.IsObject() {
		r.ThrowType("%s is not an iterator", r.ToString(it))
	}
	return &value.IteratorRecord{Iterator: it, Next: r.Get(it, "next")}
}

// iterableString renders a value in V8's "X is not iterable" for
// Math.sumPrecise: primitives as their wrapper ("[object Number]"), plain
// objects as #<Object>.
func iterableString(r *value.Realm, v value.Value) string {
	switch v.Kind() {
	case value.KindNumber:
		return "[object Number]"
	case value.KindBoolean:
		return "[object Boolean]"
	case value.KindSymbol:
		return "[object Symbol]"
	}
	o := v.AsObject()
	if o != nil && !o.Callable() && o.Class != value.ClassObject {
		switch o.Class {
		case value.ClassDate:
			return "[object Date]"
		case value.ClassRegExp:
			return "[object RegExp]"
		case value.ClassError:
			return "[object Error]"
		}
	}
	return receiverString(r, v)
}

// superAcc is an exact fixed-point accumulator of doubles: the sum is
// Σ limb[i] × 2^(32i) × 2^-1074. Every double is an integer multiple of
// 2^-1074 below 2^1024, and 2^53 of them stay below 2^2151, so 68 limbs
// of 32 bits hold any sum; each limb is an int64 so that 2^30 additions
// can happen between carry propagations.
type superAcc struct {
	limb    [70]int64
	pending int // additions since the last normalization
}

func (a *superAcc) add(x float64) {
	b := math.Float64bits(x)
	neg := b>>63 != 0
	e := int(b >> 52 & 0x7ff)
	m := b & (1<<52 - 1)
	p := 0 // x = m × 2^(p - 1074)
	if e != 0 {
		m |= 1 << 52
		p = e - 1
	}
	k, s := p/32, uint(p%32)
	w0 := int64(m & (1<<(32-s) - 1) << s)
	rest := m >> (32 - s)
	w1 := int64(rest & 0xffffffff)
	w2 := int64(rest >> 32)
	if neg {
		w0, w1, w2 = -w0, -w1, -w2
	}
	a.limb[k] += w0
	a.limb[k+1] += w1
	a.limb[k+2] += w2
	a.pending++
	if a.pending >= 1<<30 {
		a.normalize()
	}
}

// normalize propagates carries so that every limb but the last is in
// [0, 2^32).
func (a *superAcc) normalize() {
	for i := 0; i < len(a.limb)-1; i++ {
		carry := a.limb[i] >> 32
		a.limb[i] -= carry << 32
		a.limb[i+1] += carry
	}
	a.pending = 0
}

// float64 rounds the exact sum to the nearest double, ties to even, with
// ±Infinity past the largest finite double (as "the Number value for x").
func (a *superAcc) float64() float64 {
	a.normalize()
	n := new(big.Int)
	t := new(big.Int)
	for i := len(a.limb) - 1; i >= 0; i-- {
		n.Lsh(n, 32)
		n.Add(n, t.SetInt64(a.limb[i]))
	}
	if n.Sign() == 0 {
		return 0
	}
	f := new(big.Float).SetInt(n)
	f.SetMantExp(f, -1074)
	x, _ := f.Float64()
	return x
}
