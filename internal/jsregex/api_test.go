package jsregex

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
)

func u16(s string) []uint16 { return utf16.Encode([]rune(s)) }

func TestFlagsAndAccessors(t *testing.T) {
	re, err := Compile(`(?<y>\d{4})-(\d\d)/x`, "yvsmigd")
	if err != nil {
		t.Fatal(err)
	}
	if got := re.Flags(); got != "dgimsvy" {
		t.Errorf("Flags() = %q", got)
	}
	if got := re.Source(); got != `(?<y>\d{4})-(\d\d)\/x` {
		t.Errorf("Source() = %q", got)
	}
	if got := re.NumGroups(); got != 2 {
		t.Errorf("NumGroups() = %d", got)
	}
	if got := re.GroupNames(); strings.Join(got, ",") != ",y," {
		t.Errorf("GroupNames() = %q", got)
	}
	if !re.HasIndices() || !re.Global() || !re.IgnoreCase() || !re.Multiline() || !re.DotAll() ||
		re.Unicode() || !re.UnicodeSets() || !re.Sticky() {
		t.Error("flag accessors")
	}
	if re, _ := Compile("", ""); re.Source() != "(?:)" {
		t.Errorf("empty source = %q", re.Source())
	}
}

func TestBadFlags(t *testing.T) {
	for _, f := range []string{"gg", "x", "uv", "G", "é"} {
		_, err := Compile("a", f)
		var e *Error
		if !errors.As(err, &e) || !e.BadFlags {
			t.Errorf("flags %q: %v", f, err)
			continue
		}
		if want := "Invalid flags supplied to RegExp constructor '" + f + "'"; err.Error() != want {
			t.Errorf("flags %q: %q, want %q", f, err.Error(), want)
		}
	}
}

func TestUnsupported(t *testing.T) {
	_, err := Compile(`\p{RGI_Emoji}`, "v")
	var e *Error
	if !errors.As(err, &e) || !e.Unsupported {
		t.Fatalf("got %v", err)
	}
}

