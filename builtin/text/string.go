package text

import (
	"math"

	"github.com/go-codemode/codemode/internal/jsnum"
	"github.com/go-codemode/codemode/value"
)

// The String constructor, its statics and String.prototype. The methods
// that take a regular expression (match, matchAll, replace, replaceAll,
// search, split) dispatch to regexp_string.go when given a RegExp object.

func installString(l *value.Library) {
	l.Intrinsic(value.StringPrototype, value.IntrinsicSpec{Name: "String.prototype", Class: value.ClassString,
		Init: func(r *value.Realm, o *value.Object) {
			o.Internal = value.Empty // String.prototype is itself a String object holding ""
			o.Define("length", value.Number(0), 0)
			o.Define("constructor", value.Obj(r.Intrinsic(value.StringCtor)), value.Writable|value.Configurable)
			r.Methods(o, stringProto)
			// trimLeft and trimRight are the very functions trimStart and
			// trimEnd (Annex B).
			o.Define("trimLeft", o.GetOwn("trimStart").Value, value.Writable|value.Configurable)
			o.Define("trimRight", o.GetOwn("trimEnd").Value, value.Writable|value.Configurable)
			r.Method(o, value.SymIterator.Key(), value.StringIterator)
		}})
	l.Intrinsic(value.StringCtor, value.IntrinsicSpec{Name: "String", Func: stringCtor,
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.StringPrototype))
			r.Methods(o, stringStatics)
		}})
	l.GlobalIntrinsic("String", value.StringCtor)
	l.Register(stringProto...)
	l.Register(stringStatics...)
}

// stringCtor is String(value): ToString, except that a symbol called
// without new becomes "Symbol(description)"; new String(value) is the
// String object holding that string.
var stringCtor = &value.Native{Name: "String", Length: 1, Ctor: true, Fn: func(r *value.Realm, c *value.Call) value.Value {
	s := value.Empty
	if len(c.Args) > 0 {
		if sym := c.Args[0].AsSymbol(); sym != nil && c.NewTarget == nil {
			return value.Str(charge(r, sym.DescriptiveString()))
		}
		s = r.ToString(c.Args[0])
	}
	if c.NewTarget == nil {
		return value.Str(s)
	}
	return value.Obj(r.NewWrapper(value.Str(s), r.ProtoFromCtor(c.NewTarget, value.StringPrototype)))
}}

var stringStatics = []*value.Native{
	native("String.fromCharCode", 1, func(r *value.Realm, c *value.Call) value.Value {
		if len(c.Args) > value.MaxStringLength {
			r.ThrowRange("Invalid string length")
		}
		units := make([]uint16, len(c.Args))
		for i, a := range c.Args {
			units[i] = uint16(jsnum.ToUint32(r.ToNumber(a)))
		}
		return value.Str(charge(r, value.FromUTF16(units)))
	}),
	native("String.fromCodePoint", 1, func(r *value.Realm, c *value.Call) value.Value {
		b := builder{r: r}
		for _, a := range c.Args {
			n := r.ToNumber(a)
			if n != math.Trunc(n) || n < 0 || n > 0x10FFFF { // NaN and the infinities fail the first test
				r.ThrowRange("Invalid code point %s", value.NumberToString(n).String())
			}
			cp := rune(n)
			if cp < 0x10000 {
				b.unit(uint16(cp))
				continue
			}
			cp -= 0x10000
			b.unit(uint16(0xD800 + cp>>10))
			b.unit(uint16(0xDC00 + cp&0x3FF))
		}
		return value.Str(b.done())
	}),
	native("String.raw", 1, func(r *value.Realm, c *value.Call) value.Value {
		tmpl := c.Arg(0)
		if tmpl.IsNullish() {
			r.ThrowType("Cannot convert undefined or null to object")
		}
		raw := r.Get(tmpl, "raw")
		if raw.IsNullish() {
			r.ThrowType("Cannot convert undefined or null to object")
		}
		n := r.LengthOf(raw)
		b := builder{r: r}
		for i := 0; i < n; i++ {
			r.Poll()
			b.str(r.ToString(r.GetIndex(raw, i)))
			if i+1 == n {
				break
			}
			if i+1 < len(c.Args) {
				b.str(r.ToString(c.Args[i+1]))
			}
		}
		return value.Str(b.done())
	}),
}

