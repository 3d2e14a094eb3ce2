package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fakeSuite writes a small selection: files maps a path under the
// folder to its contents.
func fakeSuite(t *testing.T, files map[string]string) *Suite {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var fakeFiles = map[string]string{
	"manifest.jsonl": `{"area": "a/x", "async": false, "category": "positive", "includes": ["inc.js"], "path": "a/x/one.js"}

{"area": "a/y", "async": true, "category": "negative-runtime", "includes": [], "path": "a/y/two.js", "negative": {"phase": "runtime", "type": "TypeError"}}
`,
	"prelude.js":      "// prelude\n\n\n",
	"includes/inc.js": "function inc() {}\n\n",
	"test/a/x/one.js": "inc();",
	"test/a/y/two.js": "null.x;\n",
}

func TestLoadAndProgram(t *testing.T) {
	s := fakeSuite(t, fakeFiles)
	if len(s.Tests) != 2 || s.Tests[1].expectedType() != "TypeError" || !s.Tests[1].Async {
		t.Fatalf("tests = %+v", s.Tests)
	}
	// As run.py assembles them: trailing newlines of the prelude and
	// includes cut to one, a newline added after a test without one.
	cases := []struct{ test, want string }{
		{"a/x/one.js", "// prelude\n// ---- include inc.js\nfunction inc() {}\n// ---- test262: a/x/one.js\ninc();\n// ---- end of test\n;\nreturn \"PASS\";\n"},
		{"a/y/two.js", "// prelude\n// ---- test262: a/y/two.js\nnull.x;\n// ---- end of test\n;\nawait __t262_asyncDone();\nreturn \"PASS\";\n"},
	}
	for i, c := range cases {
		got, err := s.Program(s.Tests[i])
		if err != nil || got != c.want {
			t.Errorf("%s: got %q, %v\nwant %q", c.test, got, err, c.want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "manifest.jsonl") {
		t.Errorf("empty folder: %v", err)
	}
	files := map[string]string{"manifest.jsonl": "{\"path\": \"p.js\"}\n", "prelude.js": ""}
	dir := t.TempDir()
	for n, text := range files {
		os.WriteFile(filepath.Join(dir, n), []byte(text), 0o644)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("test without an area: %v", err)
	}
}

func TestJudge(t *testing.T) {
	pos := Test{Category: "positive"}
	parse := Test{Category: "negative-parse", Negative: &Negative{"parse", "SyntaxError"}}
	run := Test{Category: "negative-runtime", Negative: &Negative{"runtime", "ReferenceError"}}
	cases := []struct {
		name   string
		test   Test
		result string
		pass   bool
		detail string
	}{
		{"pass", pos, `{"ok":true,"value":"PASS","toolCalls":[]}`, true, ""},
		{"other value", pos, `{"ok":true,"value":{"a":[1, 2]}}`, false, `ok but value={"a":[1,2]}`},
		{"undefined", pos, `{"ok":true}`, false, "ok but value=null"},
		{"error", pos, `{"ok":false,"error":{"kind":"ExecutionFailure","message":"Test262Error: x"}}`, false, "ExecutionFailure: Test262Error: x"},
		{"long error", pos, `{"ok":false,"error":{"kind":"K","message":"` + strings.Repeat("é", 400) + `"}}`, false, "K: " + strings.Repeat("é", 297)},
		{"not JSON", pos, `x`, false, "no Result: invalid character 'x' looking for beginning of value"},
		{"parse error", parse, `{"ok":false,"error":{"kind":"ParseError","message":"m"}}`, true, "ParseError"},
		{"unsupported", parse, `{"ok":false,"error":{"kind":"UnsupportedSyntax","message":"m"}}`, true, "UnsupportedSyntax"},
		{"late SyntaxError", parse, `{"ok":false,"error":{"kind":"ExecutionFailure","message":"SyntaxError: bad"}}`, true, "late SyntaxError"},
		{"body ran", parse, `{"ok":false,"error":{"kind":"ExecutionFailure","message":"Uncaught: Test262: This statement should not be evaluated. SyntaxError"}}`,
			false, "expected SyntaxError at parse time, got ExecutionFailure: Uncaught: Test262: This statement should not be evaluated. SyntaxError"},
		{"parse ran", parse, `{"ok":true,"value":"PASS"}`, false, "expected SyntaxError at parse time, the program ran"},
		{"runtime", run, `{"ok":false,"error":{"kind":"ExecutionFailure","message":"ReferenceError: x is not defined"}}`, true, "ExecutionFailure"},
		{"runtime in suggestions", run, `{"ok":false,"error":{"kind":"ExecutionFailure","message":"m","suggestions":["ReferenceError"]}}`, true, "ExecutionFailure"},
		{"runtime at parse", run, `{"ok":false,"error":{"kind":"ParseError","message":"ReferenceError"}}`, false, "expected ReferenceError at run time, got ParseError: ReferenceError"},
		{"runtime other", run, `{"ok":false,"error":{"kind":"ExecutionFailure","message":"TypeError: t"}}`, false, "expected ReferenceError at run time, got ExecutionFailure: TypeError: t"},
		{"runtime completed", run, `{"ok":true,"value":"PASS"}`, false, "expected ReferenceError at run time, the program completed"},
	}
	for _, c := range cases {
		pass, detail := Judge(c.test, []byte(c.result))
		if pass != c.pass || detail != c.detail {
			t.Errorf("%s: got %v %q, want %v %q", c.name, pass, detail, c.pass, c.detail)
		}
	}
}

func TestRunAndTable(t *testing.T) {
	s := fakeSuite(t, fakeFiles)
	outs := Run(s, s.Tests, 2, func(program string) []byte {
		if strings.Contains(program, "inc();") {
			return []byte(`{"ok":true,"value":"PASS"}`)
		}
		return []byte(`{"ok":false,"error":{"kind":"ExecutionFailure","message":"RangeError: r"}}`)
	})
	if !outs[0].Pass || outs[1].Pass || outs[1].Test.Path != "a/y/two.js" {
		t.Fatalf("outcomes = %+v", outs)
	}
	var b bytes.Buffer
	WriteTable(&b, outs)
	want := "a/x                                                     1      0  100.0%\n" +
		"a/y                                                     0      1    0.0%\n" +
		"1 passed, 1 failed\n"
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

const sampleFile = `# header
#   regenerate: ...

## first reason,
## on two lines
a.js  # old note
b.js
## second reason
c.js
`

func TestParseExpectations(t *testing.T) {
	e, err := ParseExpectations(strings.NewReader(sampleFile), "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.js": "first reason, on two lines", "b.js": "first reason, on two lines", "c.js": "second reason"}
	if got := e.Reasons(); !reflect.DeepEqual(got, want) {
		t.Errorf("reasons = %v", got)
	}
	if e.Groups[0].Entries[0].Note != "old note" || len(e.Header) != 3 {
		t.Errorf("parsed %+v", e)
	}
	var b bytes.Buffer
	e.WriteTo(&b)
	if want := strings.Replace(sampleFile, "## second", "\n## second", 1); b.String() != want {
		t.Errorf("written back:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestParseExpectationsErrors(t *testing.T) {
	cases := map[string]string{
		"a.js\n":                            "f.txt:1: a.js has no reason",
		"## r\na.js\n# c\n":                 "f.txt:3: a comment inside the groups",
		"## r\na.js b.js\n":                 "f.txt:2: \"a.js b.js\" is not one test path",
		"## r\na.js\n## s\nb.js\na.js #x\n": "f.txt:5: a.js is listed twice (first on line 2)",
	}
	for text, want := range cases {
		if _, err := ParseExpectations(strings.NewReader(text), "f.txt"); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, want %s...", text, err, want)
		}
	}
}

func outcome(path string, pass bool, detail string) Outcome {
	return Outcome{Test: Test{Path: path, Area: "area/" + path[:1]}, Pass: pass, Detail: detail}
}

func TestCheck(t *testing.T) {
	e, _ := ParseExpectations(strings.NewReader(sampleFile), "f.txt")
	outs := []Outcome{outcome("a.js", false, "e"), outcome("b.js", true, ""), outcome("d.js", false, "new"), outcome("e.js", true, "")}
	unexpected, nowPassing := e.Check(outs)
	if len(unexpected) != 1 || unexpected[0].Test.Path != "d.js" || !reflect.DeepEqual(nowPassing, []string{"b.js"}) {
		t.Errorf("unexpected %v, now passing %v", unexpected, nowPassing)
	}
	if got := e.NotIn([]Test{{Path: "a.js"}, {Path: "b.js"}}); !reflect.DeepEqual(got, []string{"c.js"}) {
		t.Errorf("NotIn = %v", got)
	}
}

func TestUpdate(t *testing.T) {
	e, _ := ParseExpectations(strings.NewReader(sampleFile), "f.txt")
	outs := []Outcome{
		outcome("z.js", false, "Z: later\nsecond line"),
		outcome("a.js", false, "A: now"),
		outcome("b.js", true, ""),
		outcome("c.js", true, ""),
		outcome("y.js", false, "Y"),
		outcome("x.js", false, "X"),
	}
	classify := func(o Outcome) string {
		if o.Test.Path == "x.js" {
			return "second reason" // joins an old group... that is empty now
		}
		return reasonUntriaged + o.Test.Area
	}
	var b bytes.Buffer
	e.Update(outs, classify).WriteTo(&b)
	want := `# header
#   regenerate: ...

## first reason,
## on two lines
a.js  # A: now

## second reason
x.js  # X

## not yet triaged: area/y
y.js  # Y

## not yet triaged: area/z
z.js  # Z: later
`
	if b.String() != want {
		t.Errorf("updated:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestClassify(t *testing.T) {
	s := fakeSuite(t, map[string]string{
		"manifest.jsonl": `{"area": "built-ins/String", "category": "positive", "includes": [], "path": "boxed.js"}
{"area": "built-ins/Object", "category": "positive", "includes": [], "path": "object.js"}
{"area": "built-ins/Symbol", "category": "positive", "includes": [], "path": "symbol.js"}
{"area": "built-ins/Set", "category": "positive", "includes": [], "path": "bigint.js"}
{"area": "language/literals/regexp", "category": "negative-parse", "includes": [], "path": "re.js"}
{"area": "built-ins/Array", "category": "positive", "includes": [], "path": "bug.js"}
`,
		"prelude.js":     "",
		"test/boxed.js":  "var s = new String('a');",
		"test/object.js": "var o = Object(1); var p = isObject(2);",
		"test/symbol.js": "var s = Symbol('d');",
		"test/bigint.js": "/* 1n, Object(1) in a comment */ f(10n);",
		"test/re.js":     "$DONOTEVALUATE(); /(?<a>)(?<a>)/;",
		"test/bug.js":    "// new String(1) and Symbol() in a comment\nisObject(1); mySymbol(2); x.Object(3);",
	})
	classify := Classify(s)
	want := map[string]string{
		"boxed.js":  "not yet triaged: built-ins/String",
		"object.js": "not yet triaged: built-ins/Object",
		"symbol.js": "not yet triaged: built-ins/Symbol",
		"bigint.js": ReasonBigInt,
		"re.js":     "not yet triaged: language/literals/regexp",
		"bug.js":    "not yet triaged: built-ins/Array",
	}
	for _, tc := range s.Tests {
		if got := classify(Outcome{Test: tc, Detail: "ExecutionFailure: Test262Error"}); got != want[tc.Path] {
			t.Errorf("%s: %q, want %q", tc.Path, got, want[tc.Path])
		}
	}
	byError := map[string]string{
		"InvalidDataValue: TypeError: Binary operators require data values. (line 1, col 2)":                  ReasonBinaryOperands,
		"UnsupportedSyntax: SyntaxError: BigInt literals are not supported.":                                  ReasonBigInt,
		"ExecutionFailure: ReferenceError: Proxy is not defined (line 548, col 15)":                           ReasonLeftOut,
		"UnsupportedSyntax: TypeError: The Function constructor is not supported; write the function inline.": ReasonLeftOut,
		"ExecutionFailure: RangeError: Invalid array length (line 540, col 5)":                                ReasonArrayCap,
	}
	bug := s.Tests[5]
	for detail, reason := range byError {
		if got := classify(Outcome{Test: bug, Detail: detail}); got != reason {
			t.Errorf("%s: %q, want %q", detail, got, reason)
		}
	}
}

func TestWatchdog(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	exec := Watchdog(func(program string) []byte {
		if program == "hang" {
			<-release
		}
		return []byte(`{"ok":true,"value":"PASS"}`)
	}, 50*time.Millisecond)
	if got := string(exec("fine")); got != `{"ok":true,"value":"PASS"}` {
		t.Errorf("fine: %s", got)
	}
	pass, detail := Judge(Test{Category: "positive"}, exec("hang"))
	if pass || detail != "Hung: the run did not return within 50ms: the engine ignored its timeout" {
		t.Errorf("hang: %v %q", pass, detail)
	}
}
