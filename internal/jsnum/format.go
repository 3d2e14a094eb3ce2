package jsnum

import (
	"math"
	"strconv"
)

// digitChars are the digits used for radixes up to 36, as V8 prints them.
const digitChars = "0123456789abcdefghijklmnopqrstuvwxyz"

// Format returns Number::toString(f) (ECMA-262 §6.1.6.1.20) for radix 10:
// "NaN", "Infinity", "-Infinity", "0" for both zeros, and otherwise the
// shortest digit string that round-trips to f, laid out in plain notation
// when 1e-6 <= |f| < 1e21 ("0.000001", "100000000000000000000") and in
// exponential notation elsewhere ("1e+21", "9.5e-7").
func Format(f float64) string {
	switch {
	case f != f:
		return "NaN"
	case f == 0:
		return "0"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	// Integers below 2^53 are printed exactly, which FormatInt does quickly.
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10)
	}
	var buf [40]byte
	return string(appendShortest(buf[:0], f))
}

// shortestDigits returns the shortest round-trip decimal digits of the finite
// positive x and the exponent n such that x = 0.digits × 10^n (the spec's n).
// The digits are appended to dst, which is returned.
func shortestDigits(dst []byte, x float64) ([]byte, int) {
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], x, 'e', -1, 64) // "d.ddddde±xx"
	i := 0
	for ; i < len(e) && e[i] != 'e'; i++ {
		if e[i] != '.' {
			dst = append(dst, e[i])
		}
	}
	exp, _ := strconv.Atoi(string(e[i+1:]))
	return dst, exp + 1
}

// appendShortest appends Number::toString(x) for a finite, non-zero x.
func appendShortest(dst []byte, x float64) []byte {
	if x < 0 {
		dst = append(dst, '-')
		x = -x
	}
	var dbuf [24]byte
	d, n := shortestDigits(dbuf[:0], x)
	k := len(d)
	switch {
	case k <= n && n <= 21:
		// Integer: digits followed by n-k zeros.
		dst = append(dst, d...)
		for i := k; i < n; i++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, d[:n]...)
		dst = append(dst, '.')
		dst = append(dst, d[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for i := n; i < 0; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, d...)
	default:
		dst = append(dst, d[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		dst = appendExponent(dst, n-1)
	}
	return dst
}

// appendExponent appends "e+E" or "e-E" as the spec's exponential notation does.
func appendExponent(dst []byte, e int) []byte {
	dst = append(dst, 'e')
	if e < 0 {
		dst = append(dst, '-')
		e = -e
	} else {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(e), 10)
}

// FormatRadix returns Number.prototype.toString(radix) (ECMA-262 §21.1.3.6)
// for f. Radix 10 is Format; the other radixes reproduce V8's output digit
// for digit, including fractional digits, which V8 generates only as far as
// the precision of f warrants and rounds half to even. FormatRadix panics if
// radix is outside 2..36 (callers throw a RangeError before calling it).
func FormatRadix(f float64, radix int) string {
	if radix < 2 || radix > 36 {
		panic("jsnum: FormatRadix radix out of range: " + strconv.Itoa(radix))
	}
	if radix == 10 || f != f || f == 0 || math.IsInf(f, 0) {
		return Format(f)
	}
	return doubleToRadix(f, radix)
}

// exponentOf returns V8's Double::Exponent: the power of two by which the
// 53-bit integer significand of d is scaled.
func exponentOf(d float64) int {
	biased := int(math.Float64bits(d) >> 52 & 0x7ff)
	if biased == 0 {
		return -1074
	}
	return biased - 1075
}

// doubleToRadix is a transcription of V8's DoubleToRadixCString
// (src/numbers/conversions.cc; Copyright the V8 project authors, used under
// V8's BSD-style license) for finite, non-zero values. The explicit
// float64 conversions keep the compiler from fusing multiply-adds, so every
// operation is rounded exactly as in the C++ original.
func doubleToRadix(value float64, radix int) string {
	// Room for 1024 integer digits, 1100 fraction digits, sign and point.
	var buf [2200]byte
	const mid = len(buf) / 2
	intCur, fracCur := mid, mid
	r := float64(radix)

	negative := value < 0
	if negative {
		value = -value
	}
	integer := math.Floor(value)
	fraction := value - integer
	// Only compute fractional digits up to the input double's precision.
	delta := 0.5 * (math.Nextafter(value, math.Inf(1)) - value)
	delta = math.Max(math.SmallestNonzeroFloat64, delta)
	if fraction >= delta {
		buf[fracCur] = '.'
		fracCur++
		for {
			fraction = float64(fraction * r)
			delta = float64(delta * r)
			digit := int(fraction)
			buf[fracCur] = digitChars[digit]
			fracCur++
			fraction = float64(fraction - float64(digit))
			// Round to even.
			if fraction > 0.5 || (fraction == 0.5 && digit&1 != 0) {
				if fraction+delta > 1 {
					// Propagate the carry through the digits written so far.
					for {
						fracCur--
						if fracCur == mid {
							integer++ // carry into the integer part; drop the point
							break
						}
						d := digitValue(buf[fracCur])
						if d+1 < radix {
							buf[fracCur] = digitChars[d+1]
							fracCur++
							break
						}
					}
					break
				}
			}
			if !(fraction >= delta) {
				break
			}
		}
	}
	// Integer digits; digits below the double's precision are zeros.
	for exponentOf(integer/r) > 0 {
		integer /= r
		intCur--
		buf[intCur] = '0'
	}
	for {
		rem := math.Mod(integer, r)
		intCur--
		buf[intCur] = digitChars[int(rem)]
		integer = (integer - rem) / r
		if !(integer > 0) {
			break
		}
	}
	if negative {
		intCur--
		buf[intCur] = '-'
	}
	return string(buf[intCur:fracCur])
}

// digitValue returns the value of an ASCII digit or letter in radix 36, or
// 36 for any other byte.
func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'z':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'Z':
		return int(c-'A') + 10
	}
	return 36
}
