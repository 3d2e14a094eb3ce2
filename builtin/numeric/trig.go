package numeric

import (
	"math"
	"math/big"
	"sync"
)

// sin, cos and tan as fdlibm computes them (s_sin.c, s_cos.c, s_tan.c
// with the kernels k_sin.c, k_cos.c, k_tan.c and the argument reduction
// of e_rem_pio2.c). Arguments beyond 2^19·π/2 are reduced exactly with a
// long binary expansion of π (fdlibm's k_rem_pio2 does the same with a
// table of 2/π); both give the remainder to well beyond double-double
// precision.

// kernelSin is __kernel_sin(x, y, iy) on [-π/4, π/4]; y is the tail of
// x, iy says whether y is zero.
func kernelSin(x, y float64, iy int) float64 {
	const (
		s1 = -1.66666666666666324348e-01 // 0xBFC55555 55555549
		s2 = 8.33333333332248946124e-03  // 0x3F811111 1110F8A6
		s3 = -1.98412698298579493134e-04 // 0xBF2A01A0 19C161D5
		s4 = 2.75573137070700676789e-06  // 0x3EC71DE3 57B1FE7D
		s5 = -2.50507602534068634195e-08 // 0xBE5AE5E6 8A2B9CEB
		s6 = 1.58969099521155010221e-10  // 0x3DE5D93A 5ACFD57C
	)
	if highWord(x)&0x7fffffff < 0x3e400000 { // |x| < 2^-27
		return x
	}
	z := x * x
	v := z * x
	r := s2 + float64(z*float64(s3+float64(z*float64(s4+float64(z*float64(s5+float64(z*s6)))))))
	if iy == 0 {
		return x + float64(v*float64(s1+float64(z*r)))
	}
	return x - ((float64(z*(float64(0.5*y)-float64(v*r))) - y) - float64(v*s1))
}

// kernelCos is __kernel_cos(x, y) on [-π/4, π/4].
func kernelCos(x, y float64) float64 {
	const (
		c1 = 4.16666666666666019037e-02  // 0x3FA55555 5555554C
		c2 = -1.38888888888741095749e-03 // 0xBF56C16C 16C15177
		c3 = 2.48015872894767294178e-05  // 0x3EFA01A0 19CB1590
		c4 = -2.75573143513906633035e-07 // 0xBE927E4F 809C52AD
		c5 = 2.08757232129817482790e-09  // 0x3E21EE9E BDB4B1C4
		c6 = -1.13596475577881948265e-11 // 0xBDA8FAE9 BE8838D4
	)
	ix := highWord(x) & 0x7fffffff
	if ix < 0x3e400000 { // |x| < 2^-27
		return 1
	}
	z := x * x
	r := z * float64(c1+float64(z*float64(c2+float64(z*float64(c3+float64(z*float64(c4+float64(z*float64(c5+float64(z*c6))))))))))
	if ix < 0x3FD33333 { // |x| < 0.3
		return 1 - (float64(0.5*z) - (float64(z*r) - float64(x*y)))
	}
	var qx float64
	if ix > 0x3fe90000 { // |x| > 0.78125
		qx = 0.28125
	} else {
		qx = fromWords(ix-0x00200000, 0) // x/4
	}
	hz := float64(0.5*z) - qx
	a := 1 - qx
	return a - (hz - (float64(z*r) - float64(x*y)))
}

