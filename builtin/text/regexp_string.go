package text

import (
	"math"
	"strconv"
	"strings"

	"github.com/go-codemode/codemode/internal/jsregex"
	"github.com/go-codemode/codemode/value"
)

// The RegExp side of String.prototype.match, matchAll, replace, replaceAll,
// search and split: the specification's RegExp.prototype[@@match],
// [@@matchAll], [@@replace], [@@search] and [@@split], and the
// %RegExpStringIteratorPrototype%.
//
// Each algorithm goes through RegExpExec, which calls a program's own exec
// when there is one; a result is then read with Get as the specification
// says. With the built-in exec, a result is the engine's Match and is read
// directly: nothing a program could observe is skipped (the result array
// would be new and unseen), and lastIndex is still read and written
// through the object as RegExpBuiltinExec does.

// result is one successful RegExpExec: an engine match (m) or the object a
// program's exec returned (obj).
type result struct {
	m   *jsregex.Match
	re  *jsregex.Regexp
	obj value.Value
	s   *value.String
}

// execResult is RegExpExec(rx, s): ok=false for null.
func execResult(r *value.Realm, rx *value.Object, s *value.String) (result, bool) {
	var exec value.Value
	if p, _ := rx.Lookup("exec"); p != nil && !p.IsAccessor() {
		exec = p.Value
	} else {
		exec = r.Get(value.Obj(rx), "exec")
	}
	if f := exec.AsObject(); f != nil && f.Callable() && f.Internal != regexpExec {
		res := r.CallObject(f, value.Obj(rx), []value.Value{value.Str(s)})
		if res.IsNull() {
			return result{}, false
		}
		if !res.IsObject() {
			r.ThrowType("RegExp exec method returned something other than an Object or null")
		}
		return result{obj: res, s: s}, true
	}
	d := regexpData(rx)
	if d == nil {
		r.ThrowType("Method RegExp.prototype.exec called on incompatible receiver %s", describeReceiver(r, value.Obj(rx)))
	}
	m := builtinExec(r, rx, s)
	if m == nil {
		return result{}, false
	}
	return result{m: m, re: d.Regexp, s: s}, true
}

// value is the result as the program sees it.
func (x result) value(r *value.Realm) value.Value {
	if x.m != nil {
		return value.Obj(matchArray(r, x.re, x.s, x.m))
	}
	return x.obj
}

// matched is ToString(result[0]).
func (x result) matched(r *value.Realm) *value.String {
	if x.m != nil {
		return x.s.Slice(x.m.Index(), x.m.End())
	}
	return r.ToString(r.Get(x.obj, "0"))
}

// nCaptures is max(ToLength(result.length) - 1, 0).
func (x result) nCaptures(r *value.Realm) int {
	if x.m != nil {
		return len(x.m.Indices)/2 - 1
	}
	return max(r.ToLength(r.Get(x.obj, "length"))-1, 0)
}

// capture is result[i].
func (x result) capture(r *value.Realm, i int) value.Value {
	if x.m != nil {
		return capture(x.s, x.m, i)
	}
	return r.Get(x.obj, strconv.Itoa(i))
}

// position is ToIntegerOrInfinity(result.index) clamped to the string.
func (x result) position(r *value.Realm) int {
	if x.m != nil {
		return x.m.Index()
	}
	return min(max(clampInt(r.ToIntegerOrInfinity(r.Get(x.obj, "index"))), 0), x.s.Len())
}

// groups is result.groups.
func (x result) groups(r *value.Realm) value.Value {
	if x.m != nil {
		return groupsObject(r, x.s, x.m)
	}
	return r.Get(x.obj, "groups")
}

// flagsOf is ToString(rx.flags), read straight from the program when
// neither the object nor RegExp.prototype has changed how flags read.
func flagsOf(r *value.Realm, rx *value.Object) string {
	if d := regexpData(rx); d != nil && flagsIntact(r, rx) {
		return d.Regexp.Flags()
	}
	return r.ToString(r.Get(value.Obj(rx), "flags")).Key()
}

