package builtin

import (
	"strconv"
	"strings"

	"github.com/go-codemode/codemode/value"
)

// console writes lines to the realm's Logs, rendered as the reference
// renders them (section 3.7): strings raw at the top level, everything
// else in a compact JSON-like form.

func installConsole(l *value.Library) {
	l.Intrinsic(value.ConsoleObject, value.IntrinsicSpec{Name: "console",
		Init: func(r *value.Realm, o *value.Object) { r.Methods(o, consoleMethods) }})
	l.GlobalIntrinsic("console", value.ConsoleObject)
	l.Register(consoleMethods...)
}

func logLine(prefix string) value.NativeFunc {
	return func(r *value.Realm, c *value.Call) value.Value {
		f := newFormatter(r, formatLimit)
		f.b.WriteString(prefix)
		for i, a := range c.Args {
			if i > 0 {
				f.b.WriteByte(' ')
			}
			if s := a.AsString(); s != nil {
				f.raw(s)
				continue
			}
			f.value(a, 0, nil)
		}
		log(r, f)
		return value.Undefined
	}
}

// log appends a formatted line to the realm's Logs. Its bytes were
// charged as it grew; the line's own slot is charged here.
func log(r *value.Realm, f *formatter) {
	f.settle()
	r.Charge(16)
	r.AppendLog(f.text())
}

var consoleMethods = []*value.Native{
	Native("console.log", 0, logLine("")),
	Native("console.info", 0, logLine("")),
	Native("console.debug", 0, logLine("[debug] ")),
	Native("console.warn", 0, logLine("[warn] ")),
	Native("console.error", 0, logLine("[error] ")),
	Native("console.dir", 0, func(r *value.Realm, c *value.Call) value.Value {
		f := newFormatter(r, formatLimit)
		if s := c.Arg(0).AsString(); s != nil {
			f.raw(s)
		} else {
			f.value(c.Arg(0), 0, nil)
		}
		log(r, f)
		return value.Undefined
	}),
	Native("console.table", 1, consoleTable),
}

func consoleTable(r *value.Realm, c *value.Call) value.Value {
	data := c.Arg(0)
	var rows []string
	var get func(k string) value.Value
	if o := data.AsObject(); o != nil {
		rows = r.OwnKeys(o, true, false)
		get = func(k string) value.Value { return r.Get(data, k) }
	} else {
		rows = []string{"0"}
		get = func(string) value.Value { return data }
	}
	// Columns: the union of the rows' keys in first-seen order, or the
	// list given; primitive rows go in a Value column.
	var cols []string
	if filter := c.Arg(1).AsObject(); filter != nil && filter.Class == value.ClassArray {
		for _, v := range r.IterateToSlice(c.Arg(1)) {
			cols = append(cols, r.ToString(v).String())
		}
	} else {
		seen := map[string]bool{}
		for _, k := range rows {
			if ro := get(k).AsObject(); ro != nil {
				for _, ck := range r.OwnKeys(ro, true, false) {
					if !seen[ck] {
						seen[ck] = true
						cols = append(cols, ck)
					}
				}
			}
		}
	}
	hasValues := false
	for _, k := range rows {
		if !get(k).IsObject() {
			hasValues = true
		}
	}
	f := newFormatter(r, formatLimit)
	b := &f.b
	b.WriteString("(index)")
	for _, ck := range cols {
		b.WriteString("\t" + ck)
	}
	if hasValues {
		b.WriteString("\tValue")
	}
	cell := func(v value.Value) {
		if s := v.AsString(); s != nil {
			f.raw(s)
		} else {
			f.value(v, 0, nil)
		}
	}
	for _, k := range rows {
		if f.full {
			break
		}
		r.Poll()
		b.WriteString("\n" + k)
		row := get(k)
		for _, ck := range cols {
			b.WriteByte('\t')
			if row.IsObject() && r.HasProperty(row.AsObject(), ck) {
				cell(r.Get(row, ck))
			}
		}
		if hasValues {
			b.WriteByte('\t')
			if !row.IsObject() {
				cell(row)
			}
		}
		f.step()
	}
	log(r, f)
	return value.Undefined
}

// Format renders a value the way console.log renders one argument, at
// most formatLimit bytes (then cut, ending in formatEllipsis).
func Format(r *value.Realm, v value.Value) string { return FormatLimit(r, v, formatLimit) }

// FormatLimit is Format with a bound of limit bytes on the text: the
// work and the memory it takes are bounded by the text, so a value that
// shares its parts (x = [x, x] thirty times over) renders in time
// proportional to limit, not to its 2^30 leaves. It neither ticks nor
// charges the run (the host calls it for a thrown value after the run
// ended, where an interrupt could not be caught); the console's own
// renderings do both.
func FormatLimit(r *value.Realm, v value.Value, limit int) string {
	f := &formatter{r: r, limit: limit}
	if s := v.AsString(); s != nil {
		f.raw(s)
	} else {
		f.value(v, 0, nil)
	}
	f.settle()
	return f.text()
}

