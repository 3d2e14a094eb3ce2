package jsregex

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The reference table testdata/cases.jsonl is made by node (testdata/gen.js):
// every case is what V8 answers. testdata/skip.jsonl lists the cases this
// package is known to answer differently, each with the reason; a listed
// case that starts passing fails the test, so that the list stays honest.

type tableCase struct {
	P   string  `json:"p"`
	PU  []int   `json:"pu"` // the pattern as code units, when it has lone surrogates
	F   string  `json:"f"`
	E   string  `json:"e"`
	Src string  `json:"src"`
	S   []int   `json:"s"`
	I   int     `json:"i"`
	R   []int   `json:"r"`
	G   [][]any `json:"g"`
}

type skipEntry struct {
	P   string `json:"p"`
	F   string `json:"f"`
	S   []int  `json:"s"` // nil: every case of the pattern
	I   int    `json:"i"`
	Why string `json:"why"`
}

func readJSONL[T any](t testing.TB, name string) []T {
	t.Helper()
	if !filepath.IsAbs(name) {
		name = filepath.Join("testdata", name)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%s: %v: %s", name, err, line)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func caseKey(p, f string, s []int, i int) string {
	b, _ := json.Marshal([]any{p, f, s, i})
	return string(b)
}

func toU16(s []int) []uint16 {
	out := make([]uint16, len(s))
	for i, c := range s {
		out[i] = uint16(c)
	}
	return out
}

// runCase returns "" when the package answers like V8, else what differs.
func runCase(c tableCase) string {
	pattern := c.P
	if c.PU != nil {
		pattern = wtf8(c.PU)
	}
	re, err := Compile(pattern, c.F)
	if c.E != "" {
		if err == nil {
			return fmt.Sprintf("compiled, want error %q (translated %q)", c.E, short(re.Translated()))
		}
		if msg := strings.ToValidUTF8(err.Error(), "\uFFFD"); msg != c.E {
			return fmt.Sprintf("error %q, want %q", err.Error(), c.E)
		}
		return ""
	}
	if err != nil {
		return fmt.Sprintf("error %v", err)
	}
	if strings.ToValidUTF8(re.Source(), "\uFFFD") != c.Src {
		return fmt.Sprintf("source %q, want %q", re.Source(), c.Src)
	}
	m, err := re.Exec(toU16(c.S), c.I, time.Now().Add(5*time.Second))
	if err != nil {
		return fmt.Sprintf("exec error %v", err)
	}
	var got []int
	if m != nil {
		got = m.Indices
	}
	if (got == nil) != (c.R == nil) || (got != nil && !reflect.DeepEqual(got, c.R)) {
		return fmt.Sprintf("got %v, want %v (translated %q)", got, c.R, short(re.Translated()))
	}
	if m != nil {
		var groups [][]any
		for _, g := range m.NamedGroups() {
			groups = append(groups, []any{g.Name, float64(g.Start), float64(g.End)})
		}
		if !reflect.DeepEqual(groups, c.G) && !(len(groups) == 0 && len(c.G) == 0) {
			return fmt.Sprintf("groups %v, want %v", groups, c.G)
		}
	}
	return ""
}

func short(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

func TestTable(t *testing.T) {
	name := "cases.jsonl"
	if env := os.Getenv("JSREGEX_CASES"); env != "" {
		name = env // for exploring: a file made with JSREGEX_EXPLORE=N node gen.js
	}
	cases := readJSONL[tableCase](t, name)
	skips := readJSONL[skipEntry](t, "skip.jsonl")
	if len(cases) < 1500 && name == "cases.jsonl" {
		t.Fatalf("only %d cases", len(cases))
	}
	skipAll := map[string]string{}
	skipOne := map[string]string{}
	for _, s := range skips {
		if s.Why == "" {
			t.Errorf("skip entry %q /%s without a reason", s.P, s.F)
		}
		if s.S == nil {
			skipAll[s.P+"/"+s.F] = s.Why
		} else {
			skipOne[caseKey(s.P, s.F, s.S, s.I)] = s.Why
		}
	}
	usedAll := map[string]bool{}
	failed, skipped := 0, 0
	for _, c := range cases {
		_, skip := skipOne[caseKey(c.P, c.F, c.S, c.I)]
		if !skip {
			_, skip = skipAll[c.P+"/"+c.F]
			if skip {
				usedAll[c.P+"/"+c.F] = true
			}
		}
		diff := runCase(c)
		switch {
		case skip && diff == "" && c.S != nil && skipOne[caseKey(c.P, c.F, c.S, c.I)] != "":
			t.Errorf("skipped case now passes, remove it from skip.jsonl: %s", caseKey(c.P, c.F, c.S, c.I))
		case skip:
			skipped++
		case diff != "":
			failed++
			t.Errorf("/%s/%s on %q at %d: %s", c.P, c.F, string(utf16Decode(c.S)), c.I, diff)
		}
	}
	for k := range skipAll {
		if !usedAll[k] {
			t.Errorf("skip entry %s matches no case", k)
		}
	}
	t.Logf("%d cases, %d skipped, %d failed", len(cases), skipped, failed)
}

func utf16Decode(s []int) []rune {
	var out []rune
	for i := 0; i < len(s); i++ {
		c := rune(s[i])
		if c >= 0xD800 && c <= 0xDBFF && i+1 < len(s) && s[i+1] >= 0xDC00 && s[i+1] <= 0xDFFF {
			out = append(out, (c-0xD800)<<10+rune(s[i+1]-0xDC00)+0x10000)
			i++
			continue
		}
		out = append(out, c)
	}
	return out
}

// wtf8 encodes code units as UTF-8, with lone surrogates as their own
// three-byte sequences (WTF-8), as Compile accepts them.
func wtf8(units []int) string {
	var b []byte
	for i := 0; i < len(units); i++ {
		u := rune(units[i])
		if u >= 0xD800 && u <= 0xDBFF && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF {
			b = utf8.AppendRune(b, (u-0xD800)<<10+rune(units[i+1]-0xDC00)+0x10000)
			i++
			continue
		}
		if u >= 0xD800 && u <= 0xDFFF {
			b = append(b, byte(0xE0|u>>12), byte(0x80|(u>>6)&0x3F), byte(0x80|u&0x3F))
			continue
		}
		b = utf8.AppendRune(b, u)
	}
	return string(b)
}
