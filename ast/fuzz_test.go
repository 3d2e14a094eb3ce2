package ast

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary text to the front end. It must never panic
// (a recovered panic shows up as an "internal error"), and whatever it
// accepts must print back to source that parses to the same tree.
func FuzzParse(f *testing.F) {
	for _, tt := range earlyErrors {
		f.Add(tt.src)
	}
	for _, src := range validPrograms {
		f.Add(src)
	}
	for _, tt := range tsErased {
		f.Add(tt.ts)
	}
	for _, tt := range tsRuntimeErrors {
		f.Add(tt.src)
	}
	for _, pattern := range []string{"testdata/corpus/*.js", "testdata/golden/*.js", "../testdata/typescript/*.ts"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		prog, err := Parse(text)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("parser bug on %q: %v", text, err)
			}
			return
		}
		if len(prog.Body()) == 0 {
			return // only comments: nothing to print back
		}
		printed := Print(prog)
		again, err := Parse(printed)
		if err != nil {
			t.Fatalf("printed source does not parse: %v\ninput: %q\nprinted: %q", err, text, printed)
		}
		if Dump(again.Func, nil) != Dump(prog.Func, nil) {
			t.Fatalf("printed source parses to a different tree\ninput: %q\nprinted: %q", text, printed)
		}
		// What erasure leaves is JavaScript: it parses without erasure,
		// to the same tree.
		js, err := ParseWith(printed, Options{NoTypeScript: true})
		if err != nil {
			t.Fatalf("printed source is not plain JavaScript: %v\ninput: %q\nprinted: %q", err, text, printed)
		}
		if Dump(js.Func, nil) != Dump(prog.Func, nil) {
			t.Fatalf("printed source parses to a different tree without erasure\ninput: %q\nprinted: %q", text, printed)
		}
	})
}

// TestDeepNesting shows that no nesting, however deep, can exhaust the Go
// stack: past MaxDepth it is a parse error.
func TestDeepNesting(t *testing.T) {
	const n = 100000
	inputs := map[string]string{
		"parens":      strings.Repeat("(", n) + "1" + strings.Repeat(")", n),
		"arrays":      strings.Repeat("[", n) + strings.Repeat("]", n),
		"objects":     "x = " + strings.Repeat("{a:", n) + "1" + strings.Repeat("}", n),
		"blocks":      strings.Repeat("{", n) + strings.Repeat("}", n),
		"binary":      strings.Repeat("a+", n) + "a",
		"exponent":    strings.Repeat("a**", n) + "a",
		"unary":       strings.Repeat("-", n) + "a",
		"not":         strings.Repeat("!", n) + "a",
		"assign":      strings.Repeat("a=", n) + "1",
		"ternary":     strings.Repeat("a?b:", n) + "c",
		"arrows":      strings.Repeat("()=>", n) + "1",
		"members":     "a" + strings.Repeat(".b", n),
		"calls":       "f" + strings.Repeat("()", n),
		"ifs":         strings.Repeat("if(a)", n) + ";",
		"else ifs":    "if(a);" + strings.Repeat("else if(a);", n),
		"functions":   strings.Repeat("function f(){", n) + strings.Repeat("}", n),
		"templates":   strings.Repeat("`${", n) + strings.Repeat("}`", n),
		"new":         strings.Repeat("new ", n) + "X",
		"awaits":      strings.Repeat("await ", n) + "x",
		"patterns":    "const " + strings.Repeat("[", n) + "a" + strings.Repeat("]", n) + " = x",
		"labels":      strings.Repeat("a: ", n) + ";",
		"classes":     strings.Repeat("class A{m(){", n) + strings.Repeat("}}", n),
		"sequence":    strings.Repeat("a,", n) + "a",
		"statements":  strings.Repeat("a;", n),
		"array items": "[" + strings.Repeat("1,", n) + "]",
		// TypeScript, where the parser speculates.
		"type args":      "let x: " + strings.Repeat("A<", n) + "B" + strings.Repeat(">", n),
		"call type args": "f" + strings.Repeat("<A", n) + strings.Repeat(">", n) + "()",
		"generic arrows": strings.Repeat("<T>(x)=>", n) + "1",
		"angle asserts":  strings.Repeat("<T>", n) + "x",
		"angle parens":   strings.Repeat("<T>(", n) + "x" + strings.Repeat(")", n),
		"paren types":    "let x: " + strings.Repeat("(", n) + "A" + strings.Repeat(")", n),
		"fn types":       "let x: " + strings.Repeat("(a:", n) + "A" + strings.Repeat(")=>B", n),
		"object types":   "let x: " + strings.Repeat("{a:", n) + "1" + strings.Repeat("}", n),
		"cond parens":    strings.Repeat("c?(x):", n) + "1",
		"lt parens":      strings.Repeat("a<(", n) + "1" + strings.Repeat(")", n),
		"lt templates":   strings.Repeat("a<`${", n) + strings.Repeat("}`", n),
		"as chain":       "x" + strings.Repeat(" as T", n),
		"non-null":       "x" + strings.Repeat("!", n),
		// Flat in JavaScript, nested as types: each '<' must not
		// re-read the rest as types.
		"comparisons":  strings.Repeat("a<b,", n) + "c",
		"paren groups": "let x: " + strings.Repeat("([", 300) + strings.Repeat("a,", n/2) + "a" + strings.Repeat("])", 300),
	}
	for name, text := range inputs {
		prog, err := Parse(text)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Errorf("%s: %v", name, err)
			}
			if !strings.Contains(err.Error(), "nested too deeply") && !strings.Contains(err.Error(), "Unexpected") &&
				!strings.Contains(err.Error(), "label") && !strings.Contains(err.Error(), "already been declared") {
				t.Errorf("%s: unexpected error %v", name, err)
			}
			continue
		}
		// Flat inputs parse; walking them must be safe too.
		_ = Print(prog)
	}
}

