// Package jsnum implements JavaScript's conversions between Numbers and
// strings, following ECMAScript 2024 (ECMA-262, 15th edition) and, where the
// specification leaves a choice to the implementation, the behaviour of V8
// (as shipped in node).
//
// The spec sections implemented are:
//
//   - §6.1.6.1.20 Number::toString(x, 10): [Format].
//   - §21.1.3.6 Number.prototype.toString(radix): [FormatRadix]. For radixes
//     other than 10 the spec says the algorithm is implementation-defined;
//     FormatRadix reproduces V8's DoubleToRadixCString digit for digit.
//   - §21.1.3.3 Number.prototype.toFixed: [ToFixed].
//   - §21.1.3.5 Number.prototype.toPrecision: [ToPrecision].
//   - §21.1.3.2 Number.prototype.toExponential: [ToExponential].
//   - §7.1.4.1.1 StringToNumber (ToNumber applied to a String): [Parse].
//   - §19.2.5 parseInt(string, radix): [ParseInt].
//   - §19.2.4 parseFloat(string): [ParseFloat].
//   - §7.1.6 ToInt32, §7.1.7 ToUint32 and §7.1.5 ToIntegerOrInfinity:
//     [ToInt32], [ToUint32], [ToIntegerOrInfinity].
//
// Strings are Go strings holding UTF-8. The whitespace recognised by the
// parsing functions is the spec's StrWhiteSpaceChar set: WhiteSpace (TAB,
// VT, FF, ZWNBSP U+FEFF and every Unicode "Zs" space separator, including
// SPACE and NO-BREAK SPACE) and LineTerminator (LF, CR, U+2028, U+2029).
//
// Rounding is exact everywhere the specification requires it: decimal
// strings are converted with correct rounding (strconv), toFixed,
// toPrecision and toExponential round the exact binary value half away from
// zero ("if there are two such n, pick the larger n"), and Format produces
// the shortest digit string that round-trips, as Number::toString requires.
//
// The reference tables in testdata were produced by node (see
// testdata/gen.js) and are compared case by case by the tests.
package jsnum