func TestNamedGroups(t *testing.T) {
	re, err := Compile(`(?<b>x)|(?<a>y)|(?<b>z)`, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(re.Names(), ","); got != "b,a" {
		t.Errorf("Names() = %q", got)
	}
	m, _ := re.Exec(u16("..z"), 0, time.Time{})
	got := m.NamedGroups()
	want := []NamedGroup{{"b", 2, 3}, {"a", -1, -1}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("NamedGroups() = %v, want %v", got, want)
	}
	if s, e, ok := m.Group(3); !ok || s != 2 || e != 3 {
		t.Errorf("Group(3) = %d %d %v", s, e, ok)
	}
	if _, _, ok := m.Group(1); ok {
		t.Error("Group(1) participated")
	}
	if m.Index() != 2 || m.End() != 3 {
		t.Errorf("Index, End = %d, %d", m.Index(), m.End())
	}
	plain, _ := Compile(`(a)`, "")
	m, _ = plain.Exec(u16("a"), 0, time.Time{})
	if m.NamedGroups() != nil {
		t.Error("groups for a pattern without names")
	}
}

func TestLastIndex(t *testing.T) {
	re, _ := Compile(`a`, "g")
	in := NewInput(u16("aXa"))
	var got []int
	for li := 0; ; {
		m, err := re.ExecInput(in, li, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if m == nil {
			break
		}
		got = append(got, m.Index())
		li = m.End()
	}
	if len(got) != 2 || got[0] != 0 || got[1] != 2 {
		t.Errorf("matches at %v", got)
	}
	if m, _ := re.Exec(u16("a"), 2, time.Time{}); m != nil {
		t.Error("match past the end")
	}
	if m, _ := re.Exec(u16("a"), -5, time.Time{}); m == nil {
		t.Error("negative lastIndex should start at 0")
	}
}

func TestTimeout(t *testing.T) {
	re, err := Compile(`(a+)+b`, "")
	if err != nil {
		t.Fatal(err)
	}
	input := u16(strings.Repeat("a", 40))
	if _, err := re.Exec(input, 0, time.Now().Add(-time.Second)); !errors.Is(err, ErrTimeout) {
		t.Errorf("past deadline: %v", err)
	}
	start := time.Now()
	_, err = re.Exec(input, 0, time.Now().Add(50*time.Millisecond))
	if !errors.Is(err, ErrTimeout) {
		t.Errorf("catastrophic pattern: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("timeout took %v", d)
	}
	// The Regexp still works after a timeout.
	if m, err := re.Exec(u16("aab"), 0, time.Now().Add(time.Second)); err != nil || m == nil {
		t.Errorf("after timeout: %v %v", m, err)
	}
}

func TestConcurrent(t *testing.T) {
	re, err := Compile(`(?<word>\p{L}+)\s*(\d*)`, "gu")
	if err != nil {
		t.Fatal(err)
	}
	in := NewInput(u16("héllo 42 wörld 7 😀 x"))
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				m, err := re.ExecInput(in, 0, time.Now().Add(time.Second))
				if err != nil || m == nil || m.Indices[1] != 8 {
					t.Errorf("got %v %v", m, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestDeepNesting(t *testing.T) {
	for _, p := range []string{
		strings.Repeat("(?:", 5000) + "a" + strings.Repeat(")", 5000),
		strings.Repeat("(", 2000) + "a" + strings.Repeat(")*", 2000),
	} {
		re, err := Compile(p, "")
		if err != nil {
			t.Fatalf("%.20s...: %v", p, err)
		}
		m, err := re.Exec(u16("a"), 0, time.Now().Add(2*time.Second))
		if err == nil && m == nil {
			t.Errorf("%.20s...: no match", p)
		}
	}
	_, err := Compile(strings.Repeat("(", 20000)+strings.Repeat(")", 20000), "")
	if err == nil || !strings.Contains(err.Error(), "Maximum call stack size exceeded") {
		t.Errorf("20000 nested groups: %v", err)
	}
}

// TestCanonicalize checks our Canonicalize for patterns without /u against
// node's toUpperCase rule on every code unit it changes
// (testdata/canon.jsonl is written by gen.js).
func TestCanonicalize(t *testing.T) {
	pairs := readJSONL[[2]int](t, "canon.jsonl")
	f := foldFor(false)
	seen := map[rune]bool{}
	newer := 0
	for _, p := range pairs {
		c, v := rune(p[0]), rune(p[1])
		seen[c] = true
		if !assigned().has(c) || !assigned().has(v) {
			// Assigned after the Unicode version of Go's tables: a known
			// gap (U+A7DC, the uppercase of U+019B, came in Unicode 16).
			newer++
			continue
		}
		if got := f.canon(c); got != v {
			t.Errorf("canon(%U) = %U, want %U", c, got, v)
		}
	}
	if newer > 20 {
		t.Errorf("%d case pairs newer than Go's Unicode tables", newer)
	}
	for c := rune(0); c <= 0xFFFF; c++ {
		if !seen[c] && f.canon(c) != c {
			t.Errorf("canon(%U) = %U, want itself", c, f.canon(c))
		}
	}
}

// TestValidate: Validate reports Compile's pattern and flags errors (the
// early errors of a literal), with the same message, and nothing for a
// pattern that is only unsupported.
func TestValidate(t *testing.T) {
	tests := []struct{ pattern, flags, want string }{
		{"(?<a>)(?<a>)", "", "Invalid regular expression: /(?<a>)(?<a>)/: Duplicate capture group name"},
		{"{1}", "u", "Invalid regular expression: /{1}/u: Nothing to repeat"},
		{"a{2,1}", "", "Invalid regular expression: /a{2,1}/: numbers out of order in {} quantifier"},
		{`\-`, "v", `Invalid regular expression: /\-/v: Invalid escape`},
		{"(?<=a)*", "", "Invalid regular expression: /(?<=a)*/: Invalid quantifier"},
		{"a", "gg", "Invalid flags supplied to RegExp constructor 'gg'"},
		{"a", "uv", "Invalid flags supplied to RegExp constructor 'uv'"},
		{"a{", "", ""}, // Annex B: a lone brace without u
		{`\p{RGI_Emoji}`, "v", ""},
		{"(?<a>x)|(?<a>y)", "", ""}, // duplicate names in different alternatives
	}
	for _, tt := range tests {
		err := Validate(tt.pattern, tt.flags)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Validate(%q, %q) = %q, want %q", tt.pattern, tt.flags, got, tt.want)
		}
		if _, cerr := Compile(tt.pattern, tt.flags); tt.want != "" && (cerr == nil || cerr.Error() != tt.want) {
			t.Errorf("Compile(%q, %q) = %v, want the same error as Validate", tt.pattern, tt.flags, cerr)
		}
	}
}

// TestExtraFolds: the simple case foldings unicode.SimpleFold misses
// (CaseFolding.txt's S pairs without a case mapping) match under /ui, in
// both directions, as in V8; without u they do not (toUpperCase).
func TestExtraFolds(t *testing.T) {
	for _, p := range [][2]rune{{0x0390, 0x1FD3}, {0x03B0, 0x1FE3}, {0xFB05, 0xFB06}} {
		for _, d := range [][2]rune{p, {p[1], p[0]}} {
			for _, pat := range []string{string(d[0]), "[" + string(d[0]) + "]"} {
				re, err := Compile(pat, "ui")
				if err != nil {
					t.Fatal(err)
				}
				if m, _ := re.Exec(toUnits(string(d[1])), 0, time.Time{}); m == nil {
					t.Errorf("/%s/ui does not match %U", pat, d[1])
				}
				re, _ = Compile(pat, "i")
				if m, _ := re.Exec(toUnits(string(d[1])), 0, time.Time{}); m != nil {
					t.Errorf("/%s/i matches %U", pat, d[1])
				}
			}
		}
	}
}