// thisStringValue is the string a String.prototype.toString or valueOf
// receiver holds: a string, or String.prototype itself.
func thisStringValue(r *value.Realm, c *value.Call, method string) value.Value {
	if v, ok := value.ThisPrimitive(c.This, value.KindString); ok {
		return v
	}
	r.ThrowType("String.prototype.%s requires that 'this' be a String", method)
	return value.Undefined
}

// isRegExp is the specification's IsRegExp for codemode, which has no
// Symbol.match: a RegExp object.
func isRegExp(v value.Value) bool { return regexpData(v.AsObject()) != nil }

// searchArg is the search string of includes, startsWith and endsWith,
// which refuse a regular expression.
func searchArg(r *value.Realm, v value.Value, method string) *value.String {
	if isRegExp(v) {
		r.ThrowType("First argument to String.prototype.%s must not be a regular expression", method)
	}
	return r.ToString(v)
}

var stringProto = []*value.Native{
	native("String.prototype.at", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "at")
		if u, ok := s.AtIndex(intArg(r, c.Arg(0), 0)); ok {
			return value.Str(u)
		}
		return value.Undefined
	}),
	native("String.prototype.charAt", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "charAt")
		return value.Str(s.CharAt(intArg(r, c.Arg(0), 0)))
	}),
	native("String.prototype.charCodeAt", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "charCodeAt")
		if u, ok := s.CharCodeAt(intArg(r, c.Arg(0), 0)); ok {
			return value.Number(float64(u))
		}
		return value.Number(math.NaN())
	}),
	native("String.prototype.codePointAt", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "codePointAt")
		if cp, ok := s.CodePointAt(intArg(r, c.Arg(0), 0)); ok {
			return value.Number(float64(cp))
		}
		return value.Undefined
	}),
	native("String.prototype.concat", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "concat")
		for _, a := range c.Args {
			s = r.Concat(s, r.ToString(a))
		}
		return value.Str(s)
	}),
	native("String.prototype.endsWith", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "endsWith")
		sub := searchArg(r, c.Arg(0), "endsWith")
		return value.Bool(s.EndsWith(sub, intArg(r, c.Arg(1), s.Len())))
	}),
	native("String.prototype.includes", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "includes")
		sub := searchArg(r, c.Arg(0), "includes")
		r.Tick(s.Len())
		return value.Bool(s.Includes(sub, intArg(r, c.Arg(1), 0)))
	}),
	native("String.prototype.indexOf", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "indexOf")
		sub := r.ToString(c.Arg(0))
		pos := min(max(intArg(r, c.Arg(1), 0), 0), s.Len())
		r.Tick(s.Len() - pos)
		return value.Number(float64(s.IndexOf(sub, pos)))
	}),
	native("String.prototype.isWellFormed", 0, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "isWellFormed")
		r.Tick(s.Len())
		return value.Bool(s.IsWellFormed())
	}),
	native("String.prototype.lastIndexOf", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "lastIndexOf")
		sub := r.ToString(c.Arg(0))
		n := r.ToNumber(c.Arg(1))
		pos := math.MaxInt
		if n == n { // not NaN
			pos = clampInt(jsnum.ToIntegerOrInfinity(n))
		}
		r.Tick(s.Len())
		return value.Number(float64(s.LastIndexOf(sub, pos)))
	}),
	native("String.prototype.localeCompare", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "localeCompare")
		return value.Number(float64(localeCompare(r, s, r.ToString(c.Arg(0)))))
	}),
	native("String.prototype.match", 1, func(r *value.Realm, c *value.Call) value.Value {
		if c.This.IsNullish() {
			r.ThrowType("String.prototype.match called on null or undefined")
		}
		if rx := c.Arg(0); isRegExp(rx) {
			return regexpMatch(r, rx.AsObject(), c.This)
		}
		s := r.ToString(c.This)
		return regexpMatch(r, regexpCreate(r, c.Arg(0), value.Undefined), value.Str(s))
	}),
	native("String.prototype.matchAll", 1, func(r *value.Realm, c *value.Call) value.Value {
		if c.This.IsNullish() {
			r.ThrowType("String.prototype.matchAll called on null or undefined")
		}
		if rx := c.Arg(0); isRegExp(rx) {
			flags := r.Get(rx, "flags")
			if flags.IsNullish() {
				r.ThrowType("String.prototype.matchAll called with a non-global RegExp argument")
			}
			if r.ToString(flags).IndexOf(value.NewString("g"), 0) < 0 {
				r.ThrowType("String.prototype.matchAll called with a non-global RegExp argument")
			}
			return regexpMatchAll(r, rx.AsObject(), c.This)
		}
		s := r.ToString(c.This)
		return regexpMatchAll(r, regexpCreate(r, c.Arg(0), value.StrOf("g")), value.Str(s))
	}),
	native("String.prototype.normalize", 0, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "normalize")
		form := "NFC"
		if f := c.Arg(0); !f.IsUndefined() {
			form = r.ToString(f).Key()
		}
		return value.Str(normalize(r, s, form))
	}),
	native("String.prototype.padEnd", 1, func(r *value.Realm, c *value.Call) value.Value {
		return pad(r, c, "padEnd", false)
	}),
	native("String.prototype.padStart", 1, func(r *value.Realm, c *value.Call) value.Value {
		return pad(r, c, "padStart", true)
	}),
	native("String.prototype.repeat", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "repeat")
		num := r.ToNumber(c.Arg(0))
		n := jsnum.ToIntegerOrInfinity(num)
		if n < 0 || math.IsInf(n, 1) {
			r.ThrowRange("Invalid count value: %s", value.NumberToString(num).String())
		}
		if k := clampInt(n); s.Len() > 0 && k <= value.MaxStringLength/s.Len() {
			// The result's size is known: check it fits before making it.
			r.Tick(s.Len() * k)
			r.Reserve(48 + s.Len()*k*unitBytes(s))
		}
		out, ok := s.Repeat(clampInt(n))
		if !ok {
			r.ThrowRange("Invalid string length")
		}
		if out != s {
			charge(r, out)
		}
		return value.Str(out)
	}),
	native("String.prototype.replace", 2, func(r *value.Realm, c *value.Call) value.Value {
		if c.This.IsNullish() {
			r.ThrowType("String.prototype.replace called on null or undefined")
		}
		if rx := c.Arg(0); isRegExp(rx) {
			return value.Str(regexpReplace(r, rx.AsObject(), c.This, c.Arg(1)))
		}
		return value.Str(replaceString(r, c, false))
	}),
	native("String.prototype.replaceAll", 2, func(r *value.Realm, c *value.Call) value.Value {
		if c.This.IsNullish() {
			r.ThrowType("String.prototype.replaceAll called on null or undefined")
		}
		if rx := c.Arg(0); isRegExp(rx) {
			flags := r.Get(rx, "flags")
			if flags.IsNullish() || r.ToString(flags).IndexOf(value.NewString("g"), 0) < 0 {
				r.ThrowType("String.prototype.replaceAll called with a non-global RegExp argument")
			}
			return value.Str(regexpReplace(r, rx.AsObject(), c.This, c.Arg(1)))
		}
		return value.Str(replaceString(r, c, true))
	}),
	native("String.prototype.search", 1, func(r *value.Realm, c *value.Call) value.Value {
		if c.This.IsNullish() {
			r.ThrowType("String.prototype.search called on null or undefined")
		}
		if rx := c.Arg(0); isRegExp(rx) {
			return regexpSearch(r, rx.AsObject(), c.This)
		}
		s := r.ToString(c.This)
		return regexpSearch(r, regexpCreate(r, c.Arg(0), value.Undefined), value.Str(s))
	}),
	native("String.prototype.slice", 2, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "slice")
		start := intArg(r, c.Arg(0), 0)
		return value.Str(s.SliceJS(start, intArg(r, c.Arg(1), s.Len())))
	}),
	native("String.prototype.split", 2, func(r *value.Realm, c *value.Call) value.Value {
		if c.This.IsNullish() {
			r.ThrowType("String.prototype.split called on null or undefined")
		}
		if rx := c.Arg(0); isRegExp(rx) {
			return regexpSplit(r, rx.AsObject(), c.This, c.Arg(1))
		}
		return splitString(r, r.ToString(c.This), c.Arg(0), c.Arg(1))
	}),
	native("String.prototype.startsWith", 1, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "startsWith")
		sub := searchArg(r, c.Arg(0), "startsWith")
		return value.Bool(s.StartsWith(sub, intArg(r, c.Arg(1), 0)))
	}),
	native("String.prototype.substr", 2, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "substr")
		start := intArg(r, c.Arg(0), 0)
		return value.Str(s.Substr(start, intArg(r, c.Arg(1), math.MaxInt)))
	}),
	native("String.prototype.substring", 2, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "substring")
		start := intArg(r, c.Arg(0), 0)
		return value.Str(s.Substring(start, intArg(r, c.Arg(1), s.Len())))
	}),
	native("String.prototype.toLocaleLowerCase", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Str(recase(r, thisString(r, c, "toLocaleLowerCase"), false))
	}),
	native("String.prototype.toLocaleUpperCase", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Str(recase(r, thisString(r, c, "toLocaleUpperCase"), true))
	}),
	native("String.prototype.toLowerCase", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Str(recase(r, thisString(r, c, "toLowerCase"), false))
	}),
	native("String.prototype.toString", 0, func(r *value.Realm, c *value.Call) value.Value {
		return thisStringValue(r, c, "toString")
	}),
	native("String.prototype.toUpperCase", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Str(recase(r, thisString(r, c, "toUpperCase"), true))
	}),
	native("String.prototype.toWellFormed", 0, func(r *value.Realm, c *value.Call) value.Value {
		s := thisString(r, c, "toWellFormed")
		r.Tick(s.Len())
		out := s.ToWellFormed()
		if out != s {
			charge(r, out)
		}
		return value.Str(out)
	}),
	native("String.prototype.trim", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Str(ticked(r, thisString(r, c, "trim")).Trim())
	}),
	native("String.prototype.trimEnd", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Str(ticked(r, thisString(r, c, "trimEnd")).TrimEnd())
	}),
	native("String.prototype.trimStart", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Str(ticked(r, thisString(r, c, "trimStart")).TrimStart())
	}),
	native("String.prototype.valueOf", 0, func(r *value.Realm, c *value.Call) value.Value {
		return thisStringValue(r, c, "valueOf")
	}),
}