// kernelTan is __kernel_tan(x, y, k) on [-π/4, π/4]: tan(x+y) for k = 1,
// -1/tan(x+y) for k = -1.
func kernelTan(x, y float64, iy int) float64 {
	const (
		pio4   = 7.85398163397448278999e-01 // 0x3FE921FB 54442D18
		pio4lo = 3.06161699786838301793e-17 // 0x3C81A626 33145C07
	)
	t := [13]float64{
		3.33333333333334091986e-01,  // 0x3FD55555 55555563
		1.33333333333201242699e-01,  // 0x3FC11111 1110FE7A
		5.39682539762260521377e-02,  // 0x3FABA1BA 1BB341FE
		2.18694882948595424599e-02,  // 0x3F9664F4 8406D637
		8.86323982359930005737e-03,  // 0x3F8226E3 E96E8493
		3.59207910759131235356e-03,  // 0x3F6D6D22 C9560328
		1.45620945432529025516e-03,  // 0x3F57DBC8 FEE08315
		5.88041240820264096874e-04,  // 0x3F4344D8 F2F26501
		2.46463134818469906812e-04,  // 0x3F3026F7 1A8D1068
		7.81794442939557092300e-05,  // 0x3F147E88 A03792A6
		7.14072491382608190305e-05,  // 0x3F12B80F 32F0A7E9
		-1.85586374855275456654e-05, // 0xBEF375CB DB605373
		2.59073051863633712884e-05,  // 0x3EFB2A70 74BF7AD4
	}
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix < 0x3e300000 { // |x| < 2^-28
		if int(x) == 0 {
			if (ix|lowWord(x)) == 0 && iy == -1 {
				return 1 / math.Abs(x)
			} else if iy == 1 {
				return x
			}
			// -1/(x+y), computed carefully.
			w := x + y
			z := clearLow(w)
			v := y - (z - x)
			a := -1 / w
			tt := clearLow(a)
			s := 1 + float64(tt*z)
			return tt + float64(a*(s+float64(tt*v)))
		}
	}
	big := ix >= 0x3FE59428 // |x| >= 0.6744
	if big {
		if hx>>31 != 0 {
			x, y = -x, -y
		}
		z := pio4 - x
		w := pio4lo - y
		x = z + w
		y = 0
	}
	z := x * x
	w := z * z
	// Break x^5*(T[1]+x^2*T[2]+...) into odd and even powers of x^2.
	r := t[1] + float64(w*float64(t[3]+float64(w*float64(t[5]+float64(w*float64(t[7]+float64(w*float64(t[9]+float64(w*t[11])))))))))
	v := z * float64(t[2]+float64(w*float64(t[4]+float64(w*float64(t[6]+float64(w*float64(t[8]+float64(w*float64(t[10]+float64(w*t[12]))))))))))
	s := z * x
	r = y + float64(z*(float64(s*(r+v))+y))
	r += float64(t[0] * s)
	w = x + r
	if big {
		v = float64(iy)
		sign := 1.0
		if hx>>30&2 != 0 {
			sign = -1
		}
		return sign * (v - 2*(x-(float64(w*w)/(w+v)-r)))
	}
	if iy == 1 {
		return w
	}
	// -1/(x+r), computed carefully.
	z = clearLow(w)
	v = r - (z - x)
	a := -1 / w
	tt := clearLow(a)
	s = 1 + float64(tt*z)
	return tt + float64(a*(s+float64(tt*v)))
}

// npio2hw are the high words of n·π/2 for n = 1..32 (e_rem_pio2.c's
// table), where the medium reduction may lose bits to cancellation.
var npio2hw = func() (t [32]uint32) {
	for n := range t {
		t[n] = highWord(float64(n+1) * (math.Pi / 2))
	}
	return t
}()

// remPio2 is __ieee754_rem_pio2: x = n·π/2 + (y0 + y1) with |y0+y1| <=
// π/4; it returns n (mod 8 is all the callers need) and the remainder.
func remPio2(x float64) (n int, y0, y1 float64) {
	const (
		invpio2 = 6.36619772367581382433e-01 // 0x3FE45F30 6DC9C883
		pio2_1  = 1.57079632673412561417e+00 // 0x3FF921FB 54400000
		pio2_1t = 6.07710050650619224932e-11 // 0x3DD0B461 1A626331
		pio2_2  = 6.07710050630396597660e-11 // 0x3DD0B461 1A600000
		pio2_2t = 2.02226624879595063154e-21 // 0x3BA3198A 2E037073
		pio2_3  = 2.02226624871116645580e-21 // 0x3BA3198A 2E000000
		pio2_3t = 8.47842766036889956997e-32 // 0x397B839A 252049C1
	)
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix <= 0x3fe921fb { // |x| <= π/4: no reduction
		return 0, x, 0
	}
	if ix < 0x4002d97c { // |x| < 3π/4: special case of n = ±1
		if hx>>31 == 0 {
			z := x - pio2_1
			if ix != 0x3ff921fb { // 33+53 bits of π/2 suffice
				y0 = z - pio2_1t
				y1 = (z - y0) - pio2_1t
			} else { // near π/2: use 33+33+53 bits
				z -= pio2_2
				y0 = z - pio2_2t
				y1 = (z - y0) - pio2_2t
			}
			return 1, y0, y1
		}
		z := x + pio2_1
		if ix != 0x3ff921fb {
			y0 = z + pio2_1t
			y1 = (z - y0) + pio2_1t
		} else {
			z += pio2_2
			y0 = z + pio2_2t
			y1 = (z - y0) + pio2_2t
		}
		return -1, y0, y1
	}
	if ix <= 0x413921fb { // |x| <= 2^19·(π/2): medium size
		t := math.Abs(x)
		n = int(float64(t*invpio2) + 0.5)
		fn := float64(n)
		r := t - float64(fn*pio2_1)
		w := fn * pio2_1t // first round, good to 85 bits
		if n < 32 && ix != npio2hw[n-1] {
			y0 = r - w
		} else {
			j := ix >> 20
			y0 = r - w
			i := j - (highWord(y0) >> 20 & 0x7ff)
			if i > 16 { // second iteration, good to 118 bits
				t = r
				w = fn * pio2_2
				r = t - w
				w = float64(fn*pio2_2t) - ((t - r) - w)
				y0 = r - w
				i = j - (highWord(y0) >> 20 & 0x7ff)
				if i > 49 { // third iteration, 151 bits
					t = r
					w = fn * pio2_3
					r = t - w
					w = float64(fn*pio2_3t) - ((t - r) - w)
					y0 = r - w
				}
			}
		}
		y1 = (r - y0) - w
		if hx>>31 != 0 {
			return -n, -y0, -y1
		}
		return n, y0, y1
	}
	if ix >= 0x7ff00000 { // Inf or NaN
		return 0, math.NaN(), math.NaN()
	}
	return remPio2Large(x)
}

