package jsregex

// This file holds the character-set algebra the parser and the emitter use:
// sets of characters as sorted, non-overlapping, non-adjacent ranges. A
// "character" is a UTF-16 code unit (0..0xFFFF) for patterns without the u
// or v flag and a code point (0..0x10FFFF) with them.

import "sort"

// rng is an inclusive range of characters.
type rng struct{ lo, hi rune }

// charSet is a normalized set of characters: ranges sorted by lo, neither
// overlapping nor adjacent.
type charSet []rng

// single returns the set holding only c.
func single(c rune) charSet { return charSet{{c, c}} }

// span returns the set holding lo..hi.
func span(lo, hi rune) charSet { return charSet{{lo, hi}} }

// normalize sorts and merges arbitrary ranges into a charSet.
func normalize(rs []rng) charSet {
	if len(rs) == 0 {
		return nil
	}
	s := make([]rng, len(rs))
	copy(s, rs)
	sort.Slice(s, func(i, j int) bool { return s[i].lo < s[j].lo })
	out := s[:1]
	for _, r := range s[1:] {
		last := &out[len(out)-1]
		if r.lo <= last.hi+1 {
			if r.hi > last.hi {
				last.hi = r.hi
			}
			continue
		}
		out = append(out, r)
	}
	return charSet(out)
}

// has reports whether c is in s.
func (s charSet) has(c rune) bool {
	i := sort.Search(len(s), func(i int) bool { return s[i].hi >= c })
	return i < len(s) && s[i].lo <= c
}

// union returns a ∪ b.
func union(a, b charSet) charSet {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	rs := make([]rng, 0, len(a)+len(b))
	rs = append(rs, a...)
	rs = append(rs, b...)
	return normalize(rs)
}

// complement returns the characters 0..max that are not in s.
func complement(s charSet, max rune) charSet {
	var out charSet
	next := rune(0)
	for _, r := range s {
		if r.lo > max {
			break
		}
		if r.lo > next {
			out = append(out, rng{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= max {
		out = append(out, rng{next, max})
	}
	return out
}

// intersect returns a ∩ b.
func intersect(a, b charSet) charSet {
	var out charSet
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		lo := max(a[i].lo, b[j].lo)
		hi := min(a[i].hi, b[j].hi)
		if lo <= hi {
			out = append(out, rng{lo, hi})
		}
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// subtract returns a \ b.
func subtract(a, b charSet) charSet {
	if len(a) == 0 || len(b) == 0 {
		return a
	}
	return intersect(a, complement(b, maxCodePoint))
}

// clip returns the part of s that is at most max.
func clip(s charSet, max rune) charSet {
	if len(s) == 0 || s[len(s)-1].hi <= max {
		return s
	}
	return intersect(s, span(0, max))
}

// maxCodePoint is the largest Unicode code point; maxCodeUnit the largest
// UTF-16 code unit.
const (
	maxCodePoint = 0x10FFFF
	maxCodeUnit  = 0xFFFF
)
