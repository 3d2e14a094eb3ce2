package value

import (
	"math"
	"strconv"
	"testing"
	"unsafe"
)

func TestValueKinds(t *testing.T) {
	obj := NewObject(nil)
	fn := NewFunctionObject(nil, "f")
	tests := []struct {
		v      Value
		kind   Kind
		typeOf string
		truthy bool
	}{
		{Undefined, KindUndefined, "undefined", false},
		{Hole, KindUndefined, "undefined", false},
		{Null, KindNull, "object", false},
		{True, KindBoolean, "boolean", true},
		{False, KindBoolean, "boolean", false},
		{Number(0), KindNumber, "number", false},
		{Number(math.Copysign(0, -1)), KindNumber, "number", false},
		{Number(math.NaN()), KindNumber, "number", false},
		{Number(-1), KindNumber, "number", true},
		{StrOf(""), KindString, "string", false},
		{StrOf("0"), KindString, "string", true},
		{Obj(obj), KindObject, "object", true},
		{Obj(fn), KindObject, "function", true},
	}
	for i, tt := range tests {
		if tt.v.Kind() != tt.kind || tt.v.TypeOf() != tt.typeOf || tt.v.ToBoolean() != tt.truthy {
			t.Errorf("#%d: kind %v typeof %q truthy %v, want %v %q %v", i, tt.v.Kind(), tt.v.TypeOf(), tt.v.ToBoolean(), tt.kind, tt.typeOf, tt.truthy)
		}
	}
	var zero Value
	if !zero.IsUndefined() {
		t.Error("the zero Value must be undefined")
	}
}