// flagsIntact reports whether reading rx.flags would run only the
// built-in getters: rx has no own property but lastIndex and inherits
// from an unchanged RegExp.prototype.
func flagsIntact(r *value.Realm, rx *value.Object) bool {
	proto := r.Intrinsic(value.RegExpPrototype)
	if rx.Proto != proto || rx.Len() != 1 {
		return false
	}
	for _, g := range regexpGetters[:9] { // the flags and the flag getters
		p := proto.GetOwn(g.FuncName())
		if p == nil || !p.IsAccessor() || p.Get == nil || p.Get.Internal != g {
			return false
		}
	}
	return true
}

// protoExecIntact reports whether RegExp.prototype.exec is the built-in.
func protoExecIntact(r *value.Realm) bool {
	p := r.Intrinsic(value.RegExpPrototype).GetOwn("exec")
	return p != nil && !p.IsAccessor() && p.Value.AsObject() != nil && p.Value.AsObject().Internal == regexpExec
}

// advance is AdvanceStringIndex.
func advance(s *value.String, i int, unicode bool) int {
	if !unicode || i+1 >= s.Len() {
		return i + 1
	}
	if u := s.At(i); u >= 0xD800 && u <= 0xDBFF {
		if l := s.At(i + 1); l >= 0xDC00 && l <= 0xDFFF {
			return i + 2
		}
	}
	return i + 1
}

func hasFlag(flags string, c byte) bool { return strings.IndexByte(flags, c) >= 0 }

// validFlags reports whether the RegExp constructor accepts flags.
func validFlags(flags string) bool {
	seen := 0
	for i := 0; i < len(flags); i++ {
		bit := strings.IndexByte("dgimsuvy", flags[i])
		if bit < 0 || seen&(1<<bit) != 0 {
			return false
		}
		seen |= 1 << bit
	}
	return !(hasFlag(flags, 'u') && hasFlag(flags, 'v'))
}

// regexpMatch is RegExp.prototype[@@match].
func regexpMatch(r *value.Realm, rx *value.Object, arg value.Value) value.Value {
	s := r.ToString(arg)
	flags := flagsOf(r, rx)
	if !hasFlag(flags, 'g') {
		res, ok := execResult(r, rx, s)
		if !ok {
			return value.Null
		}
		return res.value(r)
	}
	unicode := hasFlag(flags, 'u') || hasFlag(flags, 'v')
	setLastIndex(r, rx, value.Number(0))
	var out []value.Value
	for {
		res, ok := execResult(r, rx, s)
		if !ok {
			if len(out) == 0 {
				return value.Null
			}
			return value.Obj(r.NewArrayValue(out))
		}
		if len(out) >= value.MaxArrayLength {
			r.ThrowRange(value.ArrayLengthMessage)
		}
		ms := res.matched(r)
		out = append(out, value.Str(ms))
		if ms.Len() == 0 {
			setLastIndex(r, rx, value.Number(float64(advance(s, getLastIndex(r, rx), unicode))))
		}
	}
}

// regexpSearch is RegExp.prototype[@@search]: the index of the first
// match, with lastIndex left as it was.
func regexpSearch(r *value.Realm, rx *value.Object, arg value.Value) value.Value {
	s := r.ToString(arg)
	o := value.Obj(rx)
	prev := r.Get(o, "lastIndex")
	if !value.SameValue(prev, value.Number(0)) {
		setLastIndex(r, rx, value.Number(0))
	}
	res, ok := execResult(r, rx, s)
	if cur := r.Get(o, "lastIndex"); !value.SameValue(cur, prev) {
		setLastIndex(r, rx, prev)
	}
	if !ok {
		return value.Number(-1)
	}
	if res.m != nil {
		return value.Number(float64(res.m.Index()))
	}
	return r.Get(res.obj, "index")
}

