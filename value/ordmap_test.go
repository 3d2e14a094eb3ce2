package value

import (
	"math"
	"testing"
)

func TestOrderedMapKeys(t *testing.T) {
	m := NewOrderedMap()
	obj := NewObject(nil)
	m.Set(Number(math.NaN()), StrOf("nan"))
	m.Set(Number(math.Copysign(0, -1)), StrOf("zero"))
	m.Set(StrOf("1"), StrOf("string one"))
	m.Set(Number(1), StrOf("number one"))
	m.Set(Obj(obj), StrOf("object"))
	m.Set(Undefined, StrOf("undefined"))
	m.Set(Null, StrOf("null"))
	m.Set(True, StrOf("true"))
	checks := []struct {
		key  Value
		want string
	}{
		{Number(math.NaN()), "nan"},
		{Number(0), "zero"},
		{StrOf("1"), "string one"},
		{Number(1), "number one"},
		{Obj(obj), "object"},
		{Undefined, "undefined"},
		{Null, "null"},
		{True, "true"},
	}
	for _, c := range checks {
		v, ok := m.Get(c.key)
		if !ok || v.AsString().String() != c.want {
			t.Errorf("Get(%v) = %v, %v; want %q", c.key, v, ok, c.want)
		}
	}
	if m.Has(Obj(NewObject(nil))) || m.Has(False) {
		t.Error("distinct keys must not match")
	}
	keys, _ := m.Entries()
	if signbit(keys[1].Num()) {
		t.Error("a -0 key is stored as +0")
	}
	if m.Len() != 8 {
		t.Errorf("Len = %d", m.Len())
	}
}

// The iteration cases below mirror what node prints for the same programs.
func TestOrderedMapLiveIteration(t *testing.T) {
	// new Set([1,2,3,4]); for (x of s) { if x==1 delete 1, 2; if x==3 add 5 } -> [1,3,4,5]
	s := NewOrderedMap()
	for i := 1; i <= 4; i++ {
		s.Set(Number(float64(i)), Undefined)
	}
	var seen []float64
	it := s.Iterate()
	for k, _, ok := it.Next(); ok; k, _, ok = it.Next() {
		seen = append(seen, k.Num())
		switch k.Num() {
		case 1:
			s.Delete(Number(1))
			s.Delete(Number(2))
		case 3:
			s.Set(Number(5), Undefined)
		}
	}
	if !equalNums(seen, []float64{1, 3, 4, 5}) {
		t.Errorf("saw %v", seen)
	}
	// Deleted and re-added keys go to the end: [3, 2].
	m := NewOrderedMap()
	for i := 1; i <= 3; i++ {
		m.Set(Number(float64(i)), Undefined)
	}
	it = m.Iterate()
	it.Next()
	m.Delete(Number(2))
	m.Set(Number(2), StrOf("again"))
	if got := drain(it); !equalNums(got, []float64{3, 2}) {
		t.Errorf("after delete and re-add: %v", got)
	}
	// An iterator goes on after clear() with entries added later: [3].
	m = NewOrderedMap()
	m.Set(Number(1), Undefined)
	m.Set(Number(2), Undefined)
	it = m.Iterate()
	it.Next()
	m.Clear()
	m.Set(Number(3), Undefined)
	if got := drain(it); !equalNums(got, []float64{3}) {
		t.Errorf("after clear: %v", got)
	}
	// A finished iterator stays finished.
	m = NewOrderedMap()
	m.Set(Number(1), Undefined)
	it = m.Iterate()
	drain(it)
	m.Set(Number(9), Undefined)
	if _, _, ok := it.Next(); ok {
		t.Error("a done iterator came back to life")
	}
}

// TestOrderedMapCompaction deletes enough to compact while an iterator
// is in the middle, which must keep its place.
func TestOrderedMapCompaction(t *testing.T) {
	m := NewOrderedMap()
	for i := 0; i < 100; i++ {
		m.Set(Number(float64(i)), Undefined)
	}
	it := m.Iterate()
	for i := 0; i < 50; i++ {
		it.Next()
	}
	for i := 0; i < 80; i++ {
		if i != 50 && i != 60 {
			m.Delete(Number(float64(i)))
		}
	}
	if len(m.compactions) == 0 {
		t.Fatal("no compaction happened; the test needs one")
	}
	if got := drain(it); !equalNums(got[:2], []float64{50, 60}) || len(got) != 22 || got[2] != 80 {
		t.Errorf("after compaction: %v", got)
	}
	for i := 0; i < 100; i++ {
		if m.Has(Number(float64(i))) != (i == 50 || i == 60 || i >= 80) {
			t.Fatalf("key %d", i)
		}
	}
}

func drain(it *MapIterator) []float64 {
	var out []float64
	for k, _, ok := it.Next(); ok; k, _, ok = it.Next() {
		out = append(out, k.Num())
	}
	return out
}

func equalNums(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
