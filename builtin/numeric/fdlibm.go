package numeric

import "math"

// The elementary functions of Math, computed the way V8 computes them so
// that results agree to the last bit: V8's base::ieee754 is a port of
// fdlibm (in its FreeBSD msun form), and these are ports of the same
// algorithms. The Go standard library's versions differ in the last place
// for a large share of arguments (some are Cephes-based, some use assembly
// on amd64).
//
// Products that feed an addition are wrapped in float64(...) so that no
// platform fuses them into an FMA, which would change the rounding.
//
// The algorithms and coefficients are from fdlibm:
//
//	Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
//	Developed at SunPro, a Sun Microsystems, Inc. business.
//	Permission to use, copy, modify, and distribute this
//	software is freely granted, provided that this notice
//	is preserved.

func highWord(x float64) uint32 { return uint32(math.Float64bits(x) >> 32) }

func lowWord(x float64) uint32 { return uint32(math.Float64bits(x)) }

func fromWords(hi, lo uint32) float64 {
	return math.Float64frombits(uint64(hi)<<32 | uint64(lo))
}

// clearLow zeroes the low 32 bits of x's representation.
func clearLow(x float64) float64 { return fromWords(highWord(x), 0) }

const (
	ln2Hi = 6.93147180369123816490e-01 // 0x3fe62e42 fee00000
	ln2Lo = 1.90821492927058770002e-10 // 0x3dea39ef 35793c76
	two54 = 1.80143985094819840000e+16 // 0x43500000 00000000

	lg1 = 6.666666666666735130e-01 // 0x3FE55555 55555593
	lg2 = 3.999999999940941908e-01 // 0x3FD99999 9997FA04
	lg3 = 2.857142874366239149e-01 // 0x3FD24924 94229359
	lg4 = 2.222219843214978396e-01 // 0x3FCC71C5 1D8E78AF
	lg5 = 1.818357216161805012e-01 // 0x3FC74664 96CB03DE
	lg6 = 1.531383769920937332e-01 // 0x3FC39A09 D078C69F
	lg7 = 1.479819860511658591e-01 // 0x3FC2F112 DF3E5244
)

// exp is e_exp.c.
func exp(x float64) float64 {
	const (
		oThreshold = 7.09782712893383973096e+02
		uThreshold = -7.45133219101941108420e+02
		invln2     = 1.44269504088896338700e+00
		p1         = 1.66666666666666019037e-01 // 0x3FC55555 5555553E
		p2         = -2.77777777770155933842e-03
		p3         = 6.61375632143793436117e-05
		p4         = -1.65339022054652515390e-06
		p5         = 4.13813679705723846039e-08
	)
	hx := highWord(x)
	neg := hx>>31 != 0
	hx &= 0x7fffffff
	if hx >= 0x40862E42 { // |x| >= 709.78...
		if hx >= 0x7ff00000 {
			if math.IsNaN(x) {
				return x
			}
			if neg {
				return 0
			}
			return x
		}
		if x > oThreshold {
			return math.Inf(1)
		}
		if x < uThreshold {
			return 0
		}
	}
	var hi, lo float64
	k := 0
	switch {
	case hx > 0x3fd62e42: // |x| > 0.5 ln2
		if hx < 0x3FF0A2B2 { // and < 1.5 ln2
			if x == 1 {
				// V8 returns e itself here: the general path gets the last
				// bit wrong.
				return math.E
			}
			if neg {
				hi, lo, k = x+ln2Hi, -ln2Lo, -1
			} else {
				hi, lo, k = x-ln2Hi, ln2Lo, 1
			}
		} else {
			half := 0.5
			if neg {
				half = -0.5
			}
			k = int(float64(invln2*x) + half)
			t := float64(k)
			hi = x - float64(t*ln2Hi)
			lo = t * ln2Lo
		}
		x = hi - lo
	case hx < 0x3e300000: // |x| < 2^-28
		return 1 + x
	}
	t := x * x
	c := x - float64(t*float64(p1+float64(t*float64(p2+float64(t*float64(p3+float64(t*float64(p4+float64(t*p5)))))))))
	if k == 0 {
		return 1 - (float64(x*c)/(c-2) - x)
	}
	y := 1 - ((lo - float64(x*c)/(2-c)) - hi)
	if k >= -1021 {
		if k == 1024 {
			return y * 2 * 0x1p1023
		}
		return y * fromWords(uint32(0x3ff00000+k<<20), 0)
	}
	return y * fromWords(uint32(0x3ff00000+(k+1000)<<20), 0) * 0x1p-1000
}