// TestNestingWithinLimit shows that the depth limit leaves room for any
// real program: 900 levels of each kind of nesting parse.
func TestNestingWithinLimit(t *testing.T) {
	const n = 900
	inputs := map[string]string{
		"parens":    strings.Repeat("(", n) + "1" + strings.Repeat(")", n),
		"arrays":    strings.Repeat("[", n) + strings.Repeat("]", n),
		"objects":   "x = " + strings.Repeat("{a:", n) + "1" + strings.Repeat("}", n),
		"blocks":    strings.Repeat("{", n) + strings.Repeat("}", n),
		"functions": strings.Repeat("function f(){", n) + strings.Repeat("}", n),
		"arrows":    strings.Repeat("()=>", n) + "1",
		"binary":    strings.Repeat("a+", n) + "a",
		"members":   "a" + strings.Repeat(".b", n),
		"else ifs":  "if(a);" + strings.Repeat("else if(a);", n),
	}
	for name, text := range inputs {
		if _, err := Parse(text); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// FuzzJavaScriptUnchanged checks that TypeScript erasure never changes
// JavaScript: what parses with NoTypeScript parses with erasure too, to
// the same tree, unless the text has a '<' that TypeScript reads as type
// arguments (directly after a name and before an uppercase or primitive
// type name: a<B>`x`, new Set<string>\nx).
func FuzzJavaScriptUnchanged(f *testing.F) {
	for _, src := range validPrograms {
		f.Add(src)
	}
	for _, tt := range earlyErrors {
		f.Add(tt.src)
	}
	files, _ := filepath.Glob("testdata/corpus/*.js")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		js, err := ParseWith(text, Options{NoTypeScript: true})
		if err != nil {
			return
		}
		ts, err := Parse(text)
		if err != nil {
			t.Fatalf("JavaScript that parses without erasure fails with it: %v\ninput: %q", err, text)
		}
		if Dump(js.Func, nil) != Dump(ts.Func, nil) && !typeArgsLike(text) {
			t.Fatalf("erasure changes the tree of JavaScript\ninput: %q\nJS: %s\nTS: %s", text, Print(js), Print(ts))
		}
	})
}

// typeArgsLike reports a '<' right after a name and before an uppercase
// letter or a primitive type name, which TypeScript may read as type
// arguments.
func typeArgsLike(text string) bool {
	for i := 1; i+1 < len(text); i++ {
		if text[i] != '<' || !isIdentByte(text[i-1]) && text[i-1] != ')' && text[i-1] != ']' {
			continue
		}
		rest := strings.TrimLeft(text[i+1:], " \t\n\r")
		if rest != "" && (rest[0] >= 'A' && rest[0] <= 'Z' || rest[0] == '<' || rest[0] == '(' || rest[0] == '{' || rest[0] == '[' || rest[0] == '\'' || rest[0] == '"' || rest[0] == '`' || rest[0] == '-') {
			return true
		}
		for name := range tsTypeNames {
			if strings.HasPrefix(rest, name) {
				return true
			}
		}
	}
	return false
}
