package value

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// jsArg is one decoded argument or result of testdata/strmethods*.jsonl
// (see gen_strmethods.js for the encoding).
type jsArg struct {
	str   *String // a string
	num   int     // a number, ±Infinity as math.MaxInt and math.MinInt
	canon string  // the canonical text of the value, to compare results
}

func decodeArg(raw json.RawMessage) (jsArg, error) {
	var a jsArg
	switch {
	case len(raw) == 0:
		return a, fmt.Errorf("empty value")
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return a, err
		}
		a.str = NewString(s)
	case raw[0] == '{':
		var o struct {
			U   []uint16
			N   string
			Err string
		}
		if err := json.Unmarshal(raw, &o); err != nil {
			return a, err
		}
		switch {
		case o.Err != "":
			a.canon = o.Err
			return a, nil
		case o.N == "Infinity":
			a.num = math.MaxInt
		case o.N == "-Infinity":
			a.num = math.MinInt
		case o.U != nil:
			a.str = FromUTF16(o.U)
		default:
			return a, fmt.Errorf("bad object %s", raw)
		}
	case raw[0] == '[':
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return a, err
		}
		var parts []string
		for _, e := range elems {
			x, err := decodeArg(e)
			if err != nil {
				return a, err
			}
			parts = append(parts, x.canon)
		}
		a.canon = "[" + strings.Join(parts, ",") + "]"
		return a, nil
	case string(raw) == "null":
		a.canon = "undefined"
		return a, nil
	case string(raw) == "true" || string(raw) == "false":
		a.canon = string(raw)
		return a, nil
	default:
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || f != math.Trunc(f) {
			return a, fmt.Errorf("bad number %s", raw)
		}
		a.num = int(f)
	}
	if a.str != nil {
		a.canon = canonStr(a.str)
	} else {
		a.canon = strconv.Itoa(a.num)
	}
	return a, nil
}

// canonStr shows a string exactly: quoted WTF-8, so a lone surrogate shows
// as \xed\xa0\x80 and stays distinct from U+FFFD.
func canonStr(s *String) string { return strconv.Quote(s.Key()) }

// forceRope returns s as an unflattened rope of two halves, so that every
// method is also run on the rope form.
func forceRope(s *String) *String {
	if s == nil || s.Len() < 2 {
		return s
	}
	k := s.Len() / 2
	return &String{left: s.Slice(0, k), right: s.Slice(k, s.Len()), length: s.Len()}
}

// runMethod runs method m on s with args, giving the canonical result.
func runMethod(m string, s *String, args []jsArg) (string, error) {
	str := canonStr
	num := func(i int) string { return strconv.Itoa(i) }
	orErr := func(r *String, ok bool) string {
		if !ok {
			return "RangeError"
		}
		return str(r)
	}
	arg := func(i int) int { return args[i].num }
	sarg := func(i int) *String { return args[i].str }
	switch m {
	case "trim":
		return str(s.Trim()), nil
	case "trimStart":
		return str(s.TrimStart()), nil
	case "trimEnd":
		return str(s.TrimEnd()), nil
	case "toUpperCase":
		return str(s.ToUpperCase()), nil
	case "toLowerCase":
		return str(s.ToLowerCase()), nil
	case "isWellFormed":
		return strconv.FormatBool(s.IsWellFormed()), nil
	case "toWellFormed":
		return str(s.ToWellFormed()), nil
	case "at":
		r, ok := s.AtIndex(arg(0))
		if !ok {
			return "undefined", nil
		}
		return str(r), nil
	case "charAt":
		return str(s.CharAt(arg(0))), nil
	case "charCodeAt":
		u, ok := s.CharCodeAt(arg(0))
		if !ok {
			return "undefined", nil
		}
		return num(int(u)), nil
	case "codePointAt":
		r, ok := s.CodePointAt(arg(0))
		if !ok {
			return "undefined", nil
		}
		return num(int(r)), nil
	case "slice":
		return str(s.SliceJS(arg(0), arg(1))), nil
	case "substring":
		return str(s.Substring(arg(0), arg(1))), nil
	case "substr":
		return str(s.Substr(arg(0), arg(1))), nil
	case "includes":
		return strconv.FormatBool(s.Includes(sarg(0), arg(1))), nil
	case "startsWith":
		return strconv.FormatBool(s.StartsWith(sarg(0), arg(1))), nil
	case "endsWith":
		return strconv.FormatBool(s.EndsWith(sarg(0), arg(1))), nil
	case "lastIndexOf":
		return num(s.LastIndexOf(sarg(0), arg(1))), nil
	case "split":
		var parts []string
		for _, p := range s.Split(sarg(0), arg(1)) {
			parts = append(parts, str(p))
		}
		return "[" + strings.Join(parts, ",") + "]", nil
	case "replace":
		return orErr(s.ReplaceFirstString(sarg(0), sarg(1))), nil
	case "replaceAll":
		return orErr(s.ReplaceAllString(sarg(0), sarg(1))), nil
	case "padStart":
		return orErr(s.PadStart(arg(0), sarg(1))), nil
	case "padEnd":
		return orErr(s.PadEnd(arg(0), sarg(1))), nil
	case "repeat":
		return orErr(s.Repeat(arg(0))), nil
	case "fromCharCode":
		units := make([]uint16, len(args))
		for i, a := range args {
			units[i] = uint16(a.num)
		}
		return str(FromCharCode(units...)), nil
	case "fromCodePoint":
		cps := make([]int, len(args))
		for i, a := range args {
			cps[i] = a.num
		}
		return orErr(FromCodePoint(cps...)), nil
	}
	return "", fmt.Errorf("unknown method %q", m)
}

