package jsregex

// This file implements the spec's Canonicalize(rer, ch) for the two kinds of
// pattern, and the set operations built on it.
//
// Without /u and /v, Canonicalize maps a code unit through toUpperCase when
// the result is a single code unit and does not take a non-ASCII character to
// ASCII. With /u or /v it is simple case folding; we use the least member of
// the character's simple-fold orbit (unicode.SimpleFold) as its canonical
// form, which gives the same equivalence classes as scf, and keeps ASCII
// letters canonical as ASCII (so \w and \b keep working on folded text).
//
// Under /i the matcher compares Canonicalize(a) with Canonicalize(ch). We get
// exactly that by running regexp2 case-sensitively on canonicalized input
// against canonicalized sets, see emit.go.

import (
	"sort"
	"sync"
	"unicode"
)

// folder is the Canonicalize table of one kind of pattern.
type folder struct {
	bmp    []uint16      // canon(c) for c <= 0xFFFF
	astral map[rune]rune // canon(c) != c for c > 0xFFFF
	diffs  []runePair    // every c with canon(c) != c, sorted by c
	diff   charSet       // the set of those c
	max    rune
}

type runePair struct{ c, v rune }

var (
	unitFoldOnce, cpFoldOnce sync.Once
	unitFold, cpFold         *folder
)

// foldFor returns the Canonicalize table for unicode (u/v) or code-unit
// patterns.
func foldFor(unicodeMode bool) *folder {
	if unicodeMode {
		cpFoldOnce.Do(func() { cpFold = buildFolder(true) })
		return cpFold
	}
	unitFoldOnce.Do(func() { unitFold = buildFolder(false) })
	return unitFold
}

// canonUnit is Canonicalize for patterns without /u and /v.
func canonUnit(c rune) rune {
	if c > maxCodeUnit || multiUpper.has(c) {
		return c
	}
	u := unicode.ToUpper(c)
	if u > maxCodeUnit || (c >= 128 && u < 128) {
		return c
	}
	return u
}

// extraFolds are simple case foldings (CaseFolding.txt status S) between
// characters with no case mapping to each other, which unicode.SimpleFold
// does not follow: each maps to its pair's canonical member.
var extraFolds = map[rune]rune{
	0x1FD3: 0x0390, // ΐ (with oxia) and ΐ (with tonos)
	0x1FE3: 0x03B0, // ΰ (with oxia) and ΰ (with tonos)
	0xFB06: 0xFB05, // ﬆ and ﬅ
}

// canonPoint is Canonicalize for /u and /v patterns: the least member of the
// simple-fold orbit.
func canonPoint(c rune) rune {
	if v, ok := extraFolds[c]; ok {
		c = v
	}
	m := c
	for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
		if f < m {
			m = f
		}
	}
	return m
}

func buildFolder(unicodeMode bool) *folder {
	f := &folder{bmp: make([]uint16, 0x10000), astral: map[rune]rune{}, max: maxCodeUnit}
	if unicodeMode {
		f.max = maxCodePoint
	}
	for i := range f.bmp {
		f.bmp[i] = uint16(i)
	}
	canon := canonUnit
	if unicodeMode {
		canon = canonPoint
	}
	var rs []rng
	for _, cr := range unicode.CaseRanges {
		for c := rune(cr.Lo); c <= rune(cr.Hi); c++ {
			if c > f.max {
				break
			}
			v := canon(c)
			if v == c {
				continue
			}
			f.diffs = append(f.diffs, runePair{c, v})
			rs = append(rs, rng{c, c})
			if c <= maxCodeUnit {
				f.bmp[c] = uint16(v)
			} else {
				f.astral[c] = v
			}
		}
	}
	if unicodeMode {
		for c := range extraFolds {
			v := canon(c)
			if rune(f.bmp[c]) != c {
				continue // already folded through a case range
			}
			f.diffs = append(f.diffs, runePair{c, v})
			rs = append(rs, rng{c, c})
			f.bmp[c] = uint16(v)
		}
	}
	sort.Slice(f.diffs, func(i, j int) bool { return f.diffs[i].c < f.diffs[j].c })
	f.diff = normalize(rs)
	return f
}

// canon returns Canonicalize(c).
func (f *folder) canon(c rune) rune {
	if c <= maxCodeUnit {
		return rune(f.bmp[c])
	}
	if v, ok := f.astral[c]; ok {
		return v
	}
	return c
}

// canonSet returns { canon(c) : c in s }.
func (f *folder) canonSet(s charSet) charSet {
	if len(s) == 0 {
		return s
	}
	var removed, added []rng
	for _, d := range f.diffs {
		if s.has(d.c) {
			removed = append(removed, rng{d.c, d.c})
			added = append(added, rng{d.v, d.v})
		}
	}
	if len(removed) == 0 {
		return s
	}
	return union(subtract(s, normalize(removed)), normalize(added))
}

// closure returns { c : canon(c) in canonSet(s) }: every character that
// matches s case-insensitively.
func (f *folder) closure(s charSet) charSet {
	cs := f.canonSet(s)
	var added []rng
	for _, d := range f.diffs {
		if cs.has(d.v) {
			added = append(added, rng{d.c, d.c})
		}
	}
	return union(subtract(cs, f.diff), normalize(added))
}
