package value

import (
	"strings"
	"testing"
)

func TestStringLength(t *testing.T) {
	tests := []struct {
		text   string
		length int
		ascii  bool
	}{
		{"", 0, true},
		{"hello", 5, true},
		{"héllo", 5, false},
		{"😀", 2, false}, // one code point, two code units
		{"a😀b", 4, false},
		{"\xed\xa0\x80", 1, false}, // a lone surrogate in WTF-8
	}
	for _, tt := range tests {
		s := NewString(tt.text)
		if s.Len() != tt.length || s.IsASCII() != tt.ascii {
			t.Errorf("%q: Len %d ASCII %v, want %d %v", tt.text, s.Len(), s.IsASCII(), tt.length, tt.ascii)
		}
	}
}

func TestStringForms(t *testing.T) {
	lone := NewString("a\xed\xa0\x80b") // "a\uD800b"
	if got := lone.At(1); got != 0xD800 {
		t.Errorf("At(1) = %#x, want 0xD800", got)
	}
	if got := lone.String(); got != "a\uFFFDb" {
		t.Errorf("String() = %q: a lone surrogate becomes U+FFFD at the boundary", got)
	}
	if got := lone.Key(); got != "a\xed\xa0\x80b" {
		t.Errorf("Key() = %q: keys keep lone surrogates", got)
	}
	pair := FromUTF16([]uint16{0xD83D, 0xDE00})
	if pair.String() != "😀" || pair.Key() != "😀" {
		t.Errorf("a surrogate pair is one code point: %q %q", pair.String(), pair.Key())
	}
	if !Equal(pair, NewString("😀")) {
		t.Error("FromUTF16 and NewString disagree")
	}
	if FromUTF16([]uint16{'o', 'k'}).IsASCII() != true {
		t.Error("ASCII code units make an ASCII string")
	}
}

func TestConcatAndRopes(t *testing.T) {
	a, b := NewString("abc"), NewString("déf")
	if got := Concat(a, b).String(); got != "abcdéf" {
		t.Errorf("Concat = %q", got)
	}
	if Concat(Empty, a) != a || Concat(a, Empty) != a {
		t.Error("concatenating the empty string returns the other operand")
	}
	// A long left-deep rope, as s += x in a loop builds, flattens without
	// recursion and in order.
	s := Empty
	var want strings.Builder
	for i := 0; i < 100_000; i++ {
		piece := string(rune('a' + i%26))
		s = Concat(s, NewString(piece))
		want.WriteString(piece)
	}
	if s.Len() != 100_000 {
		t.Fatalf("Len = %d", s.Len())
	}
	if s.String() != want.String() {
		t.Error("flattened rope differs from the appended text")
	}
	mixed := Concat(NewString(strings.Repeat("x", 40)), NewString("ü"))
	if mixed.IsASCII() || mixed.At(40) != 'ü' || mixed.Len() != 41 {
		t.Errorf("a rope with a wide part flattens wide: %q", mixed.String())
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"a", "b", -1},
		{"b", "a", 1},
		{"abc", "abc", 0},
		{"ab", "abc", -1},
		{"", "a", -1},
		// UTF-16 order, not code point order: 😀 is 0xD83D 0xDE00, which
		// sorts before 0xFF61.
		{"😀", "\uFF61", -1},
		{"é", "e", 1},
	}
	for _, tt := range tests {
		if got := Compare(NewString(tt.a), NewString(tt.b)); got != tt.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Equal(NewString(tt.a), NewString(tt.b)); got != (tt.want == 0) {
			t.Errorf("Equal(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

func TestIndexOfAndSlice(t *testing.T) {
	tests := []struct {
		s, sub string
		from   int
		want   int
	}{
		{"hello world", "o", 0, 4},
		{"hello world", "o", 5, 7},
		{"hello world", "z", 0, -1},
		{"hello", "", 3, 3},
		{"hello", "", 9, 5},
		{"héllo wörld", "ö", 0, 7},
		{"a😀b😀", "😀", 2, 4},
		{"abc", "c", 5, -1},
	}
	for _, tt := range tests {
		if got := NewString(tt.s).IndexOf(NewString(tt.sub), tt.from); got != tt.want {
			t.Errorf("%q.IndexOf(%q, %d) = %d, want %d", tt.s, tt.sub, tt.from, got, tt.want)
		}
	}
	s := NewString("a😀b")
	if got := s.Slice(1, 3).String(); got != "😀" {
		t.Errorf("Slice(1, 3) = %q", got)
	}
	if got := s.Slice(1, 2).String(); got != "\uFFFD" {
		t.Errorf("half a pair is a lone surrogate: %q", got)
	}
	if got := NewString("hello").Slice(1, 4).String(); got != "ell" {
		t.Errorf("Slice = %q", got)
	}
}

// BenchmarkAppend builds a string with 100,000 appends, as
// string_concat.js does: with ropes it is linear.
func BenchmarkAppend(b *testing.B) {
	piece := NewString("item, ")
	for b.Loop() {
		s := Empty
		for i := 0; i < 100_000; i++ {
			s = Concat(s, piece)
		}
		if s.Len() != 600_000 || s.At(599_999) != ' ' {
			b.Fatal("wrong result")
		}
	}
}
