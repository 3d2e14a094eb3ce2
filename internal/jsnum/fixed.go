package jsnum

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// ToFixed implements Number.prototype.toFixed(digits) (ECMA-262 §21.1.3.3)
// for the Number f. The boolean is false when digits is outside 0..100, in
// which case the caller throws a RangeError; the range is checked before f
// is examined, as the spec does (so NaN with 101 digits is an error). Values
// with |f| >= 1e21 are formatted with Format. Otherwise the result is the
// exact value of f rounded to digits fraction digits, ties away from zero.
func ToFixed(f float64, digits int) (string, bool) {
	if digits < 0 || digits > 100 {
		return "", false
	}
	if f != f {
		return "NaN", true
	}
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	if f >= 1e21 { // includes +Inf
		return sign + Format(f), true
	}
	// m holds the decimal digits of n = round(f × 10^digits).
	var m []byte
	if f != 0 {
		d, p := exactDecimal(f)
		d, p = roundDigits(d, p, p+digits)
		m = padDigits(d, p+digits)
	}
	if len(m) == 0 {
		m = []byte{'0'}
	}
	if digits == 0 {
		return sign + string(m), true
	}
	var b strings.Builder
	b.Grow(len(sign) + len(m) + digits + 2)
	b.WriteString(sign)
	if k := len(m); k <= digits {
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", digits-k))
		b.Write(m)
	} else {
		b.Write(m[:k-digits])
		b.WriteByte('.')
		b.Write(m[k-digits:])
	}
	return b.String(), true
}

// ToPrecision implements Number.prototype.toPrecision(precision)
// (ECMA-262 §21.1.3.5) for a precision that is not undefined (an undefined
// precision is plain Format). NaN and the infinities are formatted before the
// range is checked, as the spec does; otherwise the boolean is false when
// precision is outside 1..100 and the caller throws a RangeError.
func ToPrecision(f float64, precision int) (string, bool) {
	if f != f || math.IsInf(f, 0) {
		return Format(f), true
	}
	if precision < 1 || precision > 100 {
		return "", false
	}
	p := precision
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	var m []byte
	e := 0
	if f == 0 {
		m = []byte(strings.Repeat("0", p))
	} else {
		d, pt := exactDecimal(f)
		m, pt = roundDigits(d, pt, p)
		e = pt - 1
	}
	var b strings.Builder
	b.Grow(len(sign) + p + 10)
	b.WriteString(sign)
	switch {
	case e < -6 || e >= p:
		b.WriteByte(m[0])
		if p != 1 {
			b.WriteByte('.')
			b.Write(m[1:])
		}
		var tmp [8]byte
		b.Write(appendExponent(tmp[:0], e))
	case e == p-1:
		b.Write(m)
	case e >= 0:
		b.Write(m[:e+1])
		b.WriteByte('.')
		b.Write(m[e+1:])
	default:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -(e + 1)))
		b.Write(m)
	}
	return b.String(), true
}

// ToExponential implements Number.prototype.toExponential(fractionDigits)
// (ECMA-262 §21.1.3.2). When hasDigits is false (fractionDigits undefined)
// digits is ignored and as many digits as necessary to represent f uniquely
// are used. NaN and the infinities are formatted before the range is
// checked; otherwise the boolean is false when hasDigits is true and digits
// is outside 0..100, and the caller throws a RangeError.
func ToExponential(f float64, digits int, hasDigits bool) (string, bool) {
	if f != f || math.IsInf(f, 0) {
		return Format(f), true
	}
	if hasDigits && (digits < 0 || digits > 100) {
		return "", false
	}
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	var m []byte
	e := 0
	switch {
	case f == 0:
		if !hasDigits {
			digits = 0
		}
		m = []byte(strings.Repeat("0", digits+1))
	case hasDigits:
		d, pt := exactDecimal(f)
		m, pt = roundDigits(d, pt, digits+1)
		e = pt - 1
	default:
		var n int
		m, n = shortestDigits(nil, f)
		e = n - 1
	}
	var b strings.Builder
	b.Grow(len(sign) + len(m) + 8)
	b.WriteString(sign)
	b.WriteByte(m[0])
	if len(m) > 1 {
		b.WriteByte('.')
		b.Write(m[1:])
	}
	var tmp [8]byte
	b.Write(appendExponent(tmp[:0], e))
	return b.String(), true
}

// exactDecimal returns the exact decimal expansion of the finite, positive
// x: its significant digits d (no leading or trailing zeros) and the point
// position p such that x = 0.d × 10^p. Every double is a dyadic rational, so
// the expansion is finite (at most 767 significant digits).
func exactDecimal(x float64) ([]byte, int) {
	b := math.Float64bits(x)
	biased := int(b >> 52 & 0x7ff)
	mant := b & (1<<52 - 1)
	if biased == 0 {
		biased = 1
	} else {
		mant |= 1 << 52
	}
	e := biased - 1075 // x = mant × 2^e
	// With as many fraction digits as x has fractional bits, 'f' is exact.
	frac := 0
	if e < 0 {
		frac = max(0, -e-bits.TrailingZeros64(mant))
	}
	s := strconv.AppendFloat(make([]byte, 0, 32), x, 'f', frac, 64)
	p := len(s)
	if dot := strings.IndexByte(string(s), '.'); dot >= 0 {
		p = dot
		s = append(s[:dot], s[dot+1:]...)
	}
	i := 0
	for i < len(s) && s[i] == '0' {
		i++
	}
	s, p = s[i:], p-i
	j := len(s)
	for j > 0 && s[j-1] == '0' {
		j--
	}
	return s[:j], p
}

// roundDigits rounds the positive value 0.d × 10^p to keep significant
// digits, ties away from zero, and returns the rounded digits (exactly keep
// of them, zero padded, when keep >= 1) with the possibly incremented point
// position. For keep < 1 the result is either no digits (the value rounds to
// zero) or "1" one place above the rounding position.
func roundDigits(d []byte, p, keep int) ([]byte, int) {
	if keep < 0 {
		return nil, p
	}
	if keep == 0 {
		if len(d) > 0 && d[0] >= '5' {
			return []byte{'1'}, p + 1
		}
		return nil, p
	}
	out := padDigits(d, keep)
	if keep < len(d) && d[keep] >= '5' {
		i := keep - 1
		for i >= 0 && out[i] == '9' {
			out[i] = '0'
			i--
		}
		if i < 0 {
			out[0] = '1' // 99.9 -> 100: the rest are already zeros
			p++
		} else {
			out[i]++
		}
	}
	return out, p
}

// padDigits returns the first n digits of d, padded with zeros to length n.
func padDigits(d []byte, n int) []byte {
	if n <= 0 {
		return nil
	}
	out := make([]byte, n)
	c := copy(out, d)
	for i := c; i < n; i++ {
		out[i] = '0'
	}
	return out
}