// readJSONL calls f with the fields of each line of a testdata file.
func readJSONL(t *testing.T, name string, f func(fields []json.RawMessage)) int {
	t.Helper()
	file, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var fields []json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &fields); err != nil {
			t.Fatalf("%s:%d: %v", name, n+1, err)
		}
		f(fields)
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestStringMethodsAgainstV8 runs every case of testdata/strmethods.jsonl,
// made by node (testdata/gen_strmethods.js), on flat strings and on ropes.
func TestStringMethodsAgainstV8(t *testing.T) {
	failures := 0
	n := readJSONL(t, "testdata/strmethods.jsonl", func(fields []json.RawMessage) {
		var m string
		var rawArgs []json.RawMessage
		if len(fields) != 4 || json.Unmarshal(fields[0], &m) != nil || json.Unmarshal(fields[2], &rawArgs) != nil {
			t.Fatalf("bad case %s", fields)
		}
		var s *String
		if string(fields[1]) != "null" {
			r, err := decodeArg(fields[1])
			if err != nil {
				t.Fatal(err)
			}
			s = r.str
		}
		args := make([]jsArg, len(rawArgs))
		for i, raw := range rawArgs {
			var err error
			if args[i], err = decodeArg(raw); err != nil {
				t.Fatal(err)
			}
		}
		want, err := decodeArg(fields[3])
		if err != nil {
			t.Fatal(err)
		}
		for _, rope := range []bool{false, true} {
			recv, as := s, args
			if rope {
				recv, as = forceRope(s), make([]jsArg, len(args))
				for i, a := range args {
					as[i] = a
					as[i].str = forceRope(a.str)
				}
			}
			got, err := runMethod(m, recv, as)
			if err != nil {
				t.Fatal(err)
			}
			if got != want.canon && failures < 50 {
				failures++
				var shown []string
				for _, a := range args {
					shown = append(shown, a.canon)
				}
				recvText := "String"
				if s != nil {
					recvText = canonStr(s)
				}
				t.Errorf("%s.%s(%s) (rope %v) = %s, want %s", recvText, m, strings.Join(shown, ", "), rope, got, want.canon)
			}
		}
	})
	if n < 10000 {
		t.Fatalf("only %d cases", n)
	}
	t.Logf("%d cases", n)
}

