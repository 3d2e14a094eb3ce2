package jsregex

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

// FuzzCompileExec checks that no pattern, flags and input make Compile or
// Exec panic (both recover and report "internal error", which fails here),
// that every translation compiles in regexp2, that matching ends by its
// deadline, and that a deadline in the past gives ErrTimeout at once.
func FuzzCompileExec(f *testing.F) {
	for _, s := range []struct {
		p     string
		flags uint8
		in    string
		li    int
	}{
		{`(?<y>\d{4})-(\d\d)`, 0, "on 2024-05-01", 0},
		{`(?:(a)|b)+\1`, 1, "abab", 0},
		{`(?<=\$)\d+(?:\.\d+)?`, 2, "cost $42.50", 3},
		{`\p{Lu}\p{Ll}+`, 8, "Héllo Wörld", 0},
		{`[\p{L}--[a-z]]+`, 16, "abcÀÉ", 0},
		{`(a*)*b`, 0, "aaab", 1},
		{`^\s*$`, 4, "  \n x", 0},
		{`[^\q{ab}]`, 16, "ab", 0},
		{`(?i:a)b(?-i:c)`, 1, "ABc", 0},
		{`\b\w+\b`, 32, "😀 word", 1},
		{`(`, 0, "", 0},
		{`(?<a>x)|(?<a>y)\k<a>`, 0, "yy", 0},
	} {
		f.Add(s.p, s.flags, s.in, s.li)
	}
	f.Fuzz(func(t *testing.T, pattern string, flagBits uint8, input string, lastIndex int) {
		if len(pattern) > 2000 || len(input) > 2000 {
			return
		}
		var flags string
		for i, c := range "gimsuvyd" {
			if flagBits&(1<<i) != 0 {
				flags += string(c)
			}
		}
		re, err := Compile(pattern, flags)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Compile(%q, %q): error of type %T: %v", pattern, flags, err, err)
			}
			if strings.HasPrefix(e.Reason, "internal error") || strings.HasPrefix(e.Reason, "cannot be compiled") {
				t.Fatalf("Compile(%q, %q): %v (translated %q)", pattern, flags, err, e.Reason)
			}
			return
		}
		units := utf16.Encode([]rune(input))
		if lastIndex < 0 {
			lastIndex = -lastIndex
		}
		lastIndex %= len(units) + 2
		start := time.Now()
		m, err := re.Exec(units, lastIndex, time.Now().Add(200*time.Millisecond))
		if err != nil && !errors.Is(err, ErrTimeout) {
			t.Fatalf("Exec(/%s/%s, %q, %d): %v", pattern, flags, input, lastIndex, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Exec(/%s/%s) ran %v past a 200ms deadline", pattern, flags, d)
		}
		if m != nil {
			n := len(units)
			for i := 0; i < len(m.Indices); i += 2 {
				s, e := m.Indices[i], m.Indices[i+1]
				if s == -1 && e == -1 && i > 0 {
					continue
				}
				if s < 0 || e < 0 || s > n || e > n || (i == 0 && s > e) {
					t.Fatalf("Exec(/%s/%s, %q): bad span %d..%d", pattern, flags, input, s, e)
				}
			}
		}
		start = time.Now()
		if _, err := re.Exec(units, lastIndex, time.Now().Add(-time.Millisecond)); err != nil && !errors.Is(err, ErrTimeout) {
			t.Fatalf("past deadline: %v", err)
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Fatalf("past deadline: took %v", d)
		}
	})
}