// logReduce splits x > 0 (finite) into k and f with x = 2^k (1+f),
// 1+f in [sqrt(2)/2, sqrt(2)); hx is the high word of 1+f's fraction
// part as e_log.c keeps it.
func logReduce(x float64) (k int, f float64, hx uint32) {
	h := highWord(x)
	if h < 0x00100000 { // subnormal
		k = -54
		x *= two54
		h = highWord(x)
	}
	k += int(h>>20) - 1023
	h &= 0x000fffff
	i := (h + 0x95f64) & 0x100000
	x = fromWords(h|(i^0x3ff00000), lowWord(x)) // normalize x or x/2
	k += int(i >> 20)
	return k, x - 1, h
}

// log is e_log.c.
func log(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x == 0:
		return math.Inf(-1)
	case x < 0:
		return math.NaN()
	}
	k, f, hx := logReduce(x)
	dk := float64(k)
	if (0x000fffff & (2 + hx)) < 3 { // -2^-20 <= f < 2^-20
		if f == 0 {
			if k == 0 {
				return 0
			}
			return float64(dk*ln2Hi) + float64(dk*ln2Lo)
		}
		r := float64(f*f) * (0.5 - float64(0.33333333333333333*f))
		if k == 0 {
			return f - r
		}
		return float64(dk*ln2Hi) - ((r - float64(dk*ln2Lo)) - f)
	}
	s := f / (2 + f)
	z := s * s
	i := int32(hx) - 0x6147a
	w := z * z
	j := 0x6b851 - int32(hx)
	t1 := w * float64(lg2+float64(w*float64(lg4+float64(w*lg6))))
	t2 := z * float64(lg1+float64(w*float64(lg3+float64(w*float64(lg5+float64(w*lg7))))))
	i |= j
	r := t2 + t1
	if i > 0 {
		hfsq := 0.5 * f * f
		if k == 0 {
			return f - (hfsq - float64(s*(hfsq+r)))
		}
		return float64(dk*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(dk*ln2Lo))) - f)
	}
	if k == 0 {
		return f - float64(s*(f-r))
	}
	return float64(dk*ln2Hi) - ((float64(s*(f-r)) - float64(dk*ln2Lo)) - f)
}

// kLog1p is k_log.h's k_log1p: log(1+f) - f + f*f/2 for 1+f in
// [sqrt(2)/2, sqrt(2)).
func kLog1p(f float64) float64 {
	s := f / (2 + f)
	z := s * s
	w := z * z
	t1 := w * float64(lg2+float64(w*float64(lg4+float64(w*lg6))))
	t2 := z * float64(lg1+float64(w*float64(lg3+float64(w*float64(lg5+float64(w*lg7))))))
	r := t2 + t1
	hfsq := 0.5 * f * f
	return s * (hfsq + r)
}

// log2 is FreeBSD's e_log2.c.
func log2(x float64) float64 {
	const (
		ivln2hi = 1.44269504072144627571e+00 // 0x3ff71547 65200000
		ivln2lo = 1.67517131648865118353e-10 // 0x3de705fc 2eefa200
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x == 0:
		return math.Inf(-1)
	case x < 0:
		return math.NaN()
	case x == 1:
		return 0
	}
	k, f, _ := logReduce(x)
	y := float64(k)
	hfsq := 0.5 * f * f
	r := kLog1p(f)
	hi := clearLow(f - hfsq)
	lo := (f - hi) - hfsq + r
	valHi := hi * ivln2hi
	valLo := float64((lo+hi)*ivln2lo) + float64(lo*ivln2hi)
	w := y + valHi
	valLo += (y - w) + valHi
	valHi = w
	return valLo + valHi
}