// TestCaseMappingAgainstV8 checks toUpperCase and toLowerCase of every code
// point, and the Cased, Case_Ignorable and white space sets, against
// testdata/strmethods_unicode.jsonl.
func TestCaseMappingAgainstV8(t *testing.T) {
	type mapping struct{ upper, lower *String }
	cases := map[rune]mapping{}
	sets := map[string][][2]rune{}
	readJSONL(t, "testdata/strmethods_unicode.jsonl", func(fields []json.RawMessage) {
		var kind string
		json.Unmarshal(fields[0], &kind)
		switch kind {
		case "case":
			var cp rune
			var upper, lower string
			if json.Unmarshal(fields[1], &cp) != nil || json.Unmarshal(fields[2], &upper) != nil || json.Unmarshal(fields[3], &lower) != nil {
				t.Fatalf("bad line %s", fields)
			}
			cases[cp] = mapping{NewString(upper), NewString(lower)}
		case "set":
			var name string
			var ranges [][2]rune
			if json.Unmarshal(fields[1], &name) != nil || json.Unmarshal(fields[2], &ranges) != nil {
				t.Fatalf("bad line %s", fields)
			}
			sets[name] = ranges
		}
	})
	if len(cases) < 2500 || len(sets) != 3 {
		t.Fatalf("only %d mappings and %d sets", len(cases), len(sets))
	}
	// The code points go in batches, each followed by a newline (neither
	// cased nor case-ignorable, so a lone "Σ" stays a word of its own);
	// a batch that differs is checked point by point.
	bad := 0
	check := func(cps []rune) {
		var in, upper, lower []uint16
		for _, cp := range cps {
			s, _ := FromCodePoint(int(cp))
			want, ok := cases[cp]
			if !ok {
				want = mapping{s, s}
			}
			in = append(append(in, s.Units()...), '\n')
			upper = append(append(upper, want.upper.Units()...), '\n')
			lower = append(append(lower, want.lower.Units()...), '\n')
		}
		s := FromUTF16(in)
		if Equal(s.ToUpperCase(), FromUTF16(upper)) && Equal(s.ToLowerCase(), FromUTF16(lower)) {
			return
		}
		for _, cp := range cps {
			s, _ := FromCodePoint(int(cp))
			want, ok := cases[cp]
			if !ok {
				want = mapping{s, s}
			}
			if got := s.ToUpperCase(); !Equal(got, want.upper) && bad < 30 {
				bad++
				t.Errorf("U+%04X upper: %s, want %s", cp, canonStr(got), canonStr(want.upper))
			}
			if got := s.ToLowerCase(); !Equal(got, want.lower) && bad < 30 {
				bad++
				t.Errorf("U+%04X lower: %s, want %s", cp, canonStr(got), canonStr(want.lower))
			}
		}
	}
	var batch []rune
	for cp := rune(0); cp <= 0x10FFFF; cp++ {
		if utf16.IsSurrogate(cp) {
			continue
		}
		if batch = append(batch, cp); len(batch) == 4096 || cp == 0x10FFFF {
			check(batch)
			batch = batch[:0]
		}
		for _, p := range [...]struct {
			name      string
			got, want bool
		}{
			{"Cased", isCased(cp), inSortedRanges(sets["cased"], cp)},
			{"Case_Ignorable", isCaseIgnorable(cp), inSortedRanges(sets["ignorable"], cp)},
			{"white space", cp <= 0xFFFF && isJSSpace(uint16(cp)), inSortedRanges(sets["space"], cp)},
		} {
			if p.got != p.want && bad < 30 {
				bad++
				t.Errorf("U+%04X %s: %v, want %v", cp, p.name, p.got, p.want)
			}
		}
	}
}

// inSortedRanges reports whether r is in one of the sorted ranges.
func inSortedRanges(ranges [][2]rune, r rune) bool {
	i := sort.Search(len(ranges), func(i int) bool { return ranges[i][1] >= r })
	return i < len(ranges) && ranges[i][0] <= r
}

