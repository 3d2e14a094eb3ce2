package jsregex

import (
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

// benchText is about 10 KB of log-like text with emails, dates and words.
var benchText = func() string {
	var b strings.Builder
	for i := 0; b.Len() < 10000; i++ {
		b.WriteString("2024-01-15T10:30:45Z INFO user=alice@example.com action=login ip=10.0.0.")
		b.WriteString(strings.Repeat("1", i%3+1))
		b.WriteString(" The quick brown fox jumps over the lazy dog. Ünïcödé wörds ça va.\n")
	}
	return b.String()
}()

var benchUnits = utf16.Encode([]rune(benchText))

// scanAll runs a /g loop over the whole text, as String.prototype.matchAll
// does, and returns the number of matches.
func scanAll(b *testing.B, re *Regexp, in *Input) int {
	n := 0
	for li := 0; li <= in.Len(); {
		m, err := re.ExecInput(in, li, time.Time{})
		if err != nil {
			b.Fatal(err)
		}
		if m == nil {
			break
		}
		n++
		if m.End() == m.Index() {
			li = m.End() + 1
		} else {
			li = m.End()
		}
	}
	return n
}

func benchScan(b *testing.B, pattern, flags string, want int) {
	re, err := Compile(pattern, flags)
	if err != nil {
		b.Fatal(err)
	}
	in := NewInput(benchUnits)
	b.SetBytes(int64(len(benchText)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n := scanAll(b, re, in); want >= 0 && n != want {
			b.Fatalf("%d matches, want %d", n, want)
		}
	}
}

func BenchmarkScanLiteral(b *testing.B) { benchScan(b, `fox`, "g", -1) }
func BenchmarkScanWordI(b *testing.B)   { benchScan(b, `\bFOX\b`, "gi", -1) }
func BenchmarkScanEmail(b *testing.B)   { benchScan(b, `[\w.+-]+@[\w-]+\.[\w.-]+`, "g", -1) }
func BenchmarkScanISODate(b *testing.B) {
	benchScan(b, `(?<y>\d{4})-(?<m>\d\d)-(?<d>\d\d)T(\d\d):(\d\d)`, "g", -1)
}
func BenchmarkScanKeyValue(b *testing.B) { benchScan(b, `(\w+)=(\S+)`, "g", -1) }
func BenchmarkScanLetters(b *testing.B)  { benchScan(b, `\p{L}+`, "gu", -1) }
func BenchmarkScanLookbehind(b *testing.B) {
	benchScan(b, `(?<=user=)[^@\s]+`, "g", -1)
}
func BenchmarkScanBackref(b *testing.B) { benchScan(b, `(\w)\1`, "g", -1) }
func BenchmarkScanLines(b *testing.B)   { benchScan(b, `^.*INFO.*$`, "gm", -1) }

// BenchmarkScanGoRegexp is the standard library on the literal scan, for
// scale.
func BenchmarkScanGoRegexp(b *testing.B) {
	re := regexp.MustCompile(`fox`)
	b.SetBytes(int64(len(benchText)))
	for i := 0; i < b.N; i++ {
		re.FindAllStringIndex(benchText, -1)
	}
}

func BenchmarkCompile(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Compile(`^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$`, "i"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompileUnicodeClass(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Compile(`[\p{L}\p{N}_]+`, "iu"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExecShort is one match on a short string with a fresh Input, as
// a one-off exec or test() does.
func BenchmarkExecShort(b *testing.B) {
	re, _ := Compile(`^(\d{4})-(\d{2})-(\d{2})$`, "")
	s := utf16.Encode([]rune("2024-01-15"))
	for i := 0; i < b.N; i++ {
		if m, _ := re.Exec(s, 0, time.Time{}); m == nil {
			b.Fatal("no match")
		}
	}
}

func BenchmarkExecDeadline(b *testing.B) {
	re, _ := Compile(`^(\d{4})-(\d{2})-(\d{2})$`, "")
	s := utf16.Encode([]rune("2024-01-15"))
	deadline := time.Now().Add(time.Hour)
	for i := 0; i < b.N; i++ {
		if m, _ := re.Exec(s, 0, deadline); m == nil {
			b.Fatal("no match")
		}
	}
}