// FormatNested renders a value as console.log renders it inside an
// object (strings quoted).
func FormatNested(r *value.Realm, b *strings.Builder, v value.Value) {
	b.WriteString(FormatLimit(r, v, formatLimit))
}

const consoleDepth = 32

// formatLimit bounds one rendering: a log line, a thrown value. It is the
// longest string a program can make, so that only a rendering that could
// not be held as a string anyway is cut.
const formatLimit = value.MaxStringLength

// formatEllipsis ends a rendering cut at its limit.
const formatEllipsis = "…"

// formatStep is how many bytes a rendering grows by between two charges
// of its memory.
const formatStep = 64 << 10

// formatter renders values into b, up to limit bytes.
type formatter struct {
	r       *value.Realm
	b       strings.Builder
	limit   int
	metered bool // tick and charge the run as the text grows
	charged int  // bytes of b counted in the run's memory so far
	full    bool // the limit was reached: nothing more is written
}

// newFormatter makes the metered formatter of a console method.
func newFormatter(r *value.Realm, limit int) *formatter {
	return &formatter{r: r, limit: limit, metered: true}
}

func (f *formatter) charge(n int) {
	if f.metered {
		f.r.Charge(n)
	}
}

func (f *formatter) tick(n int) {
	if f.metered {
		f.r.Tick(n)
	}
}

// step charges the growth of the text since the last step, once it is
// formatStep or more, and cuts the text at the limit.
func (f *formatter) step() {
	if n := f.b.Len(); n-f.charged >= formatStep {
		f.charge(n - f.charged)
		f.charged = n
	}
	if f.b.Len() >= f.limit {
		f.full = true
	}
}

// text is the rendering: cut at the limit (not inside a character) and
// ended with formatEllipsis when it reached the limit.
func (f *formatter) text() string {
	s := f.b.String()
	if !f.full {
		return s
	}
	s = s[:min(f.limit, len(s))]
	for len(s) > 0 && s[len(s)-1]&0xC0 == 0x80 {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] >= 0xC0 {
		s = s[:len(s)-1]
	}
	return s + formatEllipsis
}

// settle charges what the text grew by since the last step.
func (f *formatter) settle() {
	if n := f.b.Len(); n > f.charged {
		f.charge(n - f.charged)
		f.charged = n
	}
}

// raw writes a string as it is (a top-level string argument), charged
// and cut before it is copied.
func (f *formatter) raw(s *value.String) {
	if f.full {
		return
	}
	f.tick(s.Len())
	room := f.limit - f.b.Len()
	if s.Len() > room {
		s = s.Slice(0, max(room, 0)+1) // one past: step cuts at the limit
	}
	t := s.String()
	f.charge(len(t)) // before the copy
	f.charged += len(t)
	f.b.Grow(len(t))
	f.b.WriteString(t)
	f.step()
}

// quoted writes a string JSON-quoted, cut before it is copied when it
// would pass the limit.
func (f *formatter) quoted(s *value.String) {
	f.tick(s.Len())
	if room := f.limit - f.b.Len(); s.Len() > room {
		s = s.Slice(0, max(room, 0)+1)
	}
	if n := s.Len() + 2; n >= formatStep {
		f.charge(n) // before the copy
		f.charged += n
		f.b.Grow(n)
	}
	value.QuoteJSON(&f.b, s)
}

// value renders v (console.log's rendering inside an object). Every
// call writes at least a byte or returns at once when the text is full,
// so the work is bounded by the text.
func (f *formatter) value(v value.Value, depth int, stack []*value.Object) {
	if f.full {
		return
	}
	f.tick(1)
	f.render(v, depth, stack)
	f.step()
}

