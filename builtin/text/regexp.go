package text

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/go-codemode/codemode/internal/jsregex"
	"github.com/go-codemode/codemode/value"
)

// The RegExp constructor, RegExp.prototype (exec, test, toString and the
// flag accessors) and RegExp.escape. RegExpBuiltinExec is builtinExec; the
// String methods' RegExp algorithms are in regexp_string.go.

// RegExpData is the Internal of a RegExp object: its compiled program. A
// snapshot keeps Regexp.Pattern() and Regexp.Flags() and recompiles with
// NewRegExpData. lastIndex is an ordinary own data property of the object.
type RegExpData struct {
	Regexp *jsregex.Regexp

	// The input last matched, kept so that a program calling exec in a
	// loop over one string does not convert it on every call. Strings are
	// immutable, so the pointer identifies the text.
	inStr *value.String
	in    *jsregex.Input
}

// NewRegExpData compiles pattern (WTF-8) with flags for a RegExp object.
func NewRegExpData(pattern, flags string) (*RegExpData, error) {
	re, err := jsregex.Compile(pattern, flags)
	if err != nil {
		return nil, err
	}
	return &RegExpData{Regexp: re}, nil
}

// input returns s prepared for matching, reusing the last one. Preparing
// costs about six bytes a code unit (the units and the engine's runes).
func (d *RegExpData) input(r *value.Realm, s *value.String) *jsregex.Input {
	if d.inStr != s {
		r.Charge(6 * s.Len())
		d.inStr, d.in = s, jsregex.NewInput(s.Units())
	}
	return d.in
}

// The compile cache: a regex literal is evaluated as new RegExp(pattern,
// flags) every time the program reaches it, so a literal in a loop would
// otherwise compile on every iteration. Compiled programs are immutable
// and safe for concurrent use, so the runs of one Runtime share them
// through the library's cache.
const (
	cacheSize       = 512
	cacheMaxPattern = 4096
)

type cacheKey struct{ pattern, flags string }

// compile compiles pattern with flags, through the library's cache. A
// program compiled here (not found in the cache) is charged at its size
// against the run's budget: a run that keeps many distinct expressions
// holds their programs.
func compile(r *value.Realm, pattern, flags string) (*jsregex.Regexp, error) {
	lib := r.Library()
	key := cacheKey{pattern, flags}
	cacheable := lib != nil && len(pattern) <= cacheMaxPattern && len(flags) <= 8
	if cacheable {
		if re, ok := lib.CacheLoad(key); ok {
			return re.(*jsregex.Regexp), nil
		}
	}
	r.Tick(len(pattern))
	r.Reserve(1024 + 16*len(pattern))
	re, err := compileWatched(r, pattern, flags)
	if err != nil {
		return nil, err
	}
	r.Charge(re.Size())
	if cacheable {
		lib.CacheStore(key, re, cacheSize)
	}
	return re, nil
}

// watchedCompile is the pattern length from which a compile runs on its
// own goroutine while the run's interrupts are checked: regexp2 compiles
// in one call, a second or more for a pattern of a million characters,
// which no Tick inside it can interrupt.
const watchedCompile = 256

// compileInterval is how often a watched compile checks the interrupts.
const compileInterval = 2 * time.Millisecond

// compileWatched is jsregex.Compile; for a long pattern the compile runs
// on a goroutine while this one checks the budget, the deadline and the
// context every compileInterval. When the run is interrupted the compile
// is abandoned: it finishes on its own (bounded by jsregex's size limit)
// and is dropped.
func compileWatched(r *value.Realm, pattern, flags string) (*jsregex.Regexp, error) {
	// A property class (\p{L}) expands to thousands of ranges however
	// short the pattern.
	if len(pattern) < watchedCompile && !strings.Contains(pattern, `\p`) && !strings.Contains(pattern, `\P`) {
		return jsregex.Compile(pattern, flags)
	}
	type result struct {
		re  *jsregex.Regexp
		err error
	}
	done := make(chan result, 1) // buffered: an abandoned compile never blocks
	go func() {
		re, err := jsregex.Compile(pattern, flags)
		done <- result{re, err}
	}()
	t := time.NewTicker(compileInterval)
	defer t.Stop()
	for {
		select {
		case res := <-done:
			return res.re, res.err
		case <-t.C:
			r.CheckBudget()
			r.Agent.CheckInterrupts()
		}
	}
}

// MatchTimeout bounds one match of a regular expression. Backtracking can
// take exponential time on hostile patterns; a match that runs this long
// interrupts the run. (When the engine offers its run's deadline through
// a Deadline() time.Time method, a nearer deadline wins.)
const MatchTimeout = 5 * time.Second

