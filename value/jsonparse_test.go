package value

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/go-codemode/codemode/internal/jsnum"
)

// TestParseJSONAgainstV8 runs every case of testdata/jsonparse.tsv, made
// by node (testdata/gen_jsonparse.js): the value, or the exact message.
func TestParseJSONAgainstV8(t *testing.T) {
	f, err := os.Open("testdata/jsonparse.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), "\t", 3)
		var input, want string
		if len(parts) != 3 || json.Unmarshal([]byte(parts[0]), &input) != nil || json.Unmarshal([]byte(parts[2]), &want) != nil {
			t.Fatalf("bad line %q", sc.Text())
		}
		parts[2] = want
		n++
		v, err := ParseJSON(NewString(input), JSONProtos{}, nil)
		switch parts[1] {
		case "ok":
			if err != nil {
				t.Errorf("%q: %v, want %s", input, err, parts[2])
			} else if got := stringifyForTest(v); got != parts[2] {
				t.Errorf("%q: %s, want %s", input, got, parts[2])
			}
		case "error":
			if err == nil {
				t.Errorf("%q: parsed to %s, want error %q", input, stringifyForTest(v), parts[2])
			} else if err.(*JSONError).Message != parts[2] {
				t.Errorf("%q:\n got %q\nwant %q", input, err.(*JSONError).Message, parts[2])
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d cases", n)
	}
}

func TestParseJSONNegativeZeroAndProtos(t *testing.T) {
	objProto, arrProto := NewObject(nil), NewObject(nil)
	v, err := ParseJSON(NewString(`{"a":[-0]}`), JSONProtos{Object: objProto, Array: arrProto}, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := v.AsObject()
	if o.Proto != objProto {
		t.Error("object prototype")
	}
	arr := o.GetOwn("a").Value.AsObject()
	if arr.Proto != arrProto || arr.Class != ClassArray {
		t.Error("array prototype")
	}
	if el, _ := arr.Array().Get(0); !signbit(el.Num()) {
		t.Error("-0 survives JSON.parse")
	}
}

// TestParseJSONDeep shows that nesting depth cannot exhaust the Go stack.
func TestParseJSONDeep(t *testing.T) {
	const n = 1_000_000
	text := strings.Repeat("[", n) + strings.Repeat("]", n)
	v, err := ParseJSON(NewString(text), JSONProtos{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	depth := 1
	for o := v.AsObject(); ; depth++ {
		el, ok := o.Array().Get(0)
		if !ok {
			break
		}
		o = el.AsObject()
	}
	if depth != n {
		t.Errorf("depth %d", depth)
	}
}

func TestParseJSONMeter(t *testing.T) {
	spent := 0
	meter := func(n int) error {
		spent += n
		if spent > 1000 {
			return fmt.Errorf("budget spent")
		}
		return nil
	}
	_, err := ParseJSON(NewString("["+strings.Repeat(`"aaaaaaaaaaaaaaaaaaaa",`, 100)+`1]`), JSONProtos{}, meter)
	if err == nil || err.Error() != "budget spent" {
		t.Errorf("got %v, want the meter's error", err)
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\ud800"`, `[1e400, -0, 0.5]`, `{"a":1,"a":2}`, `[`, `"\u12`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseJSON(NewString(s), JSONProtos{}, nil)
		if err != nil {
			if _, ok := err.(*JSONError); !ok {
				t.Fatalf("%q: error of type %T", s, err)
			}
			return
		}
		// Whatever parses serializes and parses back to the same text.
		out := stringifyForTest(v)
		again, err := ParseJSON(NewString(out), JSONProtos{}, nil)
		if err != nil || stringifyForTest(again) != out {
			t.Fatalf("%q -> %s does not round-trip: %v", s, out, err)
		}
	})
}

func BenchmarkParseJSON(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("[")
	for i := 0; i < 5000; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"id":%d,"name":"item-%d","price":%d.5,"tags":["a","b"],"active":%v}`, i, i, i%100, i%3 == 0)
	}
	sb.WriteString("]")
	text := NewString(sb.String())
	b.SetBytes(int64(text.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseJSON(text, JSONProtos{}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// stringifyForTest is JSON.stringify for plain data, enough to compare
// parse results with V8's output.
func stringifyForTest(v Value) string {
	var b strings.Builder
	var walk func(Value)
	walk = func(v Value) {
		switch v.Kind() {
		case KindNull, KindUndefined:
			b.WriteString("null")
		case KindBoolean:
			b.WriteString(map[bool]string{true: "true", false: "false"}[v.BoolValue()])
		case KindNumber:
			if math.IsInf(v.Num(), 0) || math.IsNaN(v.Num()) {
				b.WriteString("null")
			} else {
				b.WriteString(jsnum.Format(v.Num()))
			}
		case KindString:
			quoteForTest(&b, v.AsString())
		case KindObject:
			o := v.AsObject()
			if arr := o.Array(); arr != nil {
				b.WriteString("[")
				for i := 0; i < arr.Len(); i++ {
					if i > 0 {
						b.WriteString(",")
					}
					el, _ := arr.Get(i)
					walk(el)
				}
				b.WriteString("]")
				return
			}
			b.WriteString("{")
			for i, k := range o.OwnKeys(true) {
				if i > 0 {
					b.WriteString(",")
				}
				quoteForTest(&b, NewString(k))
				b.WriteString(":")
				walk(o.GetOwn(k).Value)
			}
			b.WriteString("}")
		}
	}
	walk(v)
	return b.String()
}

func quoteForTest(b *strings.Builder, s *String) {
	units := s.Units()
	b.WriteByte('"')
	for i := 0; i < len(units); i++ {
		u := units[i]
		switch {
		case u == '"':
			b.WriteString(`\"`)
		case u == '\\':
			b.WriteString(`\\`)
		case u == '\b':
			b.WriteString(`\b`)
		case u == '\f':
			b.WriteString(`\f`)
		case u == '\n':
			b.WriteString(`\n`)
		case u == '\r':
			b.WriteString(`\r`)
		case u == '\t':
			b.WriteString(`\t`)
		case u < 0x20:
			fmt.Fprintf(b, `\u%04x`, u)
		case u >= 0xD800 && u < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] < 0xE000:
			b.WriteString(string(rune(0x10000 + (rune(u)-0xD800)<<10 + rune(units[i+1]) - 0xDC00)))
			i++
		case u >= 0xD800 && u < 0xE000:
			fmt.Fprintf(b, `\u%04x`, u)
		default:
			b.WriteRune(rune(u))
		}
	}
	b.WriteByte('"')
}