func (f *formatter) render(v value.Value, depth int, stack []*value.Object) {
	r, b := f.r, &f.b
	switch v.Kind() {
	case value.KindUndefined:
		b.WriteString("undefined")
		return
	case value.KindNull:
		b.WriteString("null")
		return
	case value.KindBoolean, value.KindNumber:
		s, _ := v.ToString()
		b.WriteString(s.String())
		return
	case value.KindString:
		f.quoted(v.AsString())
		return
	case value.KindSymbol:
		b.WriteString(v.AsSymbol().String())
		return
	}
	o := v.AsObject()
	if f.wrapper(o) {
		return
	}
	for _, s := range stack {
		if s == o {
			b.WriteString("[Circular]")
			return
		}
	}
	if depth >= consoleDepth {
		b.WriteString("...")
		return
	}
	stack = append(stack, o)
	r.Enter() // a getter below may run the program: count this frame
	defer r.Leave()
	switch {
	case o.Callable() || o.Class == value.ClassGenerator || o.Class == value.ClassIterator:
		b.WriteString("[opaque reference]")
		return
	case o.Class == value.ClassWeakMap:
		b.WriteString("WeakMap { <items unknown> }")
		return
	case o.Class == value.ClassWeakSet:
		b.WriteString("WeakSet { <items unknown> }")
		return
	case o.Class == value.ClassURLSearchParams:
		b.WriteString(r.ToString(v).String())
		return
	case o.Class == value.ClassHeaders:
		if bv, ok := o.Internal.(value.BoundaryValue); ok {
			b.WriteString("Headers ")
			f.value(bv.BoundaryValue(r), depth+1, stack)
			return
		}
	case o.Class == value.ClassPromise:
		b.WriteString("[Promise (await it to get its value)]")
		return
	case o.Class == value.ClassError:
		b.WriteString(ErrorString(r, v).String())
		return
	case o.Class == value.ClassDate || o.Class == value.ClassRegExp || o.Class == value.ClassURL:
		if o.Class == value.ClassDate {
			if exc := r.Try(func() { b.WriteString(r.ToString(r.Call(r.Get(v, "toISOString"), v, nil)).String()) }); exc != nil {
				b.WriteString("Invalid Date")
			}
			return
		}
		b.WriteString(r.ToString(v).String())
		return
	case o.Class == value.ClassMap:
		m, _ := o.Internal.(*value.OrderedMap)
		if m != nil {
			keys, vals := m.Entries()
			b.WriteString("Map(" + strconv.Itoa(len(keys)) + ") [")
			for i := range keys {
				if f.full {
					break
				}
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteByte('[')
				f.value(keys[i], depth+1, stack)
				b.WriteByte(',')
				f.value(vals[i], depth+1, stack)
				b.WriteByte(']')
			}
			b.WriteByte(']')
			return
		}
	case o.Class == value.ClassSet:
		m, _ := o.Internal.(*value.OrderedMap)
		if m != nil {
			keys, _ := m.Entries()
			b.WriteString("Set(" + strconv.Itoa(len(keys)) + ") [")
			for i := range keys {
				if f.full {
					break
				}
				if i > 0 {
					b.WriteByte(',')
				}
				f.value(keys[i], depth+1, stack)
			}
			b.WriteByte(']')
			return
		}
	case o.Class == value.ClassUint8Array:
		if in, ok := o.Internal.(value.Indexed); ok {
			n := in.IndexLen()
			b.WriteString("Uint8Array(" + strconv.Itoa(n) + ") [")
			for i := 0; i < n && !f.full; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				f.value(in.IndexGet(i), depth+1, stack)
			}
			b.WriteByte(']')
			return
		}
	}
	if a := o.Array(); a != nil && o.Class == value.ClassArray {
		b.WriteByte('[')
		for i := 0; i < a.Len() && !f.full; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			e, ok := a.Get(i)
			if !ok && o.HasIndexKeys() { // an element defined as an ordinary property
				key := strconv.Itoa(i)
				if _, own := r.GetOwnProperty(o, key); own {
					e, ok = r.Get(v, key), true
				}
			}
			if !ok { // a hole: counted like a value, so a sparse array is cut at the limit too
				b.WriteString("null")
				f.tick(1)
				f.step()
				continue
			}
			f.value(e, depth+1, stack)
		}
		b.WriteByte(']')
		return
	}
	b.WriteByte('{')
	first := true
	for _, k := range r.OwnKeys(o, true, false) {
		if f.full {
			break
		}
		p, _ := r.GetOwnProperty(o, k)
		val := p.Value
		if p.IsAccessor() {
			val = r.Get(v, k)
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		f.quoted(value.NewString(k))
		b.WriteByte(':')
		f.value(val, depth+1, stack)
	}
	b.WriteByte('}')
}

// wrapper renders a wrapper object as node does, [Number: 1], with the
// primitive rendered as nested values are; it reports false for any other
// object (the prototypes String.prototype and the like included, which
// node shows as objects).
func (f *formatter) wrapper(o *value.Object) bool {
	p, ok := o.PrimitiveValue()
	if !ok || o.Proto == nil {
		return false
	}
	var tag string
	switch o.Class {
	case value.ClassString:
		tag = "String"
	case value.ClassNumber:
		tag = "Number"
	case value.ClassBoolean:
		tag = "Boolean"
	default:
		tag = "Symbol"
	}
	for _, id := range [...]value.Intrinsic{value.StringPrototype, value.NumberPrototype, value.BooleanPrototype} {
		if o == f.r.Intrinsic(id) {
			return false
		}
	}
	f.b.WriteString("[" + tag + ": ")
	f.render(p, 0, nil)
	f.b.WriteByte(']')
	return true
}