// timeoutMessage is the interrupt's message when a match runs too long.
const timeoutMessage = "Execution timed out: a regular expression ran too long."

func matchDeadline(r *value.Realm) time.Time {
	d := time.Now().Add(MatchTimeout)
	if a, ok := r.Agent.(interface{ Deadline() time.Time }); ok {
		if ad := a.Deadline(); !ad.IsZero() && ad.Before(d) {
			d = ad
		}
	}
	return d
}

// execAt runs the program on s from lastIndex (only there when sticky).
func execAt(r *value.Realm, re *jsregex.Regexp, in *jsregex.Input, lastIndex int) *jsregex.Match {
	r.Tick(1 + max(in.Len()-lastIndex, 0)/4) // a scan to the end, at worst
	m, err := re.ExecInput(in, lastIndex, matchDeadline(r))
	if err == jsregex.ErrTimeout {
		panic(&value.Interrupt{Kind: "TimeoutExceeded", Message: timeoutMessage})
	}
	if err != nil {
		r.ThrowError(value.Error, "%s", err.Error())
	}
	return m
}

// regexpData returns the RegExpData of a RegExp object, or nil.
func regexpData(o *value.Object) *RegExpData {
	if o == nil || o.Class != value.ClassRegExp {
		return nil
	}
	d, _ := o.Internal.(*RegExpData)
	return d
}

// canonicalFlags orders valid flags as RegExp.prototype.flags does.
func canonicalFlags(flags string) string {
	var b strings.Builder
	for _, c := range "dgimsuvy" {
		if strings.ContainsRune(flags, c) {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// newRegExp is RegExpAlloc + RegExpInitialize: a RegExp object with the
// given prototype, compiled from pattern and flags (WTF-8), or V8's
// SyntaxError.
func newRegExp(r *value.Realm, proto *value.Object, pattern, flags string) *value.Object {
	re, err := compile(r, pattern, flags)
	if err != nil {
		if e, ok := err.(*jsregex.Error); ok {
			if e.BadFlags {
				r.ThrowError(value.SyntaxError, "Invalid flags supplied to RegExp constructor '%s'", value.NewString(flags).String())
			}
			r.ThrowError(value.SyntaxError, "Invalid regular expression: /%s/%s: %s",
				value.NewString(pattern).String(), canonicalFlags(flags), e.Reason)
		}
		r.ThrowError(value.SyntaxError, "%s", err.Error())
	}
	return regexpObject(r, proto, re)
}

// regexpObject makes a RegExp object for a compiled program.
func regexpObject(r *value.Realm, proto *value.Object, re *jsregex.Regexp) *value.Object {
	o := value.NewObject(proto)
	o.Class = value.ClassRegExp
	o.Internal = &RegExpData{Regexp: re}
	o.Define("lastIndex", value.Number(0), value.Writable)
	r.Charge(160)
	return o
}

// regexpCreate is RegExpCreate(P, F): new RegExp from a pattern value
// (undefined is the empty pattern) and flags.
func regexpCreate(r *value.Realm, p, f value.Value) *value.Object {
	pattern, flags := "", ""
	if !p.IsUndefined() {
		pattern = r.ToString(p).Key()
	}
	if !f.IsUndefined() {
		flags = r.ToString(f).Key()
	}
	return newRegExp(r, r.Intrinsic(value.RegExpPrototype), pattern, flags)
}

func installRegExp(l *value.Library) {
	l.Intrinsic(value.RegExpPrototype, value.IntrinsicSpec{Name: "RegExp.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("constructor", value.Obj(r.Intrinsic(value.RegExpCtor)), value.Writable|value.Configurable)
			r.Methods(o, regexpProto)
			for _, g := range regexpGetters {
				r.Getter(o, g.FuncName(), g) // named "get source", ...
			}
		}})
	l.Intrinsic(value.RegExpCtor, value.IntrinsicSpec{Name: "RegExp", Func: regexpCtor,
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.RegExpPrototype))
			r.Methods(o, []*value.Native{regexpEscape})
		}})
	l.Intrinsic(value.RegExpStringIteratorPrototype, value.IntrinsicSpec{Name: "%RegExpStringIteratorPrototype%",
		Proto: value.IteratorPrototype,
		Init: func(r *value.Realm, o *value.Object) {
			r.Method(o, "next", regexpStringIteratorNext)
			o.Define(value.SymToStringTag.Key(), value.StrOf("RegExp String Iterator"), value.Configurable)
		}})
	l.GlobalIntrinsic("RegExp", value.RegExpCtor)
	l.Register(regexpProto...)
	l.Register(regexpGetters...)
	l.Register(regexpEscape, regexpStringIteratorNext)
}