// ticked charges the work of a method that scans s once, and returns s.
func ticked(r *value.Realm, s *value.String) *value.String {
	r.Tick(s.Len())
	return s
}

// unitBytes is what one code unit of s costs: 1 in an ASCII string, 2 in
// a wide one.
func unitBytes(s *value.String) int {
	if s.IsASCII() {
		return 1
	}
	return 2
}

// recase is toUpperCase / toLowerCase (the locale forms ignore the
// locale: codemode is always en-US, whose mappings are the root ones).
func recase(r *value.Realm, s *value.String, upper bool) *value.String {
	r.Tick(s.Len())
	r.Reserve(48 + s.Len()*unitBytes(s))
	var out *value.String
	if upper {
		out = s.ToUpperCase()
	} else {
		out = s.ToLowerCase()
	}
	if out.Len() > value.MaxStringLength {
		r.ThrowRange("Invalid string length")
	}
	if out != s {
		charge(r, out)
	}
	return out
}

// pad is padStart and padEnd.
func pad(r *value.Realm, c *value.Call, method string, atStart bool) value.Value {
	s := thisString(r, c, method)
	target := r.ToLength(c.Arg(0))
	if target <= s.Len() {
		return value.Str(s)
	}
	if target <= value.MaxStringLength {
		r.Tick(target)
		r.Reserve(48 + 2*target)
	}
	filler := value.NewString(" ")
	if f := c.Arg(1); !f.IsUndefined() {
		filler = r.ToString(f)
	}
	var out *value.String
	var ok bool
	if atStart {
		out, ok = s.PadStart(target, filler)
	} else {
		out, ok = s.PadEnd(target, filler)
	}
	if !ok {
		r.ThrowRange("Invalid string length")
	}
	if out != s {
		charge(r, out)
	}
	return value.Str(out)
}