// log10 is fdlibm's e_log10.c: log10(x) = n·log10(2) + log10(e)·log(x/2^n).
func log10(x float64) float64 {
	const (
		ivln10    = 4.34294481903251816668e-01 // 0x3FDBCB7B 1526E50E
		log10_2hi = 3.01029995663611771306e-01 // 0x3FD34413 509F6000
		log10_2lo = 3.69423907715893078616e-13 // 0x3D59FEF3 11F12B36
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x == 0:
		return math.Inf(-1)
	case x < 0:
		return math.NaN()
	case x == 1:
		return 0
	}
	k := 0
	hx := highWord(x)
	if hx < 0x00100000 { // subnormal
		k = -54
		x *= two54
		hx = highWord(x)
	}
	k += int(hx>>20) - 1023
	i := uint32(0)
	if k < 0 {
		i = 1
	}
	hx = hx&0x000fffff | (0x3ff-i)<<20
	y := float64(k + int(i))
	x = fromWords(hx, lowWord(x))
	z := float64(y*log10_2lo) + float64(ivln10*log(x))
	return z + float64(y*log10_2hi)
}

// The inverse trigonometric functions.

var (
	atanHi = [4]float64{
		4.63647609000806093515e-01, // atan(0.5)hi 0x3FDDAC67 0561BB4F
		7.85398163397448278999e-01, // atan(1.0)hi 0x3FE921FB 54442D18
		9.82793723247329054082e-01, // atan(1.5)hi 0x3FEF730B D281F69B
		1.57079632679489655800e+00, // atan(inf)hi 0x3FF921FB 54442D18
	}
	atanLo = [4]float64{
		2.26987774529616870924e-17, // atan(0.5)lo 0x3C7A2B7F 222F65E2
		3.06161699786838301793e-17, // atan(1.0)lo 0x3C81A626 33145C07
		1.39033110312309984516e-17, // atan(1.5)lo 0x3C700788 7AF0CBBD
		6.12323399573676603587e-17, // atan(inf)lo 0x3C91A626 33145C07
	}
	aT = [11]float64{
		3.33333333333329318027e-01,  // 0x3FD55555 5555550D
		-1.99999999998764832476e-01, // 0xBFC99999 9998EBC4
		1.42857142725034663711e-01,  // 0x3FC24924 920083FF
		-1.11111104054623557880e-01, // 0xBFBC71C6 FE231671
		9.09088713343650656196e-02,  // 0x3FB745CD C54C206E
		-7.69187620504482999495e-02, // 0xBFB3B0F2 AF749A6D
		6.66107313738753120669e-02,  // 0x3FB10D66 A0D03D51
		-5.83357013379057348645e-02, // 0xBFADDE2D 52DEFD9A
		4.97687799461593236017e-02,  // 0x3FA97B4B 24760DEB
		-3.65315727442169155270e-02, // 0xBFA2B444 2C6A6C2F
		1.62858201153657823623e-02,  // 0x3F90AD3A E322DA11
	}
)

// atan is s_atan.c.
func atan(x float64) float64 {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix >= 0x44100000 { // |x| >= 2^66
		if math.IsNaN(x) {
			return x
		}
		if hx>>31 == 0 {
			return atanHi[3] + atanLo[3]
		}
		return -atanHi[3] - atanLo[3]
	}
	id := -1
	if ix < 0x3fdc0000 { // |x| < 0.4375
		if ix < 0x3e400000 { // |x| < 2^-27
			return x
		}
	} else {
		x = math.Abs(x)
		if ix < 0x3ff30000 { // |x| < 1.1875
			if ix < 0x3fe60000 { // 7/16 <= |x| < 11/16
				id = 0
				x = (2*x - 1) / (2 + x)
			} else { // 11/16 <= |x| < 19/16
				id = 1
				x = (x - 1) / (x + 1)
			}
		} else {
			if ix < 0x40038000 { // |x| < 2.4375
				id = 2
				x = (x - 1.5) / (1 + float64(1.5*x))
			} else { // 2.4375 <= |x| < 2^66
				id = 3
				x = -1 / x
			}
		}
	}
	z := x * x
	w := z * z
	s1 := z * float64(aT[0]+float64(w*float64(aT[2]+float64(w*float64(aT[4]+float64(w*float64(aT[6]+float64(w*float64(aT[8]+float64(w*aT[10]))))))))))
	s2 := w * float64(aT[1]+float64(w*float64(aT[3]+float64(w*float64(aT[5]+float64(w*float64(aT[7]+float64(w*aT[9]))))))))
	if id < 0 {
		return x - float64(x*(s1+s2))
	}
	z = atanHi[id] - ((float64(x*(s1+s2)) - atanLo[id]) - x)
	if hx>>31 != 0 {
		return -z
	}
	return z
}

