package array

import (
	"math"

	"github.com/go-codemode/codemode/value"
)

// sort and toSorted. The elements are copied out, sorted, and written
// back, so a comparator that throws leaves the array as it was, and one
// that changes the array cannot disturb the sort. The sort is V8's
// TimSort (binary insertion sort for short runs, merges with galloping),
// step for step, so that a comparator that is inconsistent (`(a, b) =>
// a > b`, which never answers "less") orders elements exactly as node
// does and is called with the same pairs in the same order. Every loop
// is bounded by the run lengths, whatever the comparator answers.

var arraySort = &value.Native{Name: "Array.prototype.sort", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	fn := comparator(r, c.Arg(0))
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	items := collect(r, o, n)
	sortValues(r, items, fn)
	// Write back: the sorted elements, then holes for the ones skipped.
	if a := fastWritable(r, o); a != nil && a.Len() == n {
		if d, ok := a.Dense(); ok {
			r.Tick(n)
			copy(d, items)
			for i := len(items); i < n; i++ {
				d[i] = value.Hole
			}
			return o
		}
		for _, i := range a.PresentIndexes() {
			if i >= len(items) {
				a.Delete(i)
			}
		}
		for i, v := range items {
			_ = a.Set(i, v) // i < n: in range
		}
		return o
	}
	for i, v := range items {
		r.Poll()
		set(r, o, i, v)
	}
	for i := len(items); i < n; i++ {
		r.Poll()
		del(r, o, i)
	}
	return o
}}

var arrayToSorted = &value.Native{Name: "Array.prototype.toSorted", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	fn := comparator(r, c.Arg(0))
	o := receiver(r, c, "")
	n := r.LengthOf(o)
	items := readAll(r, o, n)
	sortValues(r, items, fn)
	return wrap(r, items)
}}

// comparator checks sort's argument: a function, or undefined for the
// default order (nil).
func comparator(r *value.Realm, v value.Value) *value.Object {
	if v.IsUndefined() {
		return nil
	}
	if f := v.AsObject(); f != nil && f.Callable() {
		return f
	}
	var what string
	switch {
	case v.IsString():
		what = v.AsString().String()
	case v.IsSymbol():
		what = "Symbol(" + v.AsSymbol().Description + ")"
	default:
		what = objectTag(r, v)
	}
	r.ThrowType("The comparison function must be either a function or undefined: %s", what)
	return nil
}

// collect reads the present elements [0, n), skipping holes.
func collect(r *value.Realm, o value.Value, n int) []value.Value {
	if _, a := fast(r, o); a != nil && a.Len() == n {
		// Data only: a sparse array costs its elements, not its length.
		var items []value.Value
		if d, ok := a.Dense(); ok {
			r.Reserve(elemBytes * n)
			r.Tick(n)
			items = make([]value.Value, 0, n)
			for _, x := range d {
				if !x.IsHole() {
					items = append(items, x)
				}
			}
			return items
		}
		idx := a.PresentIndexes()
		r.Tick(len(idx))
		r.Reserve(elemBytes * len(idx))
		items = make([]value.Value, 0, len(idx))
		for _, i := range idx {
			x, _ := a.Get(i)
			items = append(items, x)
		}
		return items
	}
	var items []value.Value
	a := arrayData(o)
	for i := 0; i < n; i++ {
		r.Poll()
		if v, ok := elem(r, o, a, i); ok {
			if len(items) >= value.MaxArrayLength {
				r.ThrowRange(value.ArrayLengthMessage)
			}
			items = append(items, v)
		}
	}
	return items
}

// sortValues sorts items in place: undefined last (the comparator never
// sees it), the rest by fn, or by their strings when fn is nil.
func sortValues(r *value.Realm, items []value.Value, fn *value.Object) {
	k := 0
	for _, v := range items {
		if !v.IsUndefined() {
			items[k] = v
			k++
		}
	}
	for i := k; i < len(items); i++ {
		items[i] = value.Undefined
	}
	vals := items[:k]
	if len(vals) < 2 {
		return
	}
	if fn != nil {
		timSort(vals, func(x, y value.Value) float64 {
			r.Poll()
			res := r.CallObject(fn, value.Undefined, []value.Value{x, y})
			var f float64
			if res.IsNumber() {
				f = res.Num()
			} else {
				f = r.ToNumber(res)
			}
			if math.IsNaN(f) {
				return 0
			}
			return f
		})
		return
	}
	// The default order compares strings; each element's string is made
	// once (primitives' strings are pure; an object's toString runs once,
	// in element order).
	r.Reserve(40 * len(vals))
	keyed := make([]keyedValue, len(vals))
	for i, v := range vals {
		r.Poll()
		keyed[i] = keyedValue{key: r.ToString(v), v: v}
	}
	timSort(keyed, func(x, y keyedValue) float64 {
		r.Poll() // a sort of 10 M strings is seconds of compares
		return float64(value.Compare(x.key, y.key))
	})
	for i := range keyed {
		vals[i] = keyed[i].v
	}
}

