package value

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestStringifyDataAgainstV8 checks every case of
// testdata/jsonstringify.tsv (made by node, see gen_jsonstringify.js).
func TestStringifyDataAgainstV8(t *testing.T) {
	f, err := os.Open("testdata/jsonstringify.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var fields [3]string
		for i, part := range strings.Split(sc.Text(), "\t") {
			if err := json.Unmarshal([]byte(part), &fields[i]); err != nil {
				t.Fatalf("bad line %q", sc.Text())
			}
		}
		n++
		v, err := ParseJSON(NewString(fields[0]), JSONProtos{}, nil)
		if err != nil {
			t.Fatalf("%q: %v", fields[0], err)
		}
		got, ok, err := StringifyData(v, fields[1])
		if err != nil || !ok || got != fields[2] {
			t.Errorf("%q indent %q:\n got %q %v %v\nwant %q", fields[0], fields[1], got, ok, err, fields[2])
		}
	}
	if n < 100 {
		t.Fatalf("only %d cases", n)
	}
}

func TestStringifyDataSpecialCases(t *testing.T) {
	fn := NewFunctionObject(nil, "f")
	o := NewObject(nil)
	o.Put("a", Undefined)
	o.Put("f", Obj(fn))
	o.Put("b", Number(1))
	arr := NewArray(nil, []Value{Undefined, Obj(fn), Hole, Number(2)})
	o.Put("arr", Obj(arr))
	got, ok, err := StringifyData(Obj(o), "")
	if err != nil || !ok || got != `{"b":1,"arr":[null,null,null,2]}` {
		t.Errorf("undefined and functions: %q %v %v", got, ok, err)
	}
	if _, ok, err := StringifyData(Undefined, ""); ok || err != nil {
		t.Error("undefined stringifies to nothing")
	}
	if _, ok, err := StringifyData(Obj(fn), ""); ok || err != nil {
		t.Error("a function stringifies to nothing")
	}

	self := NewObject(nil)
	self.Put("me", Obj(self))
	if _, _, err := StringifyData(Obj(self), ""); err != ErrCircular {
		t.Errorf("circular: %v", err)
	}
	// The same object twice, not nested in itself, is fine.
	shared := NewObject(nil)
	twice := NewArray(nil, []Value{Obj(shared), Obj(shared)})
	if got, _, err := StringifyData(Obj(twice), ""); err != nil || got != "[{},{}]" {
		t.Errorf("shared: %q %v", got, err)
	}

	withToJSON := NewObject(nil)
	withToJSON.Put("toJSON", Obj(fn))
	if _, _, err := StringifyData(Obj(NewObject(withToJSON)), ""); err != ErrNeedsEngine {
		t.Errorf("an inherited toJSON needs the engine: %v", err)
	}
	acc := NewObject(nil)
	acc.DefineAccessor("x", fn, nil, DefaultFlags)
	if _, _, err := StringifyData(Obj(acc), ""); err != ErrNeedsEngine {
		t.Errorf("an accessor needs the engine: %v", err)
	}
	date := &Object{Class: ClassDate}
	if _, _, err := StringifyData(Obj(date), ""); err != ErrNeedsEngine {
		t.Errorf("a Date needs the engine: %v", err)
	}
}

func TestStringifyDataDeep(t *testing.T) {
	var v Value = Number(1)
	for i := 0; i < MaxJSONDepth+5; i++ {
		v = Obj(NewArray(nil, []Value{v}))
	}
	if _, _, err := StringifyData(v, ""); err != ErrJSONDepth {
		t.Errorf("got %v, want ErrJSONDepth", err)
	}
	// A long chain below the limit, deep enough to use the map for the
	// circularity check.
	v = Number(1)
	for i := 0; i < 1000; i++ {
		v = Obj(NewArray(nil, []Value{v}))
	}
	got, _, err := StringifyData(v, "")
	if err != nil || len(got) != 2001 {
		t.Errorf("deep chain: %d bytes, %v", len(got), err)
	}
}

func BenchmarkStringifyData(b *testing.B) {
	var items []Value
	for i := 0; i < 3334; i++ {
		o := NewObject(nil)
		o.Put("id", Number(float64(i)))
		o.Put("label", StrOf("ITEM-"+strings.Repeat("X", i%5)))
		o.Put("total", Number(float64(i%100)*2+1))
		items = append(items, Obj(o))
	}
	v := Obj(NewArray(nil, items))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := StringifyData(v, ""); err != nil {
			b.Fatal(err)
		}
	}
}
