package value

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-codemode/codemode/internal/jsnum"
)

// The data-only path of JSON.stringify: plain objects, arrays and
// primitives, written without running any program code. Anything that
// could run code (a toJSON method anywhere on the chain, an accessor) or
// that JSON.stringify treats specially (Date, Map, Error, boxed
// primitives...) makes it report ErrNeedsEngine, and the engine takes the
// general path. Functions are left out, as JSON.stringify leaves them.

// ErrNeedsEngine means the value holds something the data-only path may
// not decide on its own.
var ErrNeedsEngine = errors.New("value: JSON.stringify needs the engine for this value")

// ErrCircular is JSON.stringify of a value that contains itself; engines
// raise it as a TypeError.
var ErrCircular = errors.New("value: circular structure")

// CircularMessage is the TypeError message for ErrCircular.
const CircularMessage = "Converting circular structure to JSON"

// MaxJSONDepth bounds the nesting JSON.stringify follows; deeper is a
// RangeError "Maximum call stack size exceeded", as in V8.
const MaxJSONDepth = 10_000

// ErrJSONDepth is returned past MaxJSONDepth.
var ErrJSONDepth = errors.New("value: JSON nesting too deep")

// StringifyData writes v as JSON.stringify(v, null, indent) would, for
// plain data. ok is false when v is undefined or a function (JSON.stringify
// returns undefined). indent is the gap string (at most 10 characters).
func StringifyData(v Value, indent string) (text string, ok bool, err error) {
	w := &jsonWriter{gap: indent}
	ok, err = w.value(v, 0)
	if err != nil || !ok {
		return "", false, err
	}
	return w.b.String(), true, nil
}

type jsonWriter struct {
	b     strings.Builder
	gap   string
	stack []*Object
	// onStack mirrors stack once it is deep, to keep the circularity
	// check constant-time.
	onStack map[*Object]bool
}

const shallowStack = 32

func (w *jsonWriter) push(o *Object) error {
	if w.onStack != nil {
		if w.onStack[o] {
			return ErrCircular
		}
	} else {
		for _, open := range w.stack {
			if open == o {
				return ErrCircular
			}
		}
	}
	w.stack = append(w.stack, o)
	if w.onStack == nil && len(w.stack) > shallowStack {
		w.onStack = make(map[*Object]bool, 2*len(w.stack))
		for _, open := range w.stack {
			w.onStack[open] = true
		}
	} else if w.onStack != nil {
		w.onStack[o] = true
	}
	return nil
}

func (w *jsonWriter) pop() {
	o := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	if w.onStack != nil {
		delete(w.onStack, o)
	}
}

// skipped reports what JSON.stringify leaves out of objects (and writes as
// null in arrays): undefined and functions.
func skipped(v Value) bool {
	if v.IsUndefined() || v.IsSymbol() {
		return true
	}
	o := v.AsObject()
	return o != nil && o.Callable()
}

// value writes v and reports false if JSON.stringify would skip it
// (undefined, functions).
func (w *jsonWriter) value(v Value, depth int) (bool, error) {
	if w.b.Len() > MaxStringLength {
		// Past the longest string a program may hold: let the engine's
		// general path raise the exact error.
		return false, ErrNeedsEngine
	}
	switch r := v.ref.(type) {
	case nil, *holeTag, *Symbol:
		return false, nil
	case *nullTag:
		w.b.WriteString("null")
	case *boolTag:
		if v.num != 0 {
			w.b.WriteString("true")
		} else {
			w.b.WriteString("false")
		}
	case *numberTag:
		if math.IsInf(v.num, 0) || math.IsNaN(v.num) {
			w.b.WriteString("null")
		} else {
			w.b.WriteString(jsnum.Format(v.num))
		}
	case *String:
		QuoteJSON(&w.b, r)
	case *Object:
		if r.Callable() {
			return false, nil
		}
		if p, _ := r.Lookup("toJSON"); p != nil {
			return false, ErrNeedsEngine
		}
		if depth >= MaxJSONDepth {
			return false, ErrJSONDepth
		}
		if err := w.push(r); err != nil {
			return false, err
		}
		defer w.pop()
		switch r.Class {
		case ClassArray:
			return true, w.array(r, depth)
		case ClassObject:
			return true, w.object(r, depth)
		}
		return false, ErrNeedsEngine
	}
	return true, nil
}

func (w *jsonWriter) newline(depth int) {
	if w.gap == "" {
		return
	}
	w.b.WriteByte('\n')
	for i := 0; i < depth; i++ {
		w.b.WriteString(w.gap)
	}
}