type keyedValue struct {
	key *value.String
	v   value.Value
}

// ---------------------------------------------------------------------------
// TimSort, as V8's third_party/v8/builtins/array-sort.tq writes it.

// shortSort is the length under which V8 sorts by binary insertion
// alone, without looking for runs (observed: node calls the comparator
// exactly so).
const shortSort = 8

// minGallopWins is how many wins in a row switch a merge to galloping.
const minGallopWins = 7

type run struct{ base, length int }

type timSorter[T any] struct {
	work      []T
	tmp       []T
	cmp       func(a, b T) float64
	minGallop int
	runs      []run
}

// timSort sorts work stably by cmp (negative: a before b).
func timSort[T any](work []T, cmp func(a, b T) float64) {
	n := len(work)
	if n < 2 {
		return
	}
	s := &timSorter[T]{work: work, cmp: cmp, minGallop: minGallopWins}
	if n < shortSort {
		s.binaryInsertionSort(0, 0, n)
		return
	}
	low, remaining := 0, n
	minRun := minRunLength(n)
	for remaining != 0 {
		cur := s.countAndMakeRun(low, low+remaining)
		if cur < minRun {
			forced := min(minRun, remaining)
			s.binaryInsertionSort(low, low+cur, low+forced)
			cur = forced
		}
		s.runs = append(s.runs, run{low, cur})
		s.mergeCollapse()
		low += cur
		remaining -= cur
	}
	s.mergeForceCollapse()
}

func minRunLength(n int) int {
	r := 0
	for n >= 64 {
		r |= n & 1
		n >>= 1
	}
	return n + r
}

// binaryInsertionSort sorts work[low:high], of which work[low:start] is
// already sorted.
func (s *timSorter[T]) binaryInsertionSort(low, start, high int) {
	if start == low {
		start++
	}
	w := s.work
	for ; start < high; start++ {
		left, right := low, start
		pivot := w[start]
		for left < right {
			mid := left + (right-left)>>1
			if s.cmp(pivot, w[mid]) < 0 {
				right = mid
			} else {
				left = mid + 1
			}
		}
		copy(w[left+1:start+1], w[left:start])
		w[left] = pivot
	}
}

// countAndMakeRun returns the length of the run starting at low,
// reversing it in place when it is strictly descending.
func (s *timSorter[T]) countAndMakeRun(lowArg, high int) int {
	low := lowArg + 1
	if low == high {
		return 1
	}
	w := s.work
	runLength := 2
	elementLow, elementLowPre := w[low], w[low-1]
	descending := s.cmp(elementLow, elementLowPre) < 0
	prev := elementLow
	for idx := low + 1; idx < high; idx++ {
		cur := w[idx]
		order := s.cmp(cur, prev)
		if descending {
			if order >= 0 {
				break
			}
		} else if order < 0 {
			break
		}
		prev = cur
		runLength++
	}
	if descending {
		for i, j := lowArg, lowArg+runLength-1; i < j; i, j = i+1, j-1 {
			w[i], w[j] = w[j], w[i]
		}
	}
	return runLength
}

func (s *timSorter[T]) runInvariantEstablished(n int) bool {
	if n < 2 {
		return true
	}
	return s.runs[n-2].length > s.runs[n-1].length+s.runs[n].length
}

func (s *timSorter[T]) mergeCollapse() {
	for len(s.runs) > 1 {
		n := len(s.runs) - 2
		if !s.runInvariantEstablished(n+1) || !s.runInvariantEstablished(n) {
			if s.runs[n-1].length < s.runs[n+1].length {
				n--
			}
			s.mergeAt(n)
		} else if s.runs[n].length <= s.runs[n+1].length {
			s.mergeAt(n)
		} else {
			break
		}
	}
}

func (s *timSorter[T]) mergeForceCollapse() {
	for len(s.runs) > 1 {
		n := len(s.runs) - 2
		if n > 0 && s.runs[n-1].length < s.runs[n+1].length {
			n--
		}
		s.mergeAt(n)
	}
}

// mergeAt merges runs i and i+1.
func (s *timSorter[T]) mergeAt(i int) {
	baseA, lengthA := s.runs[i].base, s.runs[i].length
	baseB, lengthB := s.runs[i+1].base, s.runs[i+1].length
	s.runs[i].length = lengthA + lengthB
	s.runs = append(s.runs[:i+1], s.runs[i+2:]...)
	w := s.work
	k := s.gallopRight(w, w[baseB], baseA, lengthA, 0)
	baseA += k
	lengthA -= k
	if lengthA == 0 {
		return
	}
	lengthB = s.gallopLeft(w, w[baseA+lengthA-1], baseB, lengthB, lengthB-1)
	if lengthB == 0 {
		return
	}
	if lengthA <= lengthB {
		s.mergeLow(baseA, lengthA, baseB, lengthB)
	} else {
		s.mergeHigh(baseA, lengthA, baseB, lengthB)
	}
}