// TestStringMethodsExamples is a readable table of hand-made cases; "\xed\xa0\x80"
// is a lone U+D800 in WTF-8 (see NewString).
func TestStringMethodsExamples(t *testing.T) {
	s := NewString
	first := func(r *String, _ bool) *String { return r }
	tests := []struct {
		expr string
		got  *String
		want string
	}{
		{`"ß".toUpperCase()`, s("ß").ToUpperCase(), "SS"},
		{`"straße".toUpperCase()`, s("straße").ToUpperCase(), "STRASSE"},
		{`"ﬃ".toUpperCase()`, s("ﬃ").ToUpperCase(), "FFI"},
		{`"ᾳ".toUpperCase()`, s("ᾳ").ToUpperCase(), "ΑΙ"},
		{`"ı".toUpperCase()`, s("ı").ToUpperCase(), "I"},
		{`"İ".toLowerCase()`, s("İ").ToLowerCase(), "i\u0307"},
		{`"ΑΣ".toLowerCase()`, s("ΑΣ").ToLowerCase(), "ας"},
		{`"Σ".toLowerCase()`, s("Σ").ToLowerCase(), "σ"},
		{`"ΣΑ".toLowerCase()`, s("ΣΑ").ToLowerCase(), "σα"},
		{`"ΑΣ.Β".toLowerCase()`, s("ΑΣ.Β").ToLowerCase(), "ασ.β"},
		{`"ΑΣ'".toLowerCase()`, s("ΑΣ'").ToLowerCase(), "ας'"},
		{`"ʰΣ".toLowerCase()`, s("ʰΣ").ToLowerCase(), "ʰσ"},
		{`"𐐀".toLowerCase()`, s("𐐀").ToLowerCase(), "𐐨"},
		{`"a\uD800".toUpperCase()`, s("a\xed\xa0\x80").ToUpperCase(), "A\xed\xa0\x80"},
		{`"\u3000\uFEFF x \u2029".trim()`, s("\u3000\uFEFF x \u2029").Trim(), "x"},
		{`"\u180E x".trim()`, s("\u180E x").Trim(), "\u180E x"},
		{`" x ".trimStart()`, s(" x ").TrimStart(), "x "},
		{`" x ".trimEnd()`, s(" x ").TrimEnd(), " x"},
		{`"abc".padStart(10, "12")`, first(s("abc").PadStart(10, s("12"))), "1212121abc"},
		{`"abc".padEnd(6, "😀")`, first(s("abc").PadEnd(6, s("😀"))), "abc😀\xed\xa0\xbd"},
		{`"ab".repeat(3)`, first(s("ab").Repeat(3)), "ababab"},
		{`"abc".slice(-2)`, s("abc").SliceJS(-2, math.MaxInt), "bc"},
		{`"abc".substring(2, 0)`, s("abc").Substring(2, 0), "ab"},
		{`"abc".substr(-2, 1)`, s("abc").Substr(-2, 1), "b"},
		{`"😀".at(-1)`, first(s("😀").AtIndex(-1)), "\xed\xb8\x80"},
		{`"abc".charAt(-1)`, s("abc").CharAt(-1), ""},
		{`"a\uD800".toWellFormed()`, s("a\xed\xa0\x80").ToWellFormed(), "a\uFFFD"},
		{"\"abc\".replace(\"b\", \"[$$|$&|$`|$'|$1|$<x>|$]\")", first(s("abc").ReplaceFirstString(s("b"), s("[$$|$&|$`|$'|$1|$<x>|$]"))), "a[$|b|a|c|$1|$<x>|$]c"},
		{`"aaa".replaceAll("a", "$&$&")`, first(s("aaa").ReplaceAllString(s("a"), s("$&$&"))), "aaaaaa"},
		{`"ab".replaceAll("", "-")`, first(s("ab").ReplaceAllString(s(""), s("-"))), "-a-b-"},
		{`"😀".replaceAll("", "-")`, first(s("😀").ReplaceAllString(s(""), s("-"))), "-\xed\xa0\xbd-\xed\xb8\x80-"},
		{`"aXbX".replaceAll("X", "$'")`, first(s("aXbX").ReplaceAllString(s("X"), s("$'"))), "abXb"},
		{`String.fromCharCode(0xD83D, 0xDE00)`, FromCharCode(0xD83D, 0xDE00), "😀"},
		{`String.fromCodePoint(0x1F600, 0xD800)`, first(FromCodePoint(0x1F600, 0xD800)), "😀\xed\xa0\x80"},
	}
	for _, tt := range tests {
		if tt.got == nil || tt.got.Key() != tt.want {
			t.Errorf("%s = %s, want %q", tt.expr, canonStr(tt.got), tt.want)
		}
	}

	split := func(str, sep string, limit int) string {
		var parts []string
		for _, p := range s(str).Split(s(sep), limit) {
			parts = append(parts, p.Key())
		}
		return strings.Join(parts, "|")
	}
	splits := []struct {
		str, sep string
		limit    int
		want     string
	}{
		{"a,b,,c", ",", -1, "a|b||c"},
		{"a,b,,c", ",", 2, "a|b"},
		{"a,b", ",", 0, ""},
		{"abc", "", -1, "a|b|c"},
		{"abc", "", 2, "a|b"},
		{"😀", "", -1, "\xed\xa0\xbd|\xed\xb8\x80"},
		{"", ",", -1, ""}, // one empty piece
		{"abc", "abc", -1, "|"},
	}
	for _, tt := range splits {
		if got := split(tt.str, tt.sep, tt.limit); got != tt.want {
			t.Errorf("%q.split(%q, %d) = %q, want %q", tt.str, tt.sep, tt.limit, got, tt.want)
		}
	}
	if n := len(s("").Split(s(""), -1)); n != 0 {
		t.Errorf(`"".split("") has %d pieces, want 0`, n)
	}
	if n := len(s("").Split(s(","), -1)); n != 1 {
		t.Errorf(`"".split(",") has %d pieces, want 1`, n)
	}

	ints := []struct {
		expr      string
		got, want int
	}{
		{`"canal".lastIndexOf("a")`, s("canal").LastIndexOf(s("a"), math.MaxInt), 3},
		{`"canal".lastIndexOf("a", 2)`, s("canal").LastIndexOf(s("a"), 2), 1},
		{`"canal".lastIndexOf("a", -5)`, s("canal").LastIndexOf(s("a"), -5), -1},
		{`"canal".lastIndexOf("", 2)`, s("canal").LastIndexOf(s(""), 2), 2},
		{`"😀".codePointAt(0)`, func() int { r, _ := s("😀").CodePointAt(0); return int(r) }(), 0x1F600},
		{`"😀".codePointAt(1)`, func() int { r, _ := s("😀").CodePointAt(1); return int(r) }(), 0xDE00},
		{`"é".charCodeAt(0)`, func() int { u, _ := s("é").CharCodeAt(0); return int(u) }(), 0xE9},
	}
	for _, tt := range ints {
		if tt.got != tt.want {
			t.Errorf("%s = %d, want %d", tt.expr, tt.got, tt.want)
		}
	}
	if s("abc").Includes(s("a"), 1) || !s("abc").StartsWith(s("b"), 1) || !s("abc").EndsWith(s("ab"), 2) || s("abc").EndsWith(s("abcd"), 3) {
		t.Error("includes/startsWith/endsWith")
	}
	if _, ok := s("abc").CharCodeAt(3); ok {
		t.Error(`"abc".charCodeAt(3) is NaN`)
	}
	if s("a\xed\xa0\x80").IsWellFormed() || !s("😀").IsWellFormed() {
		t.Error("isWellFormed")
	}
}

