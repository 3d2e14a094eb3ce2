package value

import "testing"

func TestArrayDenseAndHoles(t *testing.T) {
	arr := NewArray(nil, []Value{Number(1), Hole, Number(3)}).Array()
	if arr.Len() != 3 {
		t.Fatalf("Len = %d", arr.Len())
	}
	if v, ok := arr.Get(1); ok || !v.IsUndefined() {
		t.Error("a hole reads as absent undefined")
	}
	if v, ok := arr.Get(2); !ok || v.Num() != 3 {
		t.Error("element 2")
	}
	if _, ok := arr.Get(3); ok {
		t.Error("past the end is absent")
	}
	if err := arr.Set(5, Number(6)); err != nil {
		t.Fatal(err)
	}
	if arr.Len() != 6 {
		t.Errorf("writing past the end grows the array: Len = %d", arr.Len())
	}
	if got := arr.IndexKeys(); !equalKeys(got, []string{"0", "2", "5"}) {
		t.Errorf("IndexKeys = %q", got)
	}
	arr.Delete(0)
	if _, ok := arr.Get(0); ok {
		t.Error("delete leaves a hole")
	}
	if err := arr.Push(Number(7), Number(8)); err != nil || arr.Len() != 8 {
		t.Errorf("Push: %v, Len %d", err, arr.Len())
	}
	if _, ok := arr.Dense(); !ok {
		t.Error("a small array stays dense")
	}
}

func TestArraySparse(t *testing.T) {
	arr := NewArray(nil, nil).Array()
	if err := arr.SetLength(MaxArrayLength); err != nil {
		t.Fatal(err)
	}
	if arr.Len() != MaxArrayLength || len(arr.dense) != 0 {
		t.Fatal("Array(n) must not materialize holes")
	}
	if err := arr.Set(5_000_000, StrOf("mid")); err != nil {
		t.Fatal(err)
	}
	if len(arr.dense) != 0 || len(arr.sparse) != 1 {
		t.Error("a far write goes to the sparse part")
	}
	if v, ok := arr.Get(5_000_000); !ok || v.AsString().String() != "mid" {
		t.Error("sparse read")
	}
	arr.Set(1, Number(1)) // near the dense part: dense again
	arr.Set(0, Number(0))
	if len(arr.dense) != 2 {
		t.Errorf("dense part %d, want 2", len(arr.dense))
	}
	if got := arr.PresentIndexes(); len(got) != 3 || got[0] != 0 || got[1] != 1 || got[2] != 5_000_000 {
		t.Errorf("PresentIndexes = %v", got)
	}
	if _, ok := arr.Dense(); ok {
		t.Error("a sparse array is not dense")
	}
	if err := arr.SetLength(2); err != nil || arr.Len() != 2 || len(arr.sparse) != 0 || len(arr.dense) != 2 {
		t.Errorf("truncating drops sparse elements: %v %d %d", err, arr.Len(), len(arr.sparse))
	}
}

func TestArrayLengthCap(t *testing.T) {
	arr := NewArray(nil, nil).Array()
	for _, err := range []error{
		arr.Set(MaxArrayLength, Number(1)),
		arr.Set(-1, Number(1)),
		arr.SetLength(MaxArrayLength + 1),
		arr.SetLength(-1),
	} {
		if err != ErrArrayLength {
			t.Errorf("got %v, want ErrArrayLength", err)
		}
	}
	arr.SetLength(MaxArrayLength - 1)
	if err := arr.Push(Number(1), Number(2)); err != ErrArrayLength {
		t.Errorf("Push past the cap: %v", err)
	}
	if arr.Len() != MaxArrayLength-1 {
		t.Error("a failed push changes nothing")
	}
}

func TestArraySparseMerge(t *testing.T) {
	arr := NewArray(nil, nil).Array()
	arr.Set(2000, StrOf("far"))
	arr.Set(1500, StrOf("mid"))
	for i := 0; i < 1500; i++ {
		arr.Set(i, Number(float64(i)))
	}
	// The dense part grew over 1500 and then took 2000 back when it reached it.
	if v, ok := arr.Get(1500); !ok || v.AsString().String() != "mid" {
		t.Error("element 1500 lost")
	}
	for i := 1501; i <= 2000; i++ {
		arr.Set(i, Number(float64(i)))
	}
	if len(arr.sparse) != 0 || len(arr.dense) != 2001 || arr.Len() != 2001 {
		t.Errorf("dense %d sparse %d len %d", len(arr.dense), len(arr.sparse), arr.Len())
	}
}