// gallopLeft finds where key belongs in the sorted a[base:base+length],
// left of any equal elements, starting the search at hint.
func (s *timSorter[T]) gallopLeft(a []T, key T, base, length, hint int) int {
	lastOfs, offset := 0, 1
	if s.cmp(a[base+hint], key) < 0 {
		// a[hint] < key: gallop right.
		maxOfs := length - hint
		for offset < maxOfs {
			if s.cmp(a[base+hint+offset], key) >= 0 {
				break
			}
			lastOfs = offset
			offset = offset<<1 + 1
		}
		offset = min(offset, maxOfs)
		lastOfs += hint
		offset += hint
	} else {
		// key <= a[hint]: gallop left.
		maxOfs := hint + 1
		for offset < maxOfs {
			if s.cmp(a[base+hint-offset], key) < 0 {
				break
			}
			lastOfs = offset
			offset = offset<<1 + 1
		}
		offset = min(offset, maxOfs)
		lastOfs, offset = hint-offset, hint-lastOfs
	}
	lastOfs++
	for lastOfs < offset {
		m := lastOfs + (offset-lastOfs)>>1
		if s.cmp(a[base+m], key) < 0 {
			lastOfs = m + 1
		} else {
			offset = m
		}
	}
	return offset
}

// gallopRight is gallopLeft placing key right of equal elements.
func (s *timSorter[T]) gallopRight(a []T, key T, base, length, hint int) int {
	lastOfs, offset := 0, 1
	if s.cmp(key, a[base+hint]) < 0 {
		// key < a[hint]: gallop left.
		maxOfs := hint + 1
		for offset < maxOfs {
			if s.cmp(key, a[base+hint-offset]) >= 0 {
				break
			}
			lastOfs = offset
			offset = offset<<1 + 1
		}
		offset = min(offset, maxOfs)
		lastOfs, offset = hint-offset, hint-lastOfs
	} else {
		// a[hint] <= key: gallop right.
		maxOfs := length - hint
		for offset < maxOfs {
			if s.cmp(key, a[base+hint+offset]) < 0 {
				break
			}
			lastOfs = offset
			offset = offset<<1 + 1
		}
		offset = min(offset, maxOfs)
		lastOfs += hint
		offset += hint
	}
	lastOfs++
	for lastOfs < offset {
		m := lastOfs + (offset-lastOfs)>>1
		if s.cmp(key, a[base+m]) < 0 {
			offset = m
		} else {
			lastOfs = m + 1
		}
	}
	return offset
}

func (s *timSorter[T]) tempArray(n int) []T {
	if cap(s.tmp) < n {
		s.tmp = make([]T, n)
	}
	return s.tmp[:n]
}

// mergeLow merges the adjacent runs A and B (A shorter) front to back,
// with A copied out.
func (s *timSorter[T]) mergeLow(baseA, lengthA, baseB, lengthB int) {
	w := s.work
	tmp := s.tempArray(lengthA)
	copy(tmp, w[baseA:baseA+lengthA])
	dest, cursorTemp, cursorB := baseA, 0, baseB
	w[dest] = w[cursorB]
	dest++
	cursorB++

	lengthB--
	if lengthB == 0 {
		goto succeed
	}
	if lengthA == 1 {
		goto copyB
	}
	for {
		nofWinsA, nofWinsB := 0, 0
		// Straightforward merge until one run appears to win consistently.
		for {
			if s.cmp(w[cursorB], tmp[cursorTemp]) < 0 {
				w[dest] = w[cursorB]
				dest++
				cursorB++
				nofWinsB++
				lengthB--
				nofWinsA = 0
				if lengthB == 0 {
					goto succeed
				}
				if nofWinsB >= s.minGallop {
					break
				}
			} else {
				w[dest] = tmp[cursorTemp]
				dest++
				cursorTemp++
				nofWinsA++
				lengthA--
				nofWinsB = 0
				if lengthA == 1 {
					goto copyB
				}
				if nofWinsA >= s.minGallop {
					break
				}
			}
		}
		// One run is winning so consistently that galloping may pay.
		s.minGallop++
		first := true
		for nofWinsA >= minGallopWins || nofWinsB >= minGallopWins || first {
			first = false
			s.minGallop = max(1, s.minGallop-1)
			nofWinsA = s.gallopRight(tmp, w[cursorB], cursorTemp, lengthA, 0)
			if nofWinsA > 0 {
				copy(w[dest:dest+nofWinsA], tmp[cursorTemp:cursorTemp+nofWinsA])
				dest += nofWinsA
				cursorTemp += nofWinsA
				lengthA -= nofWinsA
				if lengthA == 1 {
					goto copyB
				}
				// Impossible for a consistent comparator; possible here.
				if lengthA == 0 {
					goto succeed
				}
			}
			w[dest] = w[cursorB]
			dest++
			cursorB++
			lengthB--
			if lengthB == 0 {
				goto succeed
			}
			nofWinsB = s.gallopLeft(w, tmp[cursorTemp], cursorB, lengthB, 0)
			if nofWinsB > 0 {
				copy(w[dest:dest+nofWinsB], w[cursorB:cursorB+nofWinsB])
				dest += nofWinsB
				cursorB += nofWinsB
				lengthB -= nofWinsB
				if lengthB == 0 {
					goto succeed
				}
			}
			w[dest] = tmp[cursorTemp]
			dest++
			cursorTemp++
			lengthA--
			if lengthA == 1 {
				goto copyB
			}
		}
		s.minGallop++ // penalize leaving galloping mode
	}
succeed:
	if lengthA > 0 {
		copy(w[dest:dest+lengthA], tmp[cursorTemp:cursorTemp+lengthA])
	}
	return
copyB:
	// The last element of run A belongs at the end of the merge.
	copy(w[dest:dest+lengthB], w[cursorB:cursorB+lengthB])
	w[dest+lengthB] = tmp[cursorTemp]
}