// replaceString is replace and replaceAll with a pattern that is not a
// RegExp: the pattern is a string, and the replacement a function or a
// template with $$, $&, $` and $'.
func replaceString(r *value.Realm, c *value.Call, all bool) *value.String {
	s := r.ToString(c.This)
	pattern := r.ToString(c.Arg(0))
	repl := c.Arg(1)
	functional := isCallable(repl)
	var template *value.String
	if !functional {
		template = r.ToString(repl)
	}
	r.Tick(s.Len())
	if s.IndexOf(pattern, 0) < 0 {
		return s
	}
	if !functional && s.Len() <= wholeReplaceLimit {
		var out *value.String
		var ok bool
		if all {
			out, ok = s.ReplaceAllString(pattern, template)
		} else {
			out, ok = s.ReplaceFirstString(pattern, template)
		}
		if !ok {
			r.ThrowRange("Invalid string length")
		}
		return charge(r, out)
	}
	// The positions depend only on s and pattern, which the callback
	// cannot change, so they are found as the calls go (and, for a long
	// string with a template, as the substitutions go).
	b := builder{r: r}
	end, step := 0, max(pattern.Len(), 1)
	for from := 0; from <= s.Len(); from = end - pattern.Len() + step {
		p := s.IndexOf(pattern, from)
		if p < 0 {
			break
		}
		r.Tick(p - end + 1)
		b.add(s, end, p)
		if functional {
			res := r.Call(repl, value.Undefined, []value.Value{value.Str(pattern), value.Number(float64(p)), value.Str(s)})
			b.str(r.ToString(res))
		} else {
			substitute(r, &b, pattern, s, p, nil, value.Undefined, template)
		}
		end = p + pattern.Len()
		if !all {
			break
		}
	}
	b.add(s, end, s.Len())
	return b.done()
}