// regexpCtor is RegExp(pattern, flags), with or without new. A regex
// literal in a program is evaluated as new RegExp(pattern, flags).
var regexpCtor = &value.Native{Name: "RegExp", Length: 2, Ctor: true, Fn: func(r *value.Realm, c *value.Call) value.Value {
	pattern, flags := c.Arg(0), c.Arg(1)
	src := regexpData(pattern.AsObject())
	newTarget := c.NewTarget
	if newTarget == nil {
		newTarget = c.Callee
		// RegExp(re) returns re itself when it is one of ours.
		if src != nil && flags.IsUndefined() {
			if ctor := r.Get(pattern, "constructor"); ctor.AsObject() == newTarget {
				return pattern
			}
		}
	}
	proto := r.ProtoFromCtor(newTarget, value.RegExpPrototype)
	if src != nil {
		if flags.IsUndefined() {
			return value.Obj(regexpObject(r, proto, src.Regexp))
		}
		return value.Obj(newRegExp(r, proto, src.Regexp.Pattern(), r.ToString(flags).Key()))
	}
	p, f := "", ""
	if !pattern.IsUndefined() {
		p = r.ToString(pattern).Key()
	}
	if !flags.IsUndefined() {
		f = r.ToString(flags).Key()
	}
	return value.Obj(newRegExp(r, proto, p, f))
}}

// thisRegExp is the receiver of exec, test and toString: exec needs a
// RegExp, the others any object.
func thisRegExp(r *value.Realm, c *value.Call, method string, needData bool) *value.Object {
	o := c.This.AsObject()
	if o == nil || needData && regexpData(o) == nil {
		r.ThrowType("Method RegExp.prototype.%s called on incompatible receiver %s", method, describeReceiver(r, c.This))
	}
	return o
}

// describeReceiver renders a receiver as V8's incompatible-receiver
// messages do: primitives as themselves, arrays and objects without a
// constructor as [object Array] / [object Object], others as #<Ctor>. It
// runs no program code (a getter for constructor is not called).
func describeReceiver(r *value.Realm, v value.Value) string {
	switch {
	case v.IsString():
		return v.AsString().String()
	case v.IsSymbol():
		return "Symbol(" + v.AsSymbol().Description + ")"
	}
	o := v.AsObject()
	if o == nil || o.Callable() {
		return r.Describe(v)
	}
	if o.Class == value.ClassArray {
		return "[object Array]"
	}
	if p, _ := o.Lookup("constructor"); p != nil && !p.IsAccessor() {
		if c := p.Value.AsObject(); c != nil && c.Callable() {
			if n := r.FunctionName(c); n != "" {
				return "#<" + n + ">"
			}
		}
	}
	return "[object Object]"
}

var regexpProto = []*value.Native{regexpExec,
	native("RegExp.prototype.test", 1, func(r *value.Realm, c *value.Call) value.Value {
		rx := thisRegExp(r, c, "test", false)
		s := r.ToString(c.Arg(0))
		_, ok := execResult(r, rx, s)
		return value.Bool(ok)
	}),
	native("RegExp.prototype.toString", 0, func(r *value.Realm, c *value.Call) value.Value {
		rx := thisRegExp(r, c, "toString", false)
		b := builder{r: r}
		b.unit('/')
		b.str(r.ToString(r.Get(value.Obj(rx), "source")))
		b.unit('/')
		b.str(r.ToString(r.Get(value.Obj(rx), "flags")))
		return value.Str(b.done())
	}),
}

// regexpExec is RegExp.prototype.exec.
var regexpExec = native("RegExp.prototype.exec", 1, func(r *value.Realm, c *value.Call) value.Value {
	rx := thisRegExp(r, c, "exec", true)
	s := r.ToString(c.Arg(0))
	m := builtinExec(r, rx, s)
	if m == nil {
		return value.Null
	}
	return value.Obj(matchArray(r, regexpData(rx).Regexp, s, m))
})

// getLastIndex reads ToLength(rx.lastIndex).
func getLastIndex(r *value.Realm, rx *value.Object) int {
	if p := rx.GetOwn("lastIndex"); p != nil && !p.IsAccessor() && p.Value.IsNumber() {
		n := p.Value.Num()
		switch {
		case n >= 0 && n <= 1<<53-1:
			return int(n)
		case n > 0:
			return 1<<53 - 1
		default:
			return 0 // negative or NaN
		}
	}
	return r.ToLength(r.Get(value.Obj(rx), "lastIndex"))
}