// TestNumbersDoNotAllocate holds the promise the design makes: numbers and
// booleans are plain data.
func TestNumbersDoNotAllocate(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		sum := Number(0)
		for i := 0; i < 100; i++ {
			sum = Number(sum.Num() + float64(i))
			_ = Bool(sum.Num() > 10).ToBoolean()
		}
		if !sum.IsNumber() {
			panic("not a number")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
	if size := unsafe.Sizeof(Value{}); size != 24 {
		t.Errorf("Value is %d bytes, want 24", size)
	}
}

func TestEquality(t *testing.T) {
	nan, zero, negZero := Number(math.NaN()), Number(0), Number(math.Copysign(0, -1))
	a := NewObject(nil)
	tests := []struct {
		x, y                    Value
		strict, sameZero, sameV bool
	}{
		{nan, nan, false, true, true},
		{zero, negZero, true, true, false},
		{Number(1), Number(1), true, true, true},
		{Number(1), StrOf("1"), false, false, false},
		{StrOf("ab"), Str(Concat(NewString("a"), NewString("b"))), true, true, true},
		{Undefined, Hole, true, true, true},
		{Undefined, Null, false, false, false},
		{True, Number(1), false, false, false},
		{Obj(a), Obj(a), true, true, true},
		{Obj(a), Obj(NewObject(nil)), false, false, false},
	}
	for i, tt := range tests {
		if got := StrictEquals(tt.x, tt.y); got != tt.strict {
			t.Errorf("#%d ===: %v", i, got)
		}
		if got := SameValueZero(tt.x, tt.y); got != tt.sameZero {
			t.Errorf("#%d SameValueZero: %v", i, got)
		}
		if got := SameValue(tt.x, tt.y); got != tt.sameV {
			t.Errorf("#%d SameValue: %v", i, got)
		}
	}
}

func TestPropertyOrder(t *testing.T) {
	o := NewObject(nil)
	for _, k := range []string{"b", "2", "a", "10", "1", "01", "-1", "4294967294", "4294967295", "1.5"} {
		o.Put(k, Number(1))
	}
	want := []string{"1", "2", "10", "4294967294", "b", "a", "01", "-1", "4294967295", "1.5"}
	if got := o.OwnKeys(false); !equalKeys(got, want) {
		t.Errorf("keys %q, want %q", got, want)
	}
	// Deleting and re-adding moves a key to the end.
	o.Delete("b")
	o.Put("b", Number(2))
	want = []string{"1", "2", "10", "4294967294", "a", "01", "-1", "4294967295", "1.5", "b"}
	if got := o.OwnKeys(false); !equalKeys(got, want) {
		t.Errorf("after delete and re-add: %q, want %q", got, want)
	}
}

func TestManyPropertiesAndDeletes(t *testing.T) {
	o := NewObject(nil)
	const n = 1000
	for i := 0; i < n; i++ {
		o.Put("k"+strconv.Itoa(i), Number(float64(i)))
	}
	for i := 0; i < n; i += 2 {
		if !o.Delete("k" + strconv.Itoa(i)) {
			t.Fatal("delete failed")
		}
	}
	if o.Len() != n/2 {
		t.Fatalf("Len = %d", o.Len())
	}
	for i := 0; i < n; i++ {
		p := o.GetOwn("k" + strconv.Itoa(i))
		if (p != nil) != (i%2 == 1) || p != nil && p.Value.Num() != float64(i) {
			t.Fatalf("k%d: %+v", i, p)
		}
	}
	keys := o.OwnKeys(false)
	if len(keys) != n/2 || keys[0] != "k1" || keys[len(keys)-1] != "k999" {
		t.Errorf("keys after deletes: %d, first %q, last %q", len(keys), keys[0], keys[len(keys)-1])
	}
}

func TestAttributes(t *testing.T) {
	proto := NewObject(nil)
	getter := NewFunctionObject(nil, "get")
	proto.DefineAccessor("size", getter, nil, Configurable)
	o := NewObject(proto)
	o.Define("hidden", Number(1), Writable)
	o.Put("shown", Number(2))
	if p, owner := o.Lookup("size"); p == nil || owner != proto || !p.IsAccessor() || p.Get != getter {
		t.Errorf("inherited accessor not found: %+v", p)
	}
	if got := o.OwnKeys(true); !equalKeys(got, []string{"shown"}) {
		t.Errorf("enumerable keys %q", got)
	}
	if o.Delete("hidden") {
		t.Error("deleted a non-configurable property")
	}
	o.Freeze()
	if !o.IsFrozen() || !o.IsSealed() || o.Extensible() {
		t.Error("freeze did not stick")
	}
	if o.Put("shown", Number(3)) || o.Put("new", Number(1)) {
		t.Error("wrote to a frozen object")
	}
	if o.GetOwn("shown").Value.Num() != 2 {
		t.Error("frozen value changed")
	}
	s := NewObject(nil)
	s.Put("a", Number(1))
	s.Seal()
	if !s.IsSealed() || s.IsFrozen() || !s.Put("a", Number(2)) || s.Put("b", Number(1)) {
		t.Error("seal: existing data stays writable, nothing may be added")
	}
}

func TestIsArrayIndex(t *testing.T) {
	for key, want := range map[string]bool{
		"0": true, "7": true, "10": true, "4294967294": true,
		"4294967295": false, "01": false, "": false, "-1": false, "1.0": false, "1e3": false, "99999999999": false,
	} {
		if got := IsArrayIndex(key); got != want {
			t.Errorf("IsArrayIndex(%q) = %v", key, got)
		}
	}
}

func equalKeys(a, b []string) bool {
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

// TestArrayGrowthIsCounted: elements a program pushes are charged to the
// run's allocation count as the array grows.
func TestArrayGrowthIsCounted(t *testing.T) {
	r := NewRealm(NewLibrary(), nil)
	r.lib.specs[ArrayPrototype] = IntrinsicSpec{Name: "Array.prototype"}
	a := r.NewArrayValue(nil)
	before := r.Allocated()
	for i := 0; i < 1000; i++ {
		if err := a.Array().Push(Number(float64(i))); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.Allocated() - before; got < 1000*valueBytes {
		t.Errorf("1,000 pushes charged %d bytes, want at least %d", got, 1000*valueBytes)
	}
}