// atan2 is e_atan2.c.
func atan2(y, x float64) float64 {
	const (
		tiny  = 1.0e-300
		pio4  = 7.8539816339744827900e-01
		pio2  = 1.5707963267948965580e+00
		pi    = 3.1415926535897931160e+00
		piLo  = 1.2246467991473531772e-16
		three = 3.0
	)
	if math.IsNaN(x) || math.IsNaN(y) {
		return x + y
	}
	if x == 1 {
		return atan(y)
	}
	hx, hy := highWord(x), highWord(y)
	ix, iy := hx&0x7fffffff, hy&0x7fffffff
	m := (hy >> 31 & 1) | (hx >> 30 & 2) // 2*sign(x) + sign(y)
	if y == 0 {
		switch m {
		case 0, 1:
			return y
		case 2:
			return pi + tiny
		default:
			return -pi - tiny
		}
	}
	if x == 0 {
		if hy>>31 != 0 {
			return -pio2 - tiny
		}
		return pio2 + tiny
	}
	if math.IsInf(x, 0) {
		if math.IsInf(y, 0) {
			switch m {
			case 0:
				return pio4 + tiny
			case 1:
				return -pio4 - tiny
			case 2:
				return three*pio4 + tiny
			default:
				return -three*pio4 - tiny
			}
		}
		switch m {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return pi + tiny
		default:
			return -pi - tiny
		}
	}
	if math.IsInf(y, 0) {
		if hy>>31 != 0 {
			return -pio2 - tiny
		}
		return pio2 + tiny
	}
	k := (int32(iy) - int32(ix)) >> 20
	var z float64
	switch {
	case k > 60: // |y/x| > 2^60
		z = pio2 + 0.5*piLo
		m &= 1
	case hx>>31 != 0 && k < -60: // |y|/x < -2^60
		z = 0
	default:
		z = atan(math.Abs(y / x))
	}
	switch m {
	case 0:
		return z
	case 1:
		return -z
	case 2:
		return pi - (z - piLo)
	}
	return (z - piLo) - pi
}

const (
	pio2Hi = 1.57079632679489655800e+00 // 0x3FF921FB 54442D18
	pio2Lo = 6.12323399573676603587e-17 // 0x3C91A626 33145C07
	pio4Hi = 7.85398163397448278999e-01 // 0x3FE921FB 54442D18

	pS0 = 1.66666666666666657415e-01  // 0x3FC55555 55555555
	pS1 = -3.25565818622400915405e-01 // 0xBFD4D612 03EB6F7D
	pS2 = 2.01212532134862925881e-01  // 0x3FC9C155 0E884455
	pS3 = -4.00555345006794114027e-02 // 0xBFA48228 B5688F3B
	pS4 = 7.91534994289814532176e-04  // 0x3F49EFE0 7501B288
	pS5 = 3.47933107596021167570e-05  // 0x3F023DE1 0DFDF709
	qS1 = -2.40339491173441421878e+00 // 0xC0033A27 1C8A2D4B
	qS2 = 2.02094576023350569471e+00  // 0x40002AE5 9C598AC8
	qS3 = -6.88283971605453293030e-01 // 0xBFE6066C 1B8D0159
	qS4 = 7.70381505559019352791e-02  // 0x3FB3B8C5 B12E9282
)

// asinRatio is the rational approximation R(t) = p(t)/q(t) of e_asin.c
// and e_acos.c.
func asinRatio(t float64) (p, q float64) {
	p = t * float64(pS0+float64(t*float64(pS1+float64(t*float64(pS2+float64(t*float64(pS3+float64(t*float64(pS4+float64(t*pS5))))))))))
	q = 1 + float64(t*float64(qS1+float64(t*float64(qS2+float64(t*float64(qS3+float64(t*qS4)))))))
	return p, q
}

// asin is e_asin.c.
func asin(x float64) float64 {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix >= 0x3ff00000 { // |x| >= 1
		if ix == 0x3ff00000 && lowWord(x) == 0 { // asin(±1) = ±pi/2
			return float64(x*pio2Hi) + float64(x*pio2Lo)
		}
		return math.NaN()
	}
	if ix < 0x3fe00000 { // |x| < 0.5
		if ix < 0x3e400000 { // |x| < 2^-27
			return x
		}
		t := x * x
		p, q := asinRatio(t)
		w := p / q
		return x + float64(x*w)
	}
	// 1 > |x| >= 0.5
	w := 1 - math.Abs(x)
	t := w * 0.5
	p, q := asinRatio(t)
	s := math.Sqrt(t)
	if ix >= 0x3FEF3333 { // |x| > 0.975
		w = p / q
		t = pio2Hi - (2*(s+float64(s*w)) - pio2Lo)
	} else {
		w = clearLow(s)
		c := (t - float64(w*w)) / (s + w)
		r := p / q
		p = float64(2*s*r) - (pio2Lo - 2*c)
		q = pio4Hi - 2*w
		t = pio4Hi - (p - q)
	}
	if hx>>31 == 0 {
		return t
	}
	return -t
}