// wholeReplaceLimit is the longest string a template replace handles in
// one uninterruptible library call; longer ones go match by match, ticking
// as they go, so one replaceAll of 16 M characters cannot outrun the
// deadline.
const wholeReplaceLimit = 1 << 20

// splitString is split with a separator that is not a RegExp.
func splitString(r *value.Realm, s *value.String, sepArg, limitArg value.Value) value.Value {
	limit := uint32(math.MaxUint32)
	if !limitArg.IsUndefined() {
		limit = r.ToUint32(limitArg)
	}
	sep := r.ToString(sepArg)
	if limit == 0 {
		return value.Obj(r.NewArrayValue(nil))
	}
	if sepArg.IsUndefined() {
		return value.Obj(r.NewArrayValue([]value.Value{value.Str(s)}))
	}
	lim := int(limit)
	r.Tick(s.Len())
	// More pieces than an array may hold is a RangeError; find out before
	// making them.
	if lim > value.MaxArrayLength {
		if sep.Len() == 0 {
			if s.Len() > value.MaxArrayLength {
				r.ThrowRange(value.ArrayLengthMessage)
			}
		} else if s.Len()/sep.Len() >= value.MaxArrayLength {
			n := 1
			for p := s.IndexOf(sep, 0); p >= 0; p = s.IndexOf(sep, p+sep.Len()) {
				if n++; n > value.MaxArrayLength {
					r.ThrowRange(value.ArrayLengthMessage)
				}
			}
		}
		lim = value.MaxArrayLength
	}
	// The pieces are charged before they are made: 4 M of them are
	// 200 MB, which a run past its budget must never get to allocate.
	n := s.SplitLen(sep, lim)
	r.Charge(48 * n)
	r.Reserve(24 * n)
	parts := s.Split(sep, lim)
	elems := make([]value.Value, len(parts))
	for i, p := range parts {
		elems[i] = value.Str(p)
	}
	return value.Obj(r.NewArrayValue(elems))
}