// mergeHigh merges the adjacent runs A and B (B shorter) back to front,
// with B copied out.
func (s *timSorter[T]) mergeHigh(baseA, lengthA, baseB, lengthB int) {
	w := s.work
	tmp := s.tempArray(lengthB)
	copy(tmp, w[baseB:baseB+lengthB])
	dest := baseB + lengthB - 1
	cursorTemp := lengthB - 1
	cursorA := baseA + lengthA - 1
	w[dest] = w[cursorA]
	dest--
	cursorA--

	lengthA--
	if lengthA == 0 {
		goto succeed
	}
	if lengthB == 1 {
		goto copyA
	}
	for {
		nofWinsA, nofWinsB := 0, 0
		for {
			if s.cmp(tmp[cursorTemp], w[cursorA]) < 0 {
				w[dest] = w[cursorA]
				dest--
				cursorA--
				nofWinsA++
				lengthA--
				nofWinsB = 0
				if lengthA == 0 {
					goto succeed
				}
				if nofWinsA >= s.minGallop {
					break
				}
			} else {
				w[dest] = tmp[cursorTemp]
				dest--
				cursorTemp--
				nofWinsB++
				lengthB--
				nofWinsA = 0
				if lengthB == 1 {
					goto copyA
				}
				if nofWinsB >= s.minGallop {
					break
				}
			}
		}
		s.minGallop++
		first := true
		for nofWinsA >= minGallopWins || nofWinsB >= minGallopWins || first {
			first = false
			s.minGallop = max(1, s.minGallop-1)
			k := s.gallopRight(w, tmp[cursorTemp], baseA, lengthA, lengthA-1)
			nofWinsA = lengthA - k
			if nofWinsA > 0 {
				dest -= nofWinsA
				cursorA -= nofWinsA
				copy(w[dest+1:dest+1+nofWinsA], w[cursorA+1:cursorA+1+nofWinsA])
				lengthA -= nofWinsA
				if lengthA == 0 {
					goto succeed
				}
			}
			w[dest] = tmp[cursorTemp]
			dest--
			cursorTemp--
			lengthB--
			if lengthB == 1 {
				goto copyA
			}
			k = s.gallopLeft(tmp, w[cursorA], 0, lengthB, lengthB-1)
			nofWinsB = lengthB - k
			if nofWinsB > 0 {
				dest -= nofWinsB
				cursorTemp -= nofWinsB
				copy(w[dest+1:dest+1+nofWinsB], tmp[cursorTemp+1:cursorTemp+1+nofWinsB])
				lengthB -= nofWinsB
				if lengthB == 1 {
					goto copyA
				}
				// Impossible for a consistent comparator; possible here.
				if lengthB == 0 {
					goto succeed
				}
			}
			w[dest] = w[cursorA]
			dest--
			cursorA--
			lengthA--
			if lengthA == 0 {
				goto succeed
			}
		}
		s.minGallop++
	}
succeed:
	if lengthB > 0 {
		copy(w[dest-(lengthB-1):dest+1], tmp[:lengthB])
	}
	return
copyA:
	// The first element of run B belongs at the front of the merge.
	dest -= lengthA
	cursorA -= lengthA
	copy(w[dest+1:dest+1+lengthA], w[cursorA+1:cursorA+1+lengthA])
	w[dest] = tmp[cursorTemp]
}
