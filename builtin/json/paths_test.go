package json

import (
	"strconv"
	"strings"
	"testing"

	"github.com/go-codemode/codemode/builtin"
	"github.com/go-codemode/codemode/value"
)

// These tests reach inside the package: the data path and the general
// path must write the same bytes, and the data path must really be taken
// for plain data (or the benchmark below measures nothing).

func newRealm() *value.Realm {
	return value.NewRealm(builtin.New(Install), nil)
}

func parseText(t testing.TB, r *value.Realm, text string) value.Value {
	t.Helper()
	v, err := value.ParseJSON(value.NewString(text), value.JSONProtos{
		Object: r.Intrinsic(value.ObjectPrototype), Array: r.Intrinsic(value.ArrayPrototype)}, nil)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return v
}

func general(r *value.Realm, v value.Value, gap string) (string, bool) {
	s := &serializer{r: r, gap: gap}
	return s.run(v)
}

func TestPathsAgree(t *testing.T) {
	texts := []string{
		`null`, `true`, `0`, `-0.5`, `1e21`, `5e-324`, `"x"`, `""`,
		`"a\"b\\c\n\u0001\u001f\u2028é😀\ud800\udc00\udc00x\ud800"`,
		`[]`, `{}`, `[[]]`, `[{}]`, `{"a":[]}`, `{"a":{}}`,
		`{"b":1,"a":[1,2,{"c":null,"d":[true,false]}],"10":"ten","2":"two"}`,
		`{"k\"ey":1,"é":2,"\n":3,"":4,"\ud800":5,"__proto__":{"x":1}}`,
		`[1,-0.0,123456789012345678901234567890,0.1,1e-7,-1e300]`,
		`{"a":{"b":{"c":{"d":{"e":{"f":[1,[2,[3,[4]]]]}}}}}}`,
	}
	gaps := []string{"", "  ", "\t", "abcdefghij", "😀", "\xed\xa0\x80"}
	for _, text := range texts {
		for _, gap := range gaps {
			r := newRealm()
			v := parseText(t, r, text)
			fast, fok, done := fastStringify(r, v, gap)
			if !done {
				t.Errorf("%s gap %q: the data path refused plain data", text, gap)
				continue
			}
			slow, sok := general(r, v, gap)
			if fast != slow || fok != sok {
				t.Errorf("%s gap %q:\n data    %q %v\n general %q %v", text, gap, fast, fok, slow, sok)
			}
		}
	}
}

// TestDataPathRefuses checks what the data path leaves to the general
// path.
func TestDataPathRefuses(t *testing.T) {
	r := newRealm()
	withKey := func(key string, v value.Value) value.Value {
		o := r.NewPlainObject()
		o.Define(key, v, value.DefaultFlags)
		return value.Obj(o)
	}
	getter := r.NewPlainObject()
	getter.DefineAccessor("g", r.NewNative(&value.Native{Name: "g", Fn: func(*value.Realm, *value.Call) value.Value { return value.Undefined }}), nil, value.DefaultFlags)
	cyclic := r.NewPlainObject()
	cyclic.Put("self", value.Obj(cyclic))
	big := value.NewString(strings.Repeat("x", value.MaxStringLength/6+1))
	deep := value.Obj(r.NewArrayValue(nil))
	for i := 0; i < value.MaxJSONDepth; i++ {
		deep = value.Obj(r.NewArrayValue([]value.Value{deep}))
	}
	refused := map[string]value.Value{
		"symbol value":   value.Obj(r.NewArrayValue([]value.Value{value.Sym(value.SymIterator)})),
		"symbol at top":  value.Sym(value.SymIterator),
		"array proto":    value.Obj(arrayWithProtoElements(r)),
		"symbol key":     withKey(value.SymIterator.Key(), value.Number(1)),
		"toJSON":         withKey("toJSON", value.Number(1)),
		"accessor":       value.Obj(getter),
		"cycle":          value.Obj(cyclic),
		"too long":       value.Str(big),
		"too deep":       deep,
		"error":          value.Obj(r.NewError(value.Error, "x")),
		"promise":        value.Obj(r.NewPromise()),
		"not plain data": withKey("p", value.Obj(r.NewPromise())),
	}
	for name, v := range refused {
		if _, _, done := fastStringify(r, v, ""); done {
			t.Errorf("%s: the data path wrote it", name)
		}
	}
}

// arrayWithProtoElements is [ <hole> ] whose prototype has an element: the
// hole reads it.
func arrayWithProtoElements(r *value.Realm) *value.Object {
	proto := r.NewArrayValue([]value.Value{value.Number(1)})
	proto.Proto = r.Intrinsic(value.ArrayPrototype)
	a := r.NewArrayValue([]value.Value{value.Hole})
	a.Proto = proto
	return a
}

// BenchmarkStringify compares the two paths on an array of 10,000 small
// records: "data" is what JSON.stringify does for plain data (the scan,
// then value.StringifyData), "data-unscanned" is value.StringifyData
// alone, and "general" is the path that runs for anything else.
func BenchmarkStringify(b *testing.B) {
	var text strings.Builder
	text.WriteByte('[')
	for i := 0; i < 10_000; i++ {
		if i > 0 {
			text.WriteByte(',')
		}
		n := strconv.Itoa(i)
		text.WriteString(`{"id":` + n + `,"name":"item ` + n + `","price":` + n + `.25,"active":true,"tags":["a","b"],"meta":{"owner":"x","note":null}}`)
	}
	text.WriteByte(']')
	r := newRealm()
	v := parseText(b, r, text.String())
	want, _ := general(r, v, "")
	b.SetBytes(int64(len(want)))

	b.Run("data", func(b *testing.B) {
		for b.Loop() {
			if got, _, done := fastStringify(r, v, ""); !done || got != want {
				b.Fatal("data path differs")
			}
		}
	})
	b.Run("data-unscanned", func(b *testing.B) {
		for b.Loop() {
			if got, _, err := value.StringifyData(v, ""); err != nil || got != want {
				b.Fatal("StringifyData differs")
			}
		}
	})
	b.Run("general", func(b *testing.B) {
		for b.Loop() {
			if got, _ := general(r, v, ""); got != want {
				b.Fatal("general path differs")
			}
		}
	})
}