// speciesConstructor is SpeciesConstructor(rx, %RegExp%) as @@split and
// @@matchAll call it. codemode has no Symbol.species, so the answer is
// always %RegExp%, but rx.constructor is read and checked all the same.
func speciesConstructor(r *value.Realm, rx *value.Object) {
	if c := r.Get(value.Obj(rx), "constructor"); !c.IsUndefined() && !c.IsObject() {
		r.ThrowType("The .constructor property is not an object")
	}
}

// matcherFor is Construct(%RegExp%, «rx, flags»): a copy of rx with the
// given flags.
func matcherFor(r *value.Realm, rx *value.Object, flags string) *value.Object {
	proto := r.Intrinsic(value.RegExpPrototype)
	d := regexpData(rx)
	if d.Regexp.Flags() == flags {
		return regexpObject(r, proto, d.Regexp)
	}
	return newRegExp(r, proto, d.Regexp.Pattern(), flags)
}

// regexpMatchAll is RegExp.prototype[@@matchAll]: an iterator over the
// matches of a copy of rx.
func regexpMatchAll(r *value.Realm, rx *value.Object, arg value.Value) value.Value {
	s := r.ToString(arg)
	speciesConstructor(r, rx)
	flags := flagsOf(r, rx)
	matcher := matcherFor(r, rx, flags)
	setLastIndex(r, matcher, value.Number(float64(getLastIndex(r, rx))))
	it := value.NewObject(r.Intrinsic(value.RegExpStringIteratorPrototype))
	it.Class = value.ClassIterator
	it.Internal = &RegExpStringIter{Matcher: matcher, S: s,
		Global: hasFlag(flags, 'g'), Unicode: hasFlag(flags, 'u') || hasFlag(flags, 'v')}
	r.Charge(128)
	return value.Obj(it)
}

// RegExpStringIter is the Internal of the iterator matchAll returns.
type RegExpStringIter struct {
	Matcher *value.Object
	S       *value.String
	Global  bool
	Unicode bool
	Done    bool
}

var regexpStringIteratorNext = native("%RegExpStringIteratorPrototype%.next", 0, func(r *value.Realm, c *value.Call) value.Value {
	var it *RegExpStringIter
	if o := c.This.AsObject(); o != nil {
		it, _ = o.Internal.(*RegExpStringIter)
	}
	if it == nil {
		r.ThrowType("Method %%RegExpStringIterator%%.prototype.next called on incompatible receiver %s", describeReceiver(r, c.This))
	}
	if it.Done {
		return value.Obj(r.IterResult(value.Undefined, true))
	}
	res, ok := execResult(r, it.Matcher, it.S)
	if !ok {
		it.Done = true
		return value.Obj(r.IterResult(value.Undefined, true))
	}
	if !it.Global {
		it.Done = true
		return value.Obj(r.IterResult(res.value(r), false))
	}
	v := res.value(r)
	if res.matched(r).Len() == 0 {
		setLastIndex(r, it.Matcher, value.Number(float64(advance(it.S, getLastIndex(r, it.Matcher), it.Unicode))))
	}
	return value.Obj(r.IterResult(v, false))
})

