package text

import (
	"strings"
	"testing"

	"github.com/go-codemode/codemode/value"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// TestLongLocaleCompare: strings longer than collateChunk, compared a
// piece at a time, order as the collator orders them whole wherever the
// first difference lies within a piece of the common prefix.
func TestLongLocaleCompare(t *testing.T) {
	long := strings.Repeat("x", 3*collateChunk)
	marks := strings.Repeat("e\u0301", collateChunk)
	cases := []struct{ name, a, b string }{
		{"difference at the end", long + "a", long + "b"},
		{"case only", strings.Repeat("a", 2*collateChunk), strings.Repeat("A", 2*collateChunk)},
		{"prefix", long, long + "a"},
		{"accent after a long prefix", long + "e", long + "é"},
		{"combining marks", marks + "a", marks + "b"},
		{"canonically equivalent", long + "é", long + "e\u0301"},
		{"primary first", long + "b" + strings.Repeat("y", 10), long + "a" + strings.Repeat("y", 10)},
	}
	l := value.NewLibrary()
	Install(l)
	r := value.NewRealm(l, &deadlineAgent{})
	whole := collate.New(language.Und)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := localeCompare(r, value.NewString(c.a), value.NewString(c.b))
			if want := whole.CompareString(c.a, c.b); got != want {
				t.Errorf("got %d, want %d", got, want)
			}
		})
	}
}

// TestLongNormalize: normalizing in pieces cut at boundaries gives what
// normalizing the whole text gives.
func TestLongNormalize(t *testing.T) {
	text := strings.Repeat("ae\u0301\u0323o\u0308\uAC00\u1100\u1161x", 3*normChunk/10)
	l := value.NewLibrary()
	Install(l)
	r := value.NewRealm(l, &deadlineAgent{})
	for _, form := range []string{"NFC", "NFD", "NFKC", "NFKD"} {
		f := map[string]norm.Form{"NFC": norm.NFC, "NFD": norm.NFD, "NFKC": norm.NFKC, "NFKD": norm.NFKD}[form]
		got := normalize(r, value.NewString(text), form).String()
		if want := f.String(text); got != want {
			t.Errorf("%s: differs from normalizing the whole text (%d vs %d bytes)", form, len(got), len(want))
		}
	}
}
