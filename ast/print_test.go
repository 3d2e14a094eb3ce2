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

// TestNumberLiterals shows literal values, rounded as JavaScript rounds
// them (large hex literals included).
func TestNumberLiterals(t *testing.T) {
	tests := map[string]float64{
		"0x1FFFFFFFFFFFFF1": 144115188075855860,
		"0x20000000000001F": 144115188075855900,
		"1_000.5e-3":        1.0005,
		"0b1_01":            5,
		"0O17":              15,
		".5":                0.5,
		"5.":                5,
	}
	for raw, want := range tests {
		if got, ok := parseNumberText(raw); !ok || got != want {
			t.Errorf("%s = %v, %v; want %v", raw, got, ok, want)
		}
	}
	if _, ok := parseNumberText("0x"); ok {
		t.Error("0x alone is not a number")
	}
}