// regexpReplace is RegExp.prototype[@@replace].
func regexpReplace(r *value.Realm, rx *value.Object, arg, replaceValue value.Value) *value.String {
	s := r.ToString(arg)
	functional := isCallable(replaceValue)
	var template *value.String
	if !functional {
		template = r.ToString(replaceValue)
	}
	flags := flagsOf(r, rx)
	global := hasFlag(flags, 'g')
	unicode := hasFlag(flags, 'u') || hasFlag(flags, 'v')
	if global {
		setLastIndex(r, rx, value.Number(0))
	}
	// A built-in match's groups object is made only when something can
	// see it.
	needGroups := functional || template.IndexOf(value.NewString("$<"), 0) >= 0
	b := builder{r: r}
	next := 0 // nextSourcePosition
	// apply substitutes one result into b.
	apply := func(res result) {
		n := res.nCaptures(r)
		if n >= value.MaxArrayLength {
			r.ThrowRange(value.ArrayLengthMessage)
		}
		matched := res.matched(r)
		position := res.position(r)
		captures := make([]value.Value, n)
		for i := range captures {
			r.Poll()
			c := res.capture(r, i+1)
			if !c.IsUndefined() {
				c = value.Str(r.ToString(c))
			}
			captures[i] = c
		}
		named := value.Undefined
		if res.m == nil || needGroups {
			named = res.groups(r)
		}
		var replacement *value.String
		switch {
		case functional:
			args := make([]value.Value, 0, n+4)
			args = append(args, value.Str(matched))
			args = append(args, captures...)
			args = append(args, value.Number(float64(position)), value.Str(s))
			if !named.IsUndefined() {
				args = append(args, named)
			}
			replacement = r.ToString(r.Call(replaceValue, value.Undefined, args))
		case res.m != nil:
			// Substituting a built-in match runs no program code, so it
			// goes straight into the result, and only when it is used.
			if position >= next {
				b.add(s, next, position)
				substitute(r, &b, matched, s, position, captures, named, template)
				next = position + matched.Len()
			}
			return
		default:
			if !named.IsUndefined() && named.IsNullish() {
				r.ThrowType("Cannot convert undefined or null to object")
			}
			tb := builder{r: r}
			substitute(r, &tb, matched, s, position, captures, named, template)
			replacement = tb.done()
		}
		if position >= next {
			b.add(s, next, position)
			b.str(replacement)
			next = position + matched.Len()
		}
	}
	// With a template and the built-in exec nothing runs between the
	// matches, so each is substituted as it is found; a replacer function
	// runs only after every match is found, as the specification orders
	// it (it could otherwise see lastIndex move).
	var results []result
	for {
		res, ok := execResult(r, rx, s)
		if !ok {
			break
		}
		if functional || res.m == nil {
			results = append(results, res)
			r.Charge(64)
			if res.m != nil {
				r.Charge(8 * len(res.m.Indices))
			}
		} else {
			apply(res)
		}
		if !global {
			break
		}
		if res.matched(r).Len() == 0 {
			setLastIndex(r, rx, value.Number(float64(advance(s, getLastIndex(r, rx), unicode))))
		}
	}
	for _, res := range results {
		r.Poll()
		apply(res)
	}
	if next < s.Len() {
		b.add(s, next, s.Len())
	}
	return b.done()
}

// substitute appends GetSubstitution(matched, str, position, captures,
// namedCaptures, template) to b: the template with $$, $&, $`, $', $n,
// $nn and $<name> expanded.
func substitute(r *value.Realm, b *builder, matched, str *value.String, position int, captures []value.Value, named value.Value, template *value.String) {
	n := template.Len()
	tail := min(position+matched.Len(), str.Len())
	lit := 0 // template[lit:k] is literal text not yet added
	gt := -1 // the next '>' at or after k+2, found once per stretch
	for k := 0; k+1 < n; k++ {
		if template.At(k) != '$' {
			continue
		}
		c := template.At(k + 1)
		ref := 2 // the length of the reference
		switch {
		case c == '$':
			b.add(template, lit, k+1)
		case c == '&':
			b.add(template, lit, k)
			b.str(matched)
		case c == '`':
			b.add(template, lit, k)
			b.add(str, 0, position)
		case c == '\'':
			b.add(template, lit, k)
			b.add(str, tail, str.Len())
		case c >= '0' && c <= '9':
			index := int(c - '0')
			if k+2 < n {
				if d := template.At(k + 2); d >= '0' && d <= '9' {
					if two := index*10 + int(d-'0'); two >= 1 && two <= len(captures) {
						index, ref = two, 3
					}
				}
			}
			if index < 1 || index > len(captures) {
				continue // not a reference: literal text
			}
			b.add(template, lit, k)
			if v := captures[index-1]; !v.IsUndefined() {
				b.str(v.AsString())
			}
		case c == '<':
			if named.IsUndefined() {
				continue
			}
			if gt < k+2 && gt != -2 {
				if gt = template.IndexOf(value.NewString(">"), k+2); gt < 0 {
					gt = -2 // none left
				}
			}
			if gt < 0 {
				continue
			}
			b.add(template, lit, k)
			if v := r.Get(named, template.Slice(k+2, gt).Key()); !v.IsUndefined() {
				b.str(r.ToString(v))
			}
			ref = gt + 1 - k
		default:
			continue
		}
		k += ref - 1
		lit = k + 1
	}
	b.add(template, lit, n)
}