// setLastIndex is Set(rx, "lastIndex", v, true).
func setLastIndex(r *value.Realm, rx *value.Object, v value.Value) {
	if p := rx.GetOwn("lastIndex"); p != nil && !p.IsAccessor() {
		if p.Flags&value.Writable == 0 {
			r.ThrowType("Cannot assign to read only property 'lastIndex' of object '[object RegExp]'")
		}
		p.Value = v
		return
	}
	r.Set(value.Obj(rx), "lastIndex", v)
}

// builtinExec is RegExpBuiltinExec without the result array: the match,
// or nil, with lastIndex read and written as the specification does.
func builtinExec(r *value.Realm, rx *value.Object, s *value.String) *jsregex.Match {
	d := regexpData(rx)
	lastIndex := getLastIndex(r, rx)
	re := d.Regexp
	global, sticky := re.Global(), re.Sticky()
	if !global && !sticky {
		lastIndex = 0
	}
	var m *jsregex.Match
	if lastIndex <= s.Len() {
		m = execAt(r, re, d.input(r, s), lastIndex)
	}
	if m == nil {
		if global || sticky {
			setLastIndex(r, rx, value.Number(0))
		}
		return nil
	}
	if global || sticky {
		setLastIndex(r, rx, value.Number(float64(m.End())))
	}
	return m
}

// matchArray builds exec's result: the match and its captures, with
// index, input, groups and (with the d flag) indices.
func matchArray(r *value.Realm, re *jsregex.Regexp, s *value.String, m *jsregex.Match) *value.Object {
	n := len(m.Indices) / 2
	elems := make([]value.Value, n)
	for i := range elems {
		elems[i] = capture(s, m, i)
	}
	a := r.NewArrayValue(elems)
	a.Define("index", value.Number(float64(m.Index())), value.DefaultFlags)
	a.Define("input", value.Str(s), value.DefaultFlags)
	a.Define("groups", groupsObject(r, s, m), value.DefaultFlags)
	if re.HasIndices() {
		a.Define("indices", value.Obj(indicesArray(r, m)), value.DefaultFlags)
	}
	return a
}

// capture returns group i of m as a string, or undefined.
func capture(s *value.String, m *jsregex.Match, i int) value.Value {
	if st, e, ok := m.Group(i); ok {
		return value.Str(s.Slice(st, e))
	}
	return value.Undefined
}

// groupsObject is the groups of a match: a null-prototype object of the
// named groups, or undefined when the pattern names none.
func groupsObject(r *value.Realm, s *value.String, m *jsregex.Match) value.Value {
	named := m.NamedGroups()
	if named == nil {
		return value.Undefined
	}
	g := value.NewObject(nil)
	r.Charge(96)
	for _, ng := range named {
		v := value.Undefined
		if ng.Start >= 0 {
			v = value.Str(s.Slice(ng.Start, ng.End))
		}
		g.Define(ng.Name, v, value.DefaultFlags)
	}
	return value.Obj(g)
}

// indicesArray is the indices of a d-flag match: [start, end] pairs, with
// their own groups.
func indicesArray(r *value.Realm, m *jsregex.Match) *value.Object {
	pair := func(st, e int) value.Value {
		if st < 0 {
			return value.Undefined
		}
		return value.Obj(r.NewArrayValue([]value.Value{value.Number(float64(st)), value.Number(float64(e))}))
	}
	n := len(m.Indices) / 2
	elems := make([]value.Value, n)
	for i := range elems {
		elems[i] = pair(m.Indices[2*i], m.Indices[2*i+1])
	}
	a := r.NewArrayValue(elems)
	groups := value.Undefined
	if named := m.NamedGroups(); named != nil {
		g := value.NewObject(nil)
		r.Charge(96)
		for _, ng := range named {
			g.Define(ng.Name, pair(ng.Start, ng.End), value.DefaultFlags)
		}
		groups = value.Obj(g)
	}
	a.Define("groups", groups, value.DefaultFlags)
	return a
}

// regexpGetters are RegExp.prototype's accessors.
var regexpGetters = []*value.Native{
	flagGetter("hasIndices", (*jsregex.Regexp).HasIndices),
	flagGetter("global", (*jsregex.Regexp).Global),
	flagGetter("ignoreCase", (*jsregex.Regexp).IgnoreCase),
	flagGetter("multiline", (*jsregex.Regexp).Multiline),
	flagGetter("dotAll", (*jsregex.Regexp).DotAll),
	flagGetter("unicode", (*jsregex.Regexp).Unicode),
	flagGetter("unicodeSets", (*jsregex.Regexp).UnicodeSets),
	flagGetter("sticky", (*jsregex.Regexp).Sticky),
	regexpFlags,
	regexpSource,
}

