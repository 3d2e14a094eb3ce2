package jsnum

import (
	"math"
	"math/big"
	"sync"
)

// Pow is Number::exponentiate (Math.pow and **): like IEEE pow, except
// that a NaN exponent always gives NaN and (±1) ** ±Infinity is NaN.
func Pow(x, y float64) float64 {
	if math.IsNaN(y) || math.IsInf(y, 0) && (x == 1 || x == -1) {
		return math.NaN()
	}
	return pow(x, y)
}

// pow is IEEE pow(x, y) (C99 Annex F special cases), correctly rounded.
// V8 (node 26) calls the C library's pow, glibc's, whose result is the
// correctly rounded one except in rare cases within 0.02 ulp of a
// midpoint; this computes exp(y·log x) in double-double arithmetic, with
// an error far below that, and rounds once.
func pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	}
	yInt := y == math.Trunc(y)
	yOdd := yInt && math.Abs(y) < 1<<53 && math.Mod(y, 2) != 0
	switch {
	case math.IsInf(y, 0):
		ax := math.Abs(x)
		switch {
		case ax == 1:
			return 1
		case (ax < 1) == (y > 0):
			return 0
		}
		return math.Inf(1)
	case x == 0 || math.IsInf(x, 0):
		// Zero and infinity: only the sign and the odd-integer parity
		// matter.
		big := math.IsInf(x, 0) == (y > 0)
		neg := math.Signbit(x) && yOdd
		switch {
		case big && neg:
			return math.Inf(-1)
		case big:
			return math.Inf(1)
		case neg:
			return math.Copysign(0, -1)
		}
		return 0
	case x < 0 && !yInt:
		return math.NaN()
	}
	switch y {
	case 1:
		return x
	case 2:
		return x * x // correctly rounded, as V8's own fast path
	case -1:
		return 1 / x
	case 0.5:
		return math.Sqrt(x)
	}
	r := powAbs(math.Abs(x), y)
	if x < 0 && yOdd {
		return -r
	}
	return r
}

// dd is a double-double: the unevaluated sum hi + lo, |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

func fastTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

func twoProd(a, b float64) dd {
	p := a * b
	return dd{p, math.FMA(a, b, -p)}
}

func ddAdd(a, b dd) dd {
	s := twoSum(a.hi, b.hi)
	t := twoSum(a.lo, b.lo)
	s.lo += t.hi
	s = fastTwoSum(s.hi, s.lo)
	s.lo += t.lo
	return fastTwoSum(s.hi, s.lo)
}

func ddMul(a, b dd) dd {
	p := twoProd(a.hi, b.hi)
	p.lo += a.hi*b.lo + a.lo*b.hi
	return fastTwoSum(p.hi, p.lo)
}

func ddMulF(a dd, b float64) dd {
	p := twoProd(a.hi, b)
	p.lo += a.lo * b
	return fastTwoSum(p.hi, p.lo)
}

func ddDiv(a, b dd) dd {
	q1 := a.hi / b.hi
	r := ddAdd(a, ddMulF(b, -q1))
	q2 := r.hi / b.hi
	r = ddAdd(r, ddMulF(b, -q2))
	q3 := r.hi / b.hi
	q := fastTwoSum(q1, q2)
	return ddAdd(q, dd{q3, 0})
}

// ln2DD is log(2) as a double-double.
var ln2DD = dd{6.93147180559945286227e-01, 2.31904681384629955842e-17}

// powTables are made on first use: log(c) for c = k/128 near 1, 2^(j/64),
// and the series coefficients.
type powTables struct {
	atanh   [24]dd // 1/(2k+1)
	invFact [12]dd // 1/n!
	logC    [92]dd // log(k/128), k = 90..181
	exp2    [64]dd // 2^(j/64)
}