// TestStringMethodsLengthLimit checks the RangeErrors of results longer
// than MaxStringLength, and that they are found before building them.
func TestStringMethodsLengthLimit(t *testing.T) {
	ab := NewString("ab")
	if r, ok := ab.Repeat(MaxStringLength / 2); !ok || r.Len() != MaxStringLength {
		t.Error("repeat to exactly MaxStringLength")
	}
	if _, ok := ab.Repeat(MaxStringLength/2 + 1); ok {
		t.Error("repeat past MaxStringLength")
	}
	if _, ok := ab.Repeat(math.MaxInt); ok {
		t.Error("repeat(MaxInt)")
	}
	if r, ok := Empty.Repeat(math.MaxInt); !ok || r.Len() != 0 {
		t.Error(`"".repeat(huge) is ""`)
	}
	if _, ok := ab.PadStart(MaxStringLength+1, NewString("x")); ok {
		t.Error("padStart past MaxStringLength")
	}
	if r, ok := ab.PadEnd(math.MaxInt, Empty); !ok || r != ab {
		t.Error("padEnd with an empty filler is the string itself")
	}
	big, _ := NewString("a").Repeat(8192)
	allocs := testing.AllocsPerRun(1, func() {
		if _, ok := big.ReplaceAllString(Empty, NewString("$'")); ok { // 33 million units
			t.Error("replaceAll past MaxStringLength")
		}
	})
	if allocs > 100 {
		t.Errorf("replaceAll past MaxStringLength made %v allocations", allocs)
	}
	if _, ok := FromCodePoint(0x110000); ok {
		t.Error("fromCodePoint(0x110000)")
	}
	if _, ok := FromCodePoint(-1); ok {
		t.Error("fromCodePoint(-1)")
	}
}

