package ast

import "testing"

func TestQuoteJS(t *testing.T) {
	tests := map[string]string{
		"":                            `""`,
		"a-b":                         `"a-b"`,
		`say "hi"\`:                   `"say \"hi\"\\"`,
		"line\nnext\x00":              `"line\u000Anext\u0000"`,
		"😀":                           `"😀"`,
		utf16ToWTF8([]uint16{0xD800}): `"\uD800"`,
	}
	for in, want := range tests {
		if got := quoteJS(in); got != want {
			t.Errorf("quoteJS(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestPrintImportNames checks that import names which are not identifiers
// print as string literals that parse back to the same names.
func TestPrintImportNames(t *testing.T) {
	for _, src := range []string{
		`import {"" as a} from "m";`,
		`import {"x-y" as b, "\uD800" as c} from "m";`,
		`import d, * as e from "m";`,
	} {
		prog, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		again, err := Parse(Print(prog))
		if err != nil {
			t.Fatalf("%s printed as %s: %v", src, Print(prog), err)
		}
		if Dump(again.Func, nil) != Dump(prog.Func, nil) {
			t.Errorf("%s printed as %s, which parses differently", src, Print(prog))
		}
	}
}