var tables = sync.OnceValue(func() *powTables {
	t := &powTables{}
	for k := range t.atanh {
		t.atanh[k] = ddDiv(dd{1, 0}, dd{float64(2*k + 1), 0})
	}
	f := dd{1, 0}
	for n := range t.invFact {
		if n > 0 {
			f = ddMulF(f, float64(n))
		}
		t.invFact[n] = ddDiv(dd{1, 0}, f)
	}
	for k := range t.logC {
		t.logC[k] = ddLogSeries(t, float64(k+90)/128)
	}
	for j := range t.exp2 {
		t.exp2[j] = ddExpSlow(t, ddMulF(ln2DD, float64(j)/64))
	}
	return t
})

// ddLogSeries is log(m) for m in [sqrt(2)/2, sqrt(2)) by the series
// log(m) = 2·atanh(s), s = (m-1)/(m+1), |s| < 0.172 (for the tables).
func ddLogSeries(t *powTables, m float64) dd {
	s := ddDiv(dd{m - 1, 0}, twoSum(m, 1))
	s2 := ddMul(s, s)
	sum := t.atanh[len(t.atanh)-1]
	for k := len(t.atanh) - 2; k >= 0; k-- {
		sum = ddAdd(ddMul(sum, s2), t.atanh[k])
	}
	return ddMulF(ddMul(s, sum), 2)
}

// ddExpSlow is exp(r) for |r| < 1 as (exp(r/1024))^1024 (for the tables).
func ddExpSlow(t *powTables, r dd) dd {
	r = dd{r.hi / 1024, r.lo / 1024}
	sum := dd{1, 0}
	term := dd{1, 0}
	for n := 1; n < len(t.invFact); n++ {
		term = ddMul(term, r)
		sum = ddAdd(sum, ddMul(term, t.invFact[n]))
	}
	for i := 0; i < 10; i++ {
		sum = ddMul(sum, sum)
	}
	return sum
}

// ddLog is log(x) for finite x > 0, to about 2^-104 relative: with
// x = 2^e·m and c = k/128 the nearest table point to m,
// log(x) = e·log 2 + log(c) + 2·atanh((m-c)/(m+c)).
func ddLog(t *powTables, x float64) dd {
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	k := int(m*128 + 0.5)
	c := float64(k) / 128
	s := ddDiv(dd{m - c, 0}, twoSum(m, c)) // m - c is exact
	s2 := ddMul(s, s)
	sum := t.atanh[6]
	for i := 5; i >= 0; i-- {
		sum = ddAdd(ddMul(sum, s2), t.atanh[i])
	}
	l := ddAdd(t.logC[k-90], ddMulF(ddMul(s, sum), 2))
	return ddAdd(ddMulF(ln2DD, float64(e)), l)
}

// powAbs is x^y for finite x > 0, x != 1, and finite y != 0.
func powAbs(x, y float64) float64 {
	tb := tables()
	t := ddMulF(ddLog(tb, x), y)
	switch {
	case t.hi > 710:
		return math.Inf(1)
	case t.hi < -746:
		return 0
	}
	// exp(t) = 2^n · 2^(j/64) · exp(r), |r| <= log(2)/128.
	k := math.Round(t.hi * (64 / ln2DD.hi))
	r := ddAdd(t, ddMulF(dd{ln2DD.hi / 64, ln2DD.lo / 64}, -k))
	sum := tb.invFact[len(tb.invFact)-1]
	for n := len(tb.invFact) - 2; n >= 0; n-- {
		sum = ddAdd(ddMul(sum, r), tb.invFact[n])
	}
	ki := int(k)
	j := ki & 63
	n := (ki - j) / 64
	sum = ddMul(sum, tb.exp2[j])
	v := sum.hi + sum.lo
	if e := math.Ilogb(v) + n; e >= -1022 && e <= 1023 {
		return math.Ldexp(v, n)
	}
	// Near overflow or in the subnormal range: scale exactly and round
	// once.
	f := new(big.Float).SetPrec(200).SetFloat64(sum.hi)
	f.Add(f, new(big.Float).SetFloat64(sum.lo))
	f.SetMantExp(f, n)
	res, _ := f.Float64()
	return res
}