// TestStringMethodsKeepReceiver checks that methods with nothing to do
// return the receiver, not a copy.
func TestStringMethodsKeepReceiver(t *testing.T) {
	for _, text := range []string{"abc", "ÀBC😀"} {
		x := NewString(text)
		if x.Trim() != x || x.ToWellFormed() != x || x.SliceJS(0, math.MaxInt) != x || x.Substring(0, 99) != x {
			t.Errorf("%q: a no-op returned a copy", text)
		}
	}
	if x := NewString("ABC"); x.ToUpperCase() != x {
		t.Error(`"ABC".toUpperCase() copied`)
	}
}

// loneCount counts the lone surrogates of s.
func loneCount(s *String) int {
	n := 0
	for w, i := s.Units(), 0; i < len(w); {
		r, size := runeAt(w, i)
		if utf16.IsSurrogate(r) {
			n++
		}
		i += size
	}
	return n
}

// FuzzCase checks that case mapping never panics, matches strings.ToUpper
// and strings.ToLower on ASCII, keeps lone surrogates, gives the same on a
// rope, and that upper-casing is idempotent. The input's bytes are read
// both as WTF-8 text and as raw UTF-16 code units.
func FuzzCase(f *testing.F) {
	for _, seed := range []string{"", "abc", "Hello, World!", "straße", "ΟΔΥΣΣΕΥΣ", "AΣ.b", "İı", "ᾳᾼ", "ﬃ",
		"a😀b", "\xed\xa0\x80Σ", "ʰΣ", "\x00\xd8\x3d\xd8\x00\xde"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		units := make([]uint16, len(text)/2)
		for i := range units {
			units[i] = uint16(text[2*i]) | uint16(text[2*i+1])<<8
		}
		for _, s := range []*String{NewString(text), FromUTF16(units)} {
			upper, lower := s.ToUpperCase(), s.ToLowerCase()
			if s.IsASCII() {
				if upper.Key() != strings.ToUpper(s.Key()) || lower.Key() != strings.ToLower(s.Key()) {
					t.Fatalf("%q: ASCII case %q %q", s.Key(), upper.Key(), lower.Key())
				}
			}
			if n := loneCount(s); loneCount(upper) != n || loneCount(lower) != n {
				t.Fatalf("%q: lone surrogates changed", s.Key())
			}
			if !Equal(forceRope(s).ToUpperCase(), upper) || !Equal(forceRope(s).ToLowerCase(), lower) {
				t.Fatalf("%q: a rope maps differently", s.Key())
			}
			if !Equal(upper.ToUpperCase(), upper) {
				t.Fatalf("%q: upper-casing %q again gives %q", s.Key(), upper.Key(), upper.ToUpperCase().Key())
			}
		}
	})
}

var benchTexts = []struct{ name, text string }{
	{"ascii", "  The quick brown fox jumps over the lazy dog, again and again.  "},
	{"nonascii", "\u3000 Straße, Ελληνικά ΟΔΥΣΣΕΥΣ, Türkçe İı, emoji 😀😀 and more text. \u00a0"},
}

// BenchmarkTrim measures Trim on ASCII and non-ASCII text.
func BenchmarkTrim(b *testing.B) {
	for _, bt := range benchTexts {
		s := NewString(bt.text)
		b.Run(bt.name, func(b *testing.B) {
			for b.Loop() {
				s.Trim()
			}
		})
	}
}

// BenchmarkToUpperCase measures ToUpperCase on ASCII and non-ASCII text.
func BenchmarkToUpperCase(b *testing.B) {
	for _, bt := range benchTexts {
		s := NewString(bt.text)
		b.Run(bt.name, func(b *testing.B) {
			for b.Loop() {
				s.ToUpperCase()
			}
		})
	}
}

// BenchmarkToLowerCase measures ToLowerCase (with final sigmas) on ASCII and non-ASCII text.
func BenchmarkToLowerCase(b *testing.B) {
	for _, bt := range benchTexts {
		s := NewString(bt.text)
		b.Run(bt.name, func(b *testing.B) {
			for b.Loop() {
				s.ToLowerCase()
			}
		})
	}
}

// BenchmarkSplit measures Split by " " and into code units.
func BenchmarkSplit(b *testing.B) {
	for _, bt := range benchTexts {
		s, sep := NewString(bt.text), NewString(" ")
		b.Run(bt.name, func(b *testing.B) {
			for b.Loop() {
				s.Split(sep, -1)
			}
		})
		b.Run(bt.name+"/units", func(b *testing.B) {
			for b.Loop() {
				s.Split(Empty, -1)
			}
		})
	}
}