// flagNames are the flag accessors in the order the flags getter reads
// them, with their letters.
var flagNames = [...]struct {
	name   string
	letter byte
}{{"hasIndices", 'd'}, {"global", 'g'}, {"ignoreCase", 'i'}, {"multiline", 'm'}, {"dotAll", 's'},
	{"unicode", 'u'}, {"unicodeSets", 'v'}, {"sticky", 'y'}}

// flagGetter makes the accessor of one flag: undefined on
// RegExp.prototype itself, a TypeError on anything else but a RegExp.
func flagGetter(name string, flag func(*jsregex.Regexp) bool) *value.Native {
	return native("RegExp.prototype."+name, 0, func(r *value.Realm, c *value.Call) value.Value {
		o := c.This.AsObject()
		if d := regexpData(o); d != nil {
			return value.Bool(flag(d.Regexp))
		}
		if o != nil && o == r.Intrinsic(value.RegExpPrototype) {
			return value.Undefined
		}
		r.ThrowType("RegExp.prototype.%s getter called on non-RegExp object", name)
		return value.Undefined
	})
}

var regexpSource = native("RegExp.prototype.source", 0, func(r *value.Realm, c *value.Call) value.Value {
	o := c.This.AsObject()
	if d := regexpData(o); d != nil {
		return value.StrOf(d.Regexp.Source())
	}
	if o != nil && o == r.Intrinsic(value.RegExpPrototype) {
		return value.StrOf("(?:)")
	}
	r.ThrowType("RegExp.prototype.source getter called on non-RegExp object")
	return value.Undefined
})

var regexpFlags = native("RegExp.prototype.flags", 0, func(r *value.Realm, c *value.Call) value.Value {
	o := c.This.AsObject()
	if o == nil {
		r.ThrowType("RegExp.prototype.flags getter called on non-object %s", describeReceiver(r, c.This))
	}
	var b []byte
	for _, f := range flagNames {
		if r.Get(c.This, f.name).ToBoolean() {
			b = append(b, f.letter)
		}
	}
	return value.StrOf(string(b))
})

// regexpEscape is RegExp.escape: the string as a pattern that matches it
// literally, safe to embed anywhere in a pattern.
var regexpEscape = native("RegExp.escape", 1, func(r *value.Realm, c *value.Call) value.Value {
	s := c.Arg(0).AsString()
	if s == nil {
		r.ThrowType("input argument must be a string")
	}
	units := s.Units()
	b := builder{r: r}
	hex := func(prefix string, n uint16, width int) {
		b.str(value.NewString(prefix))
		h := strconv.FormatUint(uint64(n), 16)
		for i := len(h); i < width; i++ {
			b.unit('0')
		}
		b.str(value.NewString(h))
	}
	for i := 0; i < len(units); i++ {
		u := units[i]
		switch {
		case b.len() == 0 && (u >= '0' && u <= '9' || u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z'):
			hex(`\x`, u, 2)
		case u < 0x80 && strings.IndexByte(`^$\.*+?()[]{}|/`, byte(u)) >= 0:
			b.unit('\\')
			b.unit(u)
		case u == '\t':
			b.str(value.NewString(`\t`))
		case u == '\n':
			b.str(value.NewString(`\n`))
		case u == '\v':
			b.str(value.NewString(`\v`))
		case u == '\f':
			b.str(value.NewString(`\f`))
		case u == '\r':
			b.str(value.NewString(`\r`))
		case u >= 0xD800 && u <= 0xDBFF && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF:
			b.unit(u) // a pair passes through
			b.unit(units[i+1])
			i++
		case u < 0x80 && strings.IndexByte(",-=<>#&!%:;@~'`\"", byte(u)) >= 0, isSpaceUnit(u),
			utf16.IsSurrogate(rune(u)):
			if u <= 0xFF {
				hex(`\x`, u, 2)
			} else {
				hex(`\u`, u, 4)
			}
		default:
			b.unit(u)
		}
	}
	return value.Str(b.done())
})

// isSpaceUnit reports WhiteSpace or LineTerminator.
func isSpaceUnit(u uint16) bool {
	switch u {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return u >= 0x2000 && u <= 0x200A
}