// regexpSplit is RegExp.prototype[@@split].
func regexpSplit(r *value.Realm, rx *value.Object, arg, limitArg value.Value) value.Value {
	s := r.ToString(arg)
	speciesConstructor(r, rx)
	flags := flagsOf(r, rx)
	unicode := hasFlag(flags, 'u') || hasFlag(flags, 'v')
	newFlags := flags
	if !hasFlag(flags, 'y') {
		newFlags += "y"
	}
	fast := protoExecIntact(r) && validFlags(newFlags)
	var splitter *value.Object
	var re *jsregex.Regexp
	if fast {
		// The splitter would be a new object with the built-in exec; its
		// sticky matches at q, q+1, ... are found by one search from q, so
		// the expression runs without the y flag and no splitter is made.
		d := regexpData(rx)
		plain := strings.ReplaceAll(newFlags, "y", "")
		if re = d.Regexp; re.Flags() != plain {
			var err error
			if re, err = compile(r, re.Pattern(), plain); err != nil {
				newRegExp(r, r.Intrinsic(value.RegExpPrototype), d.Regexp.Pattern(), newFlags) // throws V8's error
			}
		}
	} else {
		splitter = matcherFor(r, rx, newFlags)
	}
	limit := uint32(math.MaxUint32)
	if !limitArg.IsUndefined() {
		limit = r.ToUint32(limitArg)
	}
	var out []value.Value
	if limit == 0 {
		return value.Obj(r.NewArrayValue(nil))
	}
	push := func(v value.Value) bool {
		if len(out) >= value.MaxArrayLength {
			r.ThrowRange(value.ArrayLengthMessage)
		}
		out = append(out, v)
		return uint32(len(out)) == limit
	}
	size := s.Len()
	done := func() value.Value {
		r.Charge(48 * len(out))
		return value.Obj(r.NewArrayValue(out))
	}
	if fast {
		r.Charge(6 * size)
		in := jsregex.NewInput(s.Units())
		if size == 0 {
			if m := execAt(r, re, in, 0); m != nil && m.Index() == 0 {
				return done()
			}
			push(value.Str(s))
			return done()
		}
		p, q := 0, 0
		for q < size {
			m := execAt(r, re, in, q)
			if m == nil || m.Index() >= size {
				break
			}
			q = m.Index()
			e := min(m.End(), size)
			if e == p {
				q = advance(s, q, unicode)
				continue
			}
			if push(value.Str(s.Slice(p, q))) {
				return done()
			}
			p = e
			for i := 1; i < len(m.Indices)/2; i++ {
				if push(capture(s, m, i)) {
					return done()
				}
			}
			q = p
		}
		push(value.Str(s.Slice(p, size)))
		return done()
	}
	if size == 0 {
		if _, ok := execResult(r, splitter, s); ok {
			return done()
		}
		push(value.Str(s))
		return done()
	}
	p, q := 0, 0
	for q < size {
		setLastIndex(r, splitter, value.Number(float64(q)))
		res, ok := execResult(r, splitter, s)
		if !ok {
			q = advance(s, q, unicode)
			continue
		}
		e := min(getLastIndex(r, splitter), size)
		if e == p {
			q = advance(s, q, unicode)
			continue
		}
		if push(value.Str(s.Slice(p, q))) {
			return done()
		}
		p = e
		n := res.nCaptures(r)
		if n >= value.MaxArrayLength {
			r.ThrowRange(value.ArrayLengthMessage)
		}
		for i := 1; i <= n; i++ {
			r.Poll()
			if push(res.capture(r, i)) {
				return done()
			}
		}
		q = p
	}
	push(value.Str(s.Slice(p, size)))
	return done()
}