// piBits is π to 1,400 bits, enough to reduce any double exactly; made
// once, on first use.
var piBits = sync.OnceValue(func() *big.Float {
	const prec = 1400
	// Machin's formula: π = 16·atan(1/5) - 4·atan(1/239).
	atanInv := func(n int64) *big.Float {
		x := new(big.Float).SetPrec(prec).SetInt64(1)
		x.Quo(x, new(big.Float).SetPrec(prec).SetInt64(n))
		x2 := new(big.Float).SetPrec(prec).Mul(x, x)
		sum := new(big.Float).SetPrec(prec).Set(x)
		term := new(big.Float).SetPrec(prec).Set(x)
		q := new(big.Float).SetPrec(prec)
		for k := int64(1); ; k++ {
			term.Mul(term, x2)
			q.Quo(term, new(big.Float).SetPrec(prec).SetInt64(2*k+1))
			if q.Sign() == 0 || q.MantExp(nil)-sum.MantExp(nil) < -prec-8 {
				break
			}
			if k%2 == 1 {
				sum.Sub(sum, q)
			} else {
				sum.Add(sum, q)
			}
		}
		return sum
	}
	a := atanInv(5)
	a.Mul(a, new(big.Float).SetInt64(16))
	b := atanInv(239)
	b.Mul(b, new(big.Float).SetInt64(4))
	return a.Sub(a, b)
})

// remPio2Large reduces |x| > 2^19·π/2 exactly: n = round(x / (π/2)) and
// the remainder rounded to a double-double.
func remPio2Large(x float64) (n int, y0, y1 float64) {
	const prec = 1400
	pio2 := new(big.Float).SetPrec(prec).Quo(piBits(), new(big.Float).SetInt64(2))
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	q := new(big.Float).SetPrec(prec).Quo(bx, pio2)
	// Round to nearest integer.
	half := new(big.Float).SetPrec(prec).SetFloat64(0.5)
	if q.Sign() < 0 {
		q.Sub(q, half)
	} else {
		q.Add(q, half)
	}
	qi, _ := q.Int(nil)
	rem := new(big.Float).SetPrec(prec).SetInt(qi)
	rem.Mul(rem, pio2)
	rem.Sub(bx, rem)
	y0, _ = rem.Float64()
	rest := new(big.Float).SetPrec(prec).Sub(rem, new(big.Float).SetFloat64(y0))
	y1, _ = rest.Float64()
	// Only n mod 8 matters to the callers.
	mod := new(big.Int).And(qi, big.NewInt(7))
	return int(mod.Int64()), y0, y1
}

// sin is s_sin.c.
func sin(x float64) float64 {
	ix := highWord(x) & 0x7fffffff
	if ix <= 0x3fe921fb {
		return kernelSin(x, 0, 0)
	}
	if ix >= 0x7ff00000 {
		return math.NaN()
	}
	n, y0, y1 := remPio2(x)
	switch n & 3 {
	case 0:
		return kernelSin(y0, y1, 1)
	case 1:
		return kernelCos(y0, y1)
	case 2:
		return -kernelSin(y0, y1, 1)
	}
	return -kernelCos(y0, y1)
}

// cos is s_cos.c.
func cos(x float64) float64 {
	ix := highWord(x) & 0x7fffffff
	if ix <= 0x3fe921fb {
		return kernelCos(x, 0)
	}
	if ix >= 0x7ff00000 {
		return math.NaN()
	}
	n, y0, y1 := remPio2(x)
	switch n & 3 {
	case 0:
		return kernelCos(y0, y1)
	case 1:
		return -kernelSin(y0, y1, 1)
	case 2:
		return -kernelCos(y0, y1)
	}
	return kernelSin(y0, y1, 1)
}

// tan is s_tan.c.
func tan(x float64) float64 {
	ix := highWord(x) & 0x7fffffff
	if ix <= 0x3fe921fb {
		return kernelTan(x, 0, 1)
	}
	if ix >= 0x7ff00000 {
		return math.NaN()
	}
	n, y0, y1 := remPio2(x)
	return kernelTan(y0, y1, 1-(n&1)<<1)
}
