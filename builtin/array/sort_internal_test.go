package array

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TimSort must stay in bounds and return a permutation of its input
// whatever the comparator answers, and sort stably when it is
// consistent.
func TestTimSortAnyComparator(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type item struct{ key, id int }
	for round := 0; round < 3000; round++ {
		n := rng.IntN(300)
		if round%50 == 0 {
			n = 2000 + rng.IntN(3000)
		}
		in := make([]item, n)
		for i := range in {
			in[i] = item{rng.IntN(1 + n/3), i}
		}
		work := slices.Clone(in)
		var cmp func(a, b item) float64
		switch round % 5 {
		case 0: // consistent
			cmp = func(a, b item) float64 { return float64(a.key - b.key) }
		case 1: // random answers
			cmp = func(a, b item) float64 { return float64(rng.IntN(3) - 1) }
		case 2: // never "less" (a > b as a boolean)
			cmp = func(a, b item) float64 {
				if a.key > b.key {
					return 1
				}
				return 0
			}
		case 3: // always "less"
			cmp = func(a, b item) float64 { return -1 }
		default: // consistent, then random after a while
			calls := 0
			cmp = func(a, b item) float64 {
				calls++
				if calls > n {
					return float64(rng.IntN(3) - 1)
				}
				return float64(a.key - b.key)
			}
		}
		timSort(work, cmp)
		seen := make([]bool, n)
		for _, it := range work {
			if seen[it.id] {
				t.Fatalf("round %d: id %d twice", round, it.id)
			}
			seen[it.id] = true
		}
		if round%5 == 0 {
			want := slices.Clone(in)
			slices.SortStableFunc(want, func(a, b item) int { return a.key - b.key })
			if !slices.Equal(work, want) {
				t.Fatalf("round %d: not a stable sort", round)
			}
		}
	}
}