// acos is e_acos.c.
func acos(x float64) float64 {
	const pi = 3.14159265358979311600e+00
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix >= 0x3ff00000 { // |x| >= 1
		if ix == 0x3ff00000 && lowWord(x) == 0 {
			if hx>>31 == 0 {
				return 0
			}
			return pi + 2*pio2Lo
		}
		return math.NaN()
	}
	if ix < 0x3fe00000 { // |x| < 0.5
		if ix <= 0x3c600000 { // |x| < 2^-57
			return pio2Hi + pio2Lo
		}
		z := x * x
		p, q := asinRatio(z)
		r := p / q
		return pio2Hi - (x - (pio2Lo - float64(x*r)))
	}
	if hx>>31 != 0 { // x < -0.5
		z := (1 + x) * 0.5
		p, q := asinRatio(z)
		s := math.Sqrt(z)
		r := p / q
		w := float64(r*s) - pio2Lo
		return pi - 2*(s+w)
	}
	// x > 0.5
	z := (1 - x) * 0.5
	s := math.Sqrt(z)
	df := clearLow(s)
	c := (z - float64(df*df)) / (s + df)
	p, q := asinRatio(z)
	r := p / q
	w := float64(r*s) + c
	return 2 * (df + w)
}

// acosh is e_acosh.c.
func acosh(x float64) float64 {
	hx := highWord(x)
	switch {
	case math.IsNaN(x):
		return x
	case hx>>31 != 0 || hx < 0x3ff00000: // x < 1
		return math.NaN()
	case hx >= 0x41b00000: // x > 2^28
		if hx >= 0x7ff00000 {
			return x
		}
		return log(x) + ln2
	case x == 1:
		return 0
	case hx > 0x40000000: // 2 < x < 2^28
		t := x * x
		return log(2*x - 1/(x+math.Sqrt(t-1)))
	}
	t := x - 1 // 1 < x <= 2
	return log1p(t + math.Sqrt(2*t+float64(t*t)))
}

const ln2 = 6.93147180559945286227e-01 // 0x3FE62E42 FEFA39EF

// asinh is s_asinh.c.
func asinh(x float64) float64 {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix >= 0x7ff00000 {
		return x + x
	}
	if ix < 0x3e300000 { // |x| < 2^-28
		return x
	}
	var w float64
	switch {
	case ix > 0x41b00000: // |x| > 2^28
		w = log(math.Abs(x)) + ln2
	case ix > 0x40000000: // 2 < |x| <= 2^28
		t := math.Abs(x)
		w = log(2*t + 1/(math.Sqrt(float64(x*x)+1)+t))
	default: // 2^-28 <= |x| <= 2
		t := x * x
		w = log1p(math.Abs(x) + t/(1+math.Sqrt(1+t)))
	}
	if hx>>31 != 0 {
		return -w
	}
	return w
}

// atanh is e_atanh.c.
func atanh(x float64) float64 {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	ax := math.Abs(x)
	switch {
	case math.IsNaN(x):
		return x
	case ax > 1:
		return math.NaN()
	case ax == 1:
		return math.Copysign(math.Inf(1), x)
	case ix < 0x3e300000: // |x| < 2^-28
		return x
	}
	var t float64
	if ix < 0x3fe00000 { // |x| < 0.5
		t = ax + ax
		t = 0.5 * log1p(t+t*ax/(1-ax))
	} else {
		t = 0.5 * log1p((ax+ax)/(1-ax))
	}
	if hx>>31 != 0 {
		return -t
	}
	return t
}

