package interp_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/go-codemode/codemode/builtin"
)

// TestLoopAllocatesNothingPerIteration: a numeric loop's allocations do
// not grow with its iteration count.
func TestLoopAllocatesNothingPerIteration(t *testing.T) {
	lib := builtin.New()
	allocs := func(n int) float64 {
		src := fmt.Sprintf("let sum = 0; for (let i = 1; i <= %d; i++) { sum += i; } sum;", n)
		return testing.AllocsPerRun(5, func() {
			if v, fail := run(t, lib, src); fail != nil || v.Num() != float64(n)*float64(n+1)/2 {
				t.Fatalf("wrong result %v %v", v, fail)
			}
		})
	}
	small, large := allocs(100), allocs(100000)
	if large > small {
		t.Errorf("100 iterations: %.0f allocations; 100,000 iterations: %.0f", small, large)
	}
}

// TestStringAppendIsLinear: s += x builds a rope, so the bytes allocated
// grow linearly with the number of appends, not quadratically.
func TestStringAppendIsLinear(t *testing.T) {
	lib := builtin.New()
	bytes := func(n int) uint64 {
		src := fmt.Sprintf(`let s = ""; for (let i = 0; i < %d; i++) { s += "ab" + i + ";"; } s.length;`, n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, fail := run(t, lib, src); fail != nil {
			t.Fatal(fail)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := bytes(10000), bytes(100000)
	// Linear growth gives about 10x (plus a little for longer numbers);
	// copying the whole string per append would give about 100x.
	if ratio := float64(large) / float64(small); ratio > 20 {
		t.Errorf("10,000 appends allocate %d bytes, 100,000 allocate %d (%.1fx): not linear", small, large, ratio)
	}
}