func (w *jsonWriter) array(o *Object, depth int) error {
	arr := o.Array()
	if o.hasIndex {
		return ErrNeedsEngine // elements among the ordinary properties: read them with Get
	}
	if len(o.props) > 0 {
		// Non-index properties are invisible to JSON, but one could be an
		// accessor the engine must not skip past silently; be safe.
		for i := range o.props {
			if o.props[i].IsAccessor() {
				return ErrNeedsEngine
			}
		}
	}
	if arr.Len() == 0 {
		w.b.WriteString("[]")
		return nil
	}
	w.b.WriteByte('[')
	for i := 0; i < arr.Len(); i++ {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.newline(depth + 1)
		el, _ := arr.Get(i)
		ok, err := w.value(el, depth+1)
		if err != nil {
			return err
		}
		if !ok {
			w.b.WriteString("null")
		}
	}
	w.newline(depth)
	w.b.WriteByte(']')
	return nil
}

func (w *jsonWriter) object(o *Object, depth int) error {
	wrote := false
	w.b.WriteByte('{')
	member := func(p *Property) error {
		if p.Flags&tombstone != 0 || p.Flags&Enumerable == 0 || IsSymbolKey(p.Key) || IsPrivateKey(p.Key) {
			return nil
		}
		if p.IsAccessor() {
			return ErrNeedsEngine
		}
		if skipped(p.Value) {
			return nil
		}
		if wrote {
			w.b.WriteByte(',')
		}
		w.newline(depth + 1)
		quoteKey(&w.b, p.Key)
		w.b.WriteByte(':')
		if w.gap != "" {
			w.b.WriteByte(' ')
		}
		if _, err := w.value(p.Value, depth+1); err != nil {
			return err
		}
		wrote = true
		return nil
	}
	if o.hasIndex {
		for _, k := range o.OwnKeys(true) {
			if err := member(o.GetOwn(k)); err != nil {
				return err
			}
		}
	} else {
		// Insertion order is the key order: walk the slots directly.
		for i := 0; i < len(o.props); i++ {
			if err := member(&o.props[i]); err != nil {
				return err
			}
		}
	}
	if wrote {
		w.newline(depth)
	}
	w.b.WriteByte('}')
	return nil
}

// QuoteKey writes a property key (WTF-8) as a JSON string literal, the way
// JSON.stringify quotes keys.
func QuoteKey(b *strings.Builder, key string) { quoteKey(b, key) }

// quoteKey quotes a property key (WTF-8).
func quoteKey(b *strings.Builder, key string) {
	for i := 0; i < len(key); i++ {
		if key[i] >= utf8.RuneSelf {
			QuoteJSON(b, NewString(key))
			return
		}
	}
	quoteASCII(b, key)
}

// QuoteJSON writes s as a JSON string literal the way JSON.stringify does:
// ", \ and control characters escaped (with \b \f \n \r \t where they
// exist), lone surrogates as \udxxx, everything else as is.
func QuoteJSON(b *strings.Builder, s *String) {
	if s.IsASCII() {
		quoteASCII(b, s.ascii)
		return
	}
	b.WriteByte('"')
	units := s.Units()
	for i := 0; i < len(units); i++ {
		u := units[i]
		switch {
		case u < 0x20 || u == '"' || u == '\\':
			writeJSONEscape(b, u)
		case u >= 0xD800 && u < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] < 0xE000:
			b.WriteRune(0x10000 + (rune(u)-0xD800)<<10 + rune(units[i+1]) - 0xDC00)
			i++
		case u >= 0xD800 && u < 0xE000:
			writeJSONEscape(b, u)
		case u < utf8.RuneSelf:
			b.WriteByte(byte(u))
		default:
			b.WriteRune(rune(u))
		}
	}
	b.WriteByte('"')
}

func quoteASCII(b *strings.Builder, text string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b.WriteString(text[start:i])
		writeJSONEscape(b, uint16(c))
		start = i + 1
	}
	b.WriteString(text[start:])
	b.WriteByte('"')
}

func writeJSONEscape(b *strings.Builder, u uint16) {
	switch u {
	case '"':
		b.WriteString(`\"`)
	case '\\':
		b.WriteString(`\\`)
	case '\b':
		b.WriteString(`\b`)
	case '\f':
		b.WriteString(`\f`)
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	default:
		b.WriteString(`\u`)
		h := strconv.FormatUint(uint64(u), 16)
		b.WriteString(strings.Repeat("0", 4-len(h)))
		b.WriteString(h)
	}
}
