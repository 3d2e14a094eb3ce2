package jsnum

import "math"

// ToUint32 implements ToUint32 (ECMA-262 §7.1.7): NaN and the infinities are
// 0, other values are truncated toward zero and reduced modulo 2^32.
func ToUint32(f float64) uint32 {
	if f >= 0 && f < 1<<32 {
		return uint32(f) // truncates
	}
	if f != f || math.IsInf(f, 0) {
		return 0
	}
	m := math.Mod(math.Trunc(f), 1<<32) // exact, with the sign of f
	if m < 0 {
		m += 1 << 32
	}
	return uint32(m)
}

// ToInt32 implements ToInt32 (ECMA-262 §7.1.6): ToUint32 reinterpreted as a
// two's complement signed integer, so 2^31 is -2^31 and -1 stays -1.
func ToInt32(f float64) int32 {
	if f > math.MinInt32-1 && f < math.MaxInt32+1 {
		return int32(f) // truncates
	}
	return int32(ToUint32(f))
}

// ToIntegerOrInfinity implements ToIntegerOrInfinity (ECMA-262 §7.1.5):
// NaN and both zeros are +0, the infinities are returned unchanged, and
// other values are truncated toward zero (so -0.5 is +0, not -0).
func ToIntegerOrInfinity(f float64) float64 {
	if f != f {
		return 0
	}
	t := math.Trunc(f)
	if t == 0 {
		return 0
	}
	return t
}
