package jsnum

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// isSpace reports whether r is a StrWhiteSpaceChar (ECMA-262 §7.1.4.1):
// WhiteSpace (TAB, VT, FF, ZWNBSP and the Unicode "Zs" category) or a
// LineTerminator (LF, CR, LS, PS). U+0085, U+180E and U+200B are not.
func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ',
		0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}

// Parse implements ToNumber applied to a String, StringToNumber
// (ECMA-262 §7.1.4.1.1): after trimming StrWhiteSpaceChar from both ends,
// the empty string is 0; "Infinity" with an optional sign is infinite;
// a StrDecimalLiteral ("12", "-1.5e3", ".5", "5.") is converted with correct
// rounding; 0x, 0o and 0b literals (no sign, no separators) are converted
// with correct rounding; anything else is NaN.
func Parse(s string) float64 {
	s = strings.TrimFunc(s, isSpace)
	if s == "" {
		return 0
	}
	if len(s) > 2 && s[0] == '0' {
		radix := 0
		switch s[1] {
		case 'x', 'X':
			radix = 16
		case 'o', 'O':
			radix = 8
		case 'b', 'B':
			radix = 2
		}
		if radix != 0 {
			digits := s[2:]
			for i := 0; i < len(digits); i++ {
				if digitValue(digits[i]) >= radix {
					return math.NaN()
				}
			}
			return exactInteger(digits, radix)
		}
	}
	if scanDecimal(s) != len(s) {
		return math.NaN()
	}
	return decimalValue(s)
}

// ParseFloat implements the global parseFloat(string) (ECMA-262 §19.2.4):
// leading StrWhiteSpaceChar is skipped and the longest prefix that is a
// StrDecimalLiteral (including "Infinity" with an optional sign) is
// converted; if there is none the result is NaN. Hexadecimal prefixes are
// not recognised ("0x10" is 0).
func ParseFloat(s string) float64 {
	s = strings.TrimLeftFunc(s, isSpace)
	n := scanDecimal(s)
	if n == 0 {
		return math.NaN()
	}
	return decimalValue(s[:n])
}

// ParseInt implements the global parseInt(string, radix) (ECMA-262 §19.2.5)
// for a radix already converted with ToInt32. Leading StrWhiteSpaceChar and
// one sign are skipped; radix 0 means 10, or 16 when the digits start with
// "0x"/"0X" (a prefix that radix 16 also accepts); other radixes outside
// 2..36 give NaN. Parsing stops at the first character that is not a digit
// of the radix, and no digits at all gives NaN. The value is correctly
// rounded for radix 10 and the power-of-two radixes; for the others it is
// accumulated in float64 exactly as V8 does, which the spec permits.
func ParseInt(s string, radix int) float64 {
	s = strings.TrimLeftFunc(s, isSpace)
	negative := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		negative = s[0] == '-'
		s = s[1:]
	}
	stripPrefix := true
	if radix != 0 {
		if radix < 2 || radix > 36 {
			return math.NaN()
		}
		stripPrefix = radix == 16
	} else {
		radix = 10
	}
	if stripPrefix && len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
		radix = 16
	}
	end := 0
	for end < len(s) && digitValue(s[end]) < radix {
		end++
	}
	if end == 0 {
		return math.NaN()
	}
	z := s[:end]
	var v float64
	switch radix {
	case 10:
		v = decimalValue(z)
	case 2, 4, 8, 16, 32:
		v = exactInteger(z, radix)
	default:
		v = accumulate(z, radix)
	}
	if negative {
		v = -v
	}
	return v
}

// scanDecimal returns the length of the longest prefix of s that is a
// StrDecimalLiteral: an optional sign followed by "Infinity" or by
// digits with an optional point and fraction (at least one digit in all)
// and an optional exponent. It returns 0 if no prefix matches.
func scanDecimal(s string) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if strings.HasPrefix(s[i:], "Infinity") {
		return i + len("Infinity")
	}
	intDigits := countDigits(s[i:])
	i += intDigits
	fracDigits := 0
	if i < len(s) && s[i] == '.' {
		fracDigits = countDigits(s[i+1:])
		if intDigits > 0 || fracDigits > 0 {
			i += 1 + fracDigits
		}
	}
	if intDigits == 0 && fracDigits == 0 {
		return 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if n := countDigits(s[j:]); n > 0 {
			i = j + n
		}
	}
	return i
}

// countDigits returns the number of leading ASCII decimal digits of s.
func countDigits(s string) int {
	n := 0
	for n < len(s) && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	return n
}

// decimalValue converts a string already validated as a StrDecimalLiteral.
// strconv rounds correctly, saturates huge exponents to ±Inf or ±0, and
// accepts "Infinity" with a sign.
func decimalValue(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeErr(err) {
		return math.NaN() // unreachable for validated input
	}
	return v
}

// isRangeErr reports whether err is strconv's out-of-range error.
func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// exactInteger converts validated digits in radix to the nearest double
// (ties to even), as the spec requires for 0x/0o/0b literals and V8 does for
// parseInt with power-of-two radixes.
func exactInteger(digits string, radix int) float64 {
	if u, err := strconv.ParseUint(digits, radix, 64); err == nil {
		return float64(u) // Go rounds uint64 -> float64 to nearest even
	}
	var n big.Int
	n.SetString(digits, radix)
	f, _ := new(big.Float).SetInt(&n).Float64()
	return f
}

// accumulate reproduces V8's NumberParseIntHelper::HandleGenericCase for
// radixes that are not powers of two nor 10: digits are gathered into
// 32-bit parts while the part's multiplier stays below 0xFFFFFFFF/36, and
// each part is folded into the float64 result as result*multiplier + part.
// Leading zeros are skipped first (they would shift the part boundaries).
// The rounding errors for values above 2^53 are V8's.
func accumulate(digits string, radix int) float64 {
	const maxMultiplier = 0xFFFFFFFF / 36
	result := 0.0
	i := 0
	for i < len(digits) && digits[i] == '0' {
		i++
	}
	for i < len(digits) {
		part, multiplier := uint32(0), uint32(1)
		for i < len(digits) {
			m := multiplier * uint32(radix)
			if m > maxMultiplier {
				break
			}
			part = part*uint32(radix) + uint32(digitValue(digits[i]))
			multiplier = m
			i++
		}
		result = float64(result*float64(multiplier)) + float64(part)
	}
	return result
}
