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
		var b strings.Builder
		b.WriteString(prefix)
		for i, a := range c.Args {
			if i > 0 {
				b.WriteByte(' ')
			}
			if s := a.AsString(); s != nil {
				b.WriteString(s.String())
				continue
			}
			formatValue(r, &b, a, 0, nil)
		}
		r.Logs = append(r.Logs, b.String())
		r.Charge(b.Len() + 16)
		return value.Undefined
	}
}

var consoleMethods = []*value.Native{
	Native("console.log", 0, logLine("")),
	Native("console.info", 0, logLine("")),
	Native("console.debug", 0, logLine("[debug] ")),
	Native("console.warn", 0, logLine("[warn] ")),
	Native("console.error", 0, logLine("[error] ")),
	Native("console.dir", 0, func(r *value.Realm, c *value.Call) value.Value {
		r.Logs = append(r.Logs, Format(r, c.Arg(0)))
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
	var b strings.Builder
	b.WriteString("(index)")
	for _, ck := range cols {
		b.WriteString("\t" + ck)
	}
	if hasValues {
		b.WriteString("\tValue")
	}
	for _, k := range rows {
		b.WriteString("\n" + k)
		row := get(k)
		for _, ck := range cols {
			b.WriteByte('\t')
			if row.IsObject() && r.HasProperty(row.AsObject(), ck) {
				b.WriteString(Format(r, r.Get(row, ck)))
			}
		}
		if hasValues {
			b.WriteByte('\t')
			if !row.IsObject() {
				b.WriteString(Format(r, row))
			}
		}
	}
	r.Logs = append(r.Logs, b.String())
	return value.Undefined
}

// Format renders a value the way console.log renders one argument.
func Format(r *value.Realm, v value.Value) string {
	if s := v.AsString(); s != nil {
		return s.String()
	}
	var b strings.Builder
	formatValue(r, &b, v, 0, nil)
	return b.String()
}

// FormatNested renders a value as console.log renders it inside an
// object (strings quoted).
func FormatNested(r *value.Realm, b *strings.Builder, v value.Value) { formatValue(r, b, v, 0, nil) }

const consoleDepth = 32

func formatValue(r *value.Realm, b *strings.Builder, v value.Value, depth int, stack []*value.Object) {
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
		value.QuoteJSON(b, v.AsString())
		return
	case value.KindSymbol:
		b.WriteString("Symbol(" + v.AsSymbol().Description + ")")
		return
	}
	o := v.AsObject()
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
			formatValue(r, b, bv.BoundaryValue(r), depth+1, stack)
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
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteByte('[')
				formatValue(r, b, keys[i], depth+1, stack)
				b.WriteByte(',')
				formatValue(r, b, vals[i], depth+1, stack)
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
				if i > 0 {
					b.WriteByte(',')
				}
				formatValue(r, b, keys[i], depth+1, stack)
			}
			b.WriteByte(']')
			return
		}
	case o.Class == value.ClassUint8Array:
		if in, ok := o.Internal.(value.Indexed); ok {
			n := in.IndexLen()
			b.WriteString("Uint8Array(" + strconv.Itoa(n) + ") [")
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				formatValue(r, b, in.IndexGet(i), depth+1, stack)
			}
			b.WriteByte(']')
			return
		}
	}
	if a := o.Array(); a != nil && o.Class == value.ClassArray {
		b.WriteByte('[')
		for i := 0; i < a.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			e, ok := a.Get(i)
			if !ok {
				b.WriteString("null")
				continue
			}
			formatValue(r, b, e, depth+1, stack)
		}
		b.WriteByte(']')
		return
	}
	b.WriteByte('{')
	first := true
	for _, k := range r.OwnKeys(o, true, false) {
		p, _ := r.GetOwnProperty(o, k)
		val := p.Value
		if p.IsAccessor() {
			val = r.Get(v, k)
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		value.QuoteJSON(b, value.NewString(k))
		b.WriteByte(':')
		formatValue(r, b, val, depth+1, stack)
	}
	b.WriteByte('}')
}