// cbrt is FreeBSD's s_cbrt.c.
func cbrt(x float64) float64 {
	const (
		b1 = 715094163                // (1023-1023/3-0.03306235651)*2^20
		b2 = 696219795                // (1023-1023/3-54/3-0.03306235651)*2^20
		p0 = 1.87595182427177009643   // 0x3ffe03e6 0f61e692
		p1 = -1.88497979543377169875  // 0xbffe28e0 92f02420
		p2 = 1.621429720105354466140  // 0x3ff9f160 4a49d6c2
		p3 = -0.758397934778766047437 // 0xbfe844cb bee751d9
		p4 = 0.145996192886612446982  // 0x3fc2b000 d4e4edd7
	)
	hx := highWord(x)
	sign := hx & 0x80000000
	hx &= 0x7fffffff
	if hx >= 0x7ff00000 {
		return x + x
	}
	var t float64
	if hx < 0x00100000 { // zero or subnormal
		if hx == 0 && lowWord(x) == 0 {
			return x
		}
		t = x * 0x1p54
		high := highWord(t) & 0x7fffffff
		t = fromWords(sign|(high/3+b2), 0)
	} else {
		t = fromWords(sign|(hx/3+b1), 0)
	}
	// New cbrt to 23 bits: cbrt(x) = t*cbrt(x/t**3) ~= t*P(t**3/x).
	r := float64(t*t) * (t / x)
	t = t * (float64(p0+float64(r*float64(p1+float64(r*p2)))) + float64(float64(float64(r*r)*r)*float64(p3+float64(r*p4))))
	// Round t away from zero to 23 bits.
	t = math.Float64frombits((math.Float64bits(t) + 0x80000000) & 0xffffffffc0000000)
	// One Newton step to 53 bits.
	s := t * t
	r = x / s
	w := t + t
	r = (r - t) / (w + r)
	return t + float64(t*r)
}

// The hyperbolic functions.

// sinh is e_sinh.c.
func sinh(x float64) float64 {
	const overflow = 710.4758600739439 // past this, sinh overflows
	h := 0.5
	if x < 0 {
		h = -0.5
	}
	ax := math.Abs(x)
	switch {
	case math.IsNaN(x):
		return x
	case ax < 22:
		if ax < 0x1p-28 {
			return x
		}
		t := expm1(ax)
		if ax < 1 {
			return h * (2*t - float64(t*t)/(t+1))
		}
		return h * (t + t/(t+1))
	case ax < 709.7822265625: // log(MaxFloat64), rounded
		return h * exp(ax)
	case ax <= overflow:
		w := exp(0.5 * ax)
		t := h * w
		return t * w
	}
	return x * 1e307
}

// cosh is e_cosh.c.
func cosh(x float64) float64 {
	const overflow = 710.4758600739439
	ix := highWord(x) & 0x7fffffff
	ax := math.Abs(x)
	switch {
	case ix < 0x3fd62e43: // |x| < 0.5 ln2
		t := expm1(ax)
		w := 1 + t
		if ix < 0x3c800000 { // |x| < 2^-55
			return w
		}
		return 1 + float64(t*t)/(w+w)
	case ix < 0x40360000: // |x| < 22
		t := exp(ax)
		return float64(0.5*t) + 0.5/t
	case ix < 0x40862E42: // |x| < log(MaxFloat64)
		return 0.5 * exp(ax)
	case ax <= overflow:
		w := exp(0.5 * ax)
		t := 0.5 * w
		return t * w
	case math.IsNaN(x):
		return x
	}
	return math.Inf(1)
}

// tanh is s_tanh.c.
func tanh(x float64) float64 {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix >= 0x7ff00000 {
		if math.IsNaN(x) {
			return x
		}
		if hx>>31 == 0 {
			return 1
		}
		return -1
	}
	var z float64
	switch {
	case ix < 0x3e300000: // |x| < 2^-28
		return x
	case ix < 0x3ff00000: // |x| < 1
		t := expm1(-2 * math.Abs(x))
		z = -t / (t + 2)
	case ix < 0x40360000: // |x| < 22
		t := expm1(2 * math.Abs(x))
		z = 1 - 2/(t+2)
	default:
		z = 1
	}
	if hx>>31 != 0 {
		return -z
	}
	return z
}

// expm1 and log1p: the Go library's are fdlibm's algorithms and agree
// with V8, except that Go's expm1 overflows one value early (fdlibm
// overflows only above the threshold, where exp does too).
func expm1(x float64) float64 {
	if x == 7.09782712893383973096e+02 {
		return exp(x) - 1
	}
	return math.Expm1(x)
}

func log1p(x float64) float64 { return math.Log1p(x) }
