package ast

import (
	"fmt"
	"testing"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// parseOutcome is everything a parse shows: the tree with every node's
// position and every identifier's storage, and its globals, or the error
// with its position.
func parseOutcome(src string) string {
	prog, err := Parse(src)
	if err != nil {
		e := err.(*Error)
		return fmt.Sprintf("error at %d (%v): %s", e.Pos, e.Location, e.Msg)
	}
	return fmt.Sprintf("%s\nglobals %v", Dump(prog.Func, prog.Source), prog.Globals)
}

// outcomeWithoutSkip parses src with the lexer reading every blank itself.
func outcomeWithoutSkip(src string) string {
	saved := blanksOK
	blanksOK = false
	defer func() { blanksOK = saved }()
	return parseOutcome(src)
}

// blankCases are where blanks matter to the lexer or the parser: ASI,
// --> after a line break, an identifier after a number, regular
// expressions, templates, CRLF, and blanks the fast path leaves to the
// lexer (vertical tab, no-break space, U+2028).
var blankCases = []string{
	"let x = 1\n  ++x\nx",
	"let a = 1\n  --> a comment\na",
	"let a = 1; a  --> 0",
	"3 in {}",
	"3in {}",
	"1 .toString()",
	"let x = 1\r\n  /re/g.test('re')\r\nx",
	"let x = 4, g = 2\n x / 2 / g",
	"`a ${ 1 +  2 }  b ${\n\t3 } c`",
	"return\n  1",
	"let a = 1 \v\f ; a\u00a0+\u2028a",
	"  /* c */  \t// d\n  1  ",
	"let y = 1;\n\n\t\t  y\t\t\n",
	"x\n=>1",
	"async\n function f() {}",
	"let o = { a: 1 }\n  [0]",
	"1\t\t\t\t",
	"let caf\u00e9 = 1, \\u0061b = 2; caf\u00e9 + ab",
	"let a\\u0062 = 1; ab",
	"const $_a1 = typeof void 0 instanceof Object in {}; $_a1",
	"for (const of of [1]) of",
	"async function f() { await f; for await (const x of []) {} }",
	"class A { static #p = 1; get g() { return this.#p } }",
	"3instanceof x",
	"0x1f.toString()",
	"let \u0061wait = 1",
	"l\\u0065t x = 1",
	"yield",
	"let x = 1; x\n++\nx",
}

// TestWordBytes checks that the bytes scanWord takes as continuing a word
// are the ones the lexer does.
func TestWordBytes(t *testing.T) {
	for c := 1; c < 0x80; c++ {
		src := "a" + string(rune(c)) + " "
		lx := js.NewLexer(parse.NewInputString(src))
		_, lit := lx.Next()
		if got, want := isIdentByte(byte(c)), len(lit) == 2; got != want {
			t.Errorf("byte %q: isIdentByte %v, lexer continues the word: %v", rune(c), got, want)
		}
	}
}

func TestSkipBlanksUnchanged(t *testing.T) {
	if !blanksOK {
		t.Skip("the lexer's layout differs: blanks are not skipped")
	}
	for _, src := range append(blankCases, validPrograms...) {
		if got, want := parseOutcome(src), outcomeWithoutSkip(src); got != want {
			t.Errorf("%q:\nskipping blanks: %s\nlexer only:      %s", src, got, want)
		}
	}
}

// FuzzSkipBlanks checks that skipping blanks in the parser changes no
// parse.
func FuzzSkipBlanks(f *testing.F) {
	for _, src := range blankCases {
		f.Add(src)
	}
	for _, src := range validPrograms {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if got, want := parseOutcome(src), outcomeWithoutSkip(src); got != want {
			t.Fatalf("%q:\nskipping blanks: %s\nlexer only:      %s", src, got, want)
		}
	})
}
