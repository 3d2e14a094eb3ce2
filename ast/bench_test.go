package ast

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// typicalProgram returns a corpus program of about 2 KB, the size models
// usually send.
func typicalProgram(b *testing.B) string {
	files := corpusFiles(b)
	type sized struct {
		text string
		diff int
	}
	var all []sized
	for _, f := range files {
		t, _ := os.ReadFile(f)
		d := len(t) - 2048
		if d < 0 {
			d = -d
		}
		all = append(all, sized{string(t), d})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].diff < all[j].diff })
	return all[0].text
}

// largeProgram concatenates the corpus, each program wrapped in an async
// function so that their declarations do not clash, up to about 100 KB.
func largeProgram(b *testing.B) string {
	var sb strings.Builder
	for i := 0; sb.Len() < 100_000; i++ {
		for _, f := range corpusFiles(b) {
			t, _ := os.ReadFile(f)
			fmt.Fprintf(&sb, "async function program%d_%s() {\n%s\n}\n", i, strings.TrimSuffix(filepath.Base(f)[:3], ".js"), t)
			if sb.Len() >= 100_000 {
				break
			}
		}
	}
	return sb.String()
}

func benchmarkParse(b *testing.B, text string) {
	if _, err := Parse(text); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

// benchmarkTdewolff runs tdewolff's own parser (no positions, fewer early
// errors, no resolution into slots) on the same text, as a yardstick.
func benchmarkTdewolff(b *testing.B, text string) {
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := js.Parse(parse.NewInputString(text), js.Options{Inline: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse parses a typical 2 KB program and a 100 KB one, with
// codemode's front end (parse, early errors, scope resolution) and, for
// comparison in the same run, with tdewolff's parser alone.
func BenchmarkParse(b *testing.B) {
	small, large := typicalProgram(b), largeProgram(b)
	b.Run("2KB/codemode", func(b *testing.B) { benchmarkParse(b, small) })
	b.Run("2KB/tdewolff", func(b *testing.B) { benchmarkTdewolff(b, small) })
	b.Run("100KB/codemode", func(b *testing.B) { benchmarkParse(b, large) })
	b.Run("100KB/tdewolff", func(b *testing.B) { benchmarkTdewolff(b, large) })
}
