package snapshot

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

type node struct {
	name  string
	next  *node
	kids  []*node
	attrs map[string]int
	val   any
	num   float64
	cache map[string]int // skipped, rebuilt by After
}

type leaf struct{ n int }

type process struct{ id int }

func testRegistry() *Registry {
	reg := NewRegistry()
	Register[*node](reg, "node", Skip("cache"), After(func(_ *Decoder, n *node) error {
		if n.name == "bad" {
			return errors.New("a node named bad")
		}
		n.cache = map[string]int{"rebuilt": 1}
		return nil
	}))
	Register[*leaf](reg, "leaf")
	Register[leaf](reg, "leafv")
	Register[string](reg, "string")
	return reg
}

func roundTrip(t *testing.T, reg *Registry, in any, out any, externs map[string]any) []byte {
	t.Helper()
	e := NewEncoder(reg)
	for name, p := range externs {
		e.Extern(p, name)
	}
	data, err := e.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder(reg, data)
	d.Resolve = func(name string, typ reflect.Type) (reflect.Value, error) {
		p, ok := externs[name]
		if !ok {
			return reflect.Value{}, errors.New("unknown extern " + name)
		}
		return reflect.ValueOf(p), nil
	}
	if err := d.Decode(out); err != nil {
		t.Fatal(err)
	}
	return data
}

func TestGraphKeepsIdentityAndCycles(t *testing.T) {
	reg := testRegistry()
	shared := &leaf{n: 7}
	a := &node{name: "a", attrs: map[string]int{"x": 1, "y": 2}, num: 1.5}
	b := &node{name: "b", next: a, val: shared, num: math.Inf(-1)}
	a.next = b // a cycle
	a.kids = []*node{b, b, nil}
	a.val = leaf{n: 3}
	root := struct {
		A, B *node
		L    *leaf
		Neg0 float64
	}{a, b, shared, math.Copysign(0, -1)}
	var got struct {
		A, B *node
		L    *leaf
		Neg0 float64
	}
	roundTrip(t, reg, &root, &got, nil)
	if got.A.next != got.B || got.B.next != got.A {
		t.Fatal("the cycle is lost")
	}
	if got.A.kids[0] != got.B || got.A.kids[1] != got.B || got.A.kids[2] != nil {
		t.Fatal("shared pointers in a slice are not shared")
	}
	if got.B.val.(*leaf) != got.L || got.L.n != 7 {
		t.Fatal("a pointer in an interface is not the same object")
	}
	if got.A.val.(leaf).n != 3 || got.A.attrs["y"] != 2 || got.A.num != 1.5 || !math.IsInf(got.B.num, -1) {
		t.Fatalf("values differ: %+v %+v", got.A, got.B)
	}
	if !math.Signbit(got.Neg0) {
		t.Fatal("-0 became +0")
	}
	if got.A.cache["rebuilt"] != 1 {
		t.Fatal("After did not run")
	}
}

func TestExternsAreWrittenByName(t *testing.T) {
	reg := testRegistry()
	here, there := &process{1}, &process{2}
	in := struct{ P *process }{here}
	var out struct{ P *process }
	data := roundTrip(t, reg, &in, &out, map[string]any{"proc": here})
	_ = there
	if out.P != here {
		t.Fatal("the extern did not resolve to the process's own pointer")
	}
	if !strings.Contains(string(data), "proc") {
		t.Fatal("the extern's name is not in the bytes")
	}
}

func TestUnsavableValuesAreRefused(t *testing.T) {
	reg := testRegistry()
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"func", &struct{ F func() }{func() {}}, "cannot save a func()"},
		{"chan", &struct{ C chan int }{make(chan int)}, "cannot save a chan int"},
		{"unregistered", &struct{ V any }{3.5}, "float64 held in"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewEncoder(reg).Encode(c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error with %q", err, c.want)
			}
		})
	}
}

func TestHostileBytesFailCleanly(t *testing.T) {
	reg := testRegistry()
	a := &node{name: "a", kids: []*node{{name: "k"}}, attrs: map[string]int{"x": 1}, val: "s"}
	data, err := NewEncoder(reg).Encode(&struct{ N *node }{a})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(data); i++ {
		var out struct{ N *node }
		if err := NewDecoder(reg, data[:i]).Decode(&out); err == nil {
			t.Fatalf("a truncation at %d decoded", i)
		} else if !IsMalformed(err) {
			t.Fatalf("truncation at %d: %v is not malformed", i, err)
		}
	}
	var out struct{ N *node }
	if err := NewDecoder(reg, append(data, 0)).Decode(&out); !IsMalformed(err) {
		t.Fatalf("a trailing byte: %v", err)
	}
	bad := &node{name: "bad"}
	data, _ = NewEncoder(reg).Encode(&struct{ N *node }{bad})
	if err := NewDecoder(reg, data).Decode(&out); err == nil || IsMalformed(err) {
		t.Fatalf("an After check: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	reg := testRegistry()
	a := &node{name: "a", attrs: map[string]int{"x": 1}, val: &leaf{2}, num: 0.25}
	a.next = a
	a.kids = []*node{a, {name: "z", val: leaf{4}}}
	data, err := NewEncoder(reg).Encode(&struct{ N *node }{a})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte{1, 2, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		var out struct{ N *node }
		d := NewDecoder(reg, b)
		d.MaxObjects = 1000
		_ = d.Decode(&out) // must not panic or hang
	})
}
