// Package text is the text area of codemode's standard library: the String
// constructor and String.prototype, and RegExp with the String methods that
// take regular expressions (match, matchAll, replace, replaceAll, search,
// split).
//
// The string algorithms themselves live in value/strmethods.go, over
// UTF-16 code units; this package does what the specification asks around
// them: argument coercion in the specified order, V8's error messages, and
// the length and memory limits.
//
// Regular expressions run on internal/jsregex (our own JavaScript-syntax
// front end over regexp2). A RegExp object keeps its compiled program in
// its Internal (*RegExpData), so a pattern is compiled once per object (and
// a literal evaluated in a loop hits a process-wide cache), never per exec.
// Every match runs against a deadline; a match past it interrupts the run
// (TimeoutExceeded), which no program can catch.
//
// The specification dispatches String.prototype.match and friends through
// Symbol.match, Symbol.replace, ...; codemode has no such symbols, so a
// RegExp object (ClassRegExp) is what takes the RegExp path, and anything
// else becomes a pattern or a string as the specification says. Inside the
// RegExp algorithms, the observable steps (reading and writing lastIndex,
// the flags getter, a program's own exec) are kept; when the object and
// RegExp.prototype are untouched, the results come straight from the
// engine without building a match array for each match.
package text

import (
	"math"

	"github.com/go-codemode/codemode/value"
)

// Install adds this area to a library.
func Install(l *value.Library) {
	installString(l)
	installRegExp(l)
}

// native builds a built-in function description.
func native(name string, length int, fn value.NativeFunc) *value.Native {
	return &value.Native{Name: name, Length: length, Fn: fn}
}

// thisString is RequireObjectCoercible(this) then ToString, with V8's
// message for null and undefined.
func thisString(r *value.Realm, c *value.Call, method string) *value.String {
	if c.This.IsNullish() {
		r.ThrowType("String.prototype.%s called on null or undefined", method)
	}
	return r.ToString(c.This)
}

// clampInt converts a ToIntegerOrInfinity result to an int: the infinities
// (and anything beyond 2^53) become math.MaxInt and math.MinInt, which the
// string algorithms clamp as each method specifies.
func clampInt(f float64) int {
	switch {
	case f >= 1<<53:
		return math.MaxInt
	case f <= -(1 << 53):
		return math.MinInt
	}
	return int(f)
}

// intArg is ToIntegerOrInfinity of v as an int, or dflt when v is
// undefined.
func intArg(r *value.Realm, v value.Value, dflt int) int {
	if v.IsUndefined() {
		return dflt
	}
	return clampInt(r.ToIntegerOrInfinity(v))
}

// isCallable reports whether v is a function.
func isCallable(v value.Value) bool {
	o := v.AsObject()
	return o != nil && o.Callable()
}

// charge counts a string this package made against the run's memory.
func charge(r *value.Realm, s *value.String) *value.String {
	r.Charge(s.Bytes())
	return s
}

// builder accumulates the code units of a new string, as bytes while every
// unit is ASCII, and throws the RangeError "Invalid string length" as soon
// as the result would pass value.MaxStringLength.
type builder struct {
	r      *value.Realm
	ascii  []byte
	wide   []uint16
	isWide bool
}

func (b *builder) len() int { return len(b.ascii) + len(b.wide) }

// grow checks that n more units fit.
func (b *builder) grow(n int) {
	if b.len()+n > value.MaxStringLength {
		b.r.ThrowRange("Invalid string length")
	}
}

// widen switches b to code units.
func (b *builder) widen() {
	if b.isWide {
		return
	}
	w := make([]uint16, len(b.ascii), max(2*len(b.ascii), 16))
	for i, c := range b.ascii {
		w[i] = uint16(c)
	}
	b.wide, b.ascii, b.isWide = w, nil, true
}

// unit appends one code unit.
func (b *builder) unit(u uint16) {
	b.grow(1)
	if !b.isWide && u < 0x80 {
		b.ascii = append(b.ascii, byte(u))
		return
	}
	b.widen()
	b.wide = append(b.wide, u)
}

// add appends the code units [i, j) of s.
func (b *builder) add(s *value.String, i, j int) {
	if i >= j {
		return
	}
	b.grow(j - i)
	if s.IsASCII() {
		text := s.String()[i:j]
		if !b.isWide {
			b.ascii = append(b.ascii, text...)
			return
		}
		for k := 0; k < len(text); k++ {
			b.wide = append(b.wide, uint16(text[k]))
		}
		return
	}
	b.widen()
	b.wide = append(b.wide, s.Units()[i:j]...)
}

// str appends all of s.
func (b *builder) str(s *value.String) { b.add(s, 0, s.Len()) }

// done returns the string built, charged to the run.
func (b *builder) done() *value.String {
	var s *value.String
	if !b.isWide {
		s = value.NewString(string(b.ascii))
	} else {
		s = value.FromUTF16(b.wide)
	}
	return charge(b.r, s)
}
