package scripttest

import (
	"testing"

	"github.com/go-codemode/codemode/ast"
)

// TestSuiteIsWellFormed loads the whole suite: every case is paired, named
// once, has a JSON expectation, and its program parses. The engines' runs
// of the suite come with them.
func TestSuiteIsWellFormed(t *testing.T) {
	cases, err := Load("../../testdata/scripts")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 600 {
		t.Fatalf("the suite has %d cases, want at least 600", len(cases))
	}
	for _, c := range cases {
		if _, err := ast.Parse(c.Program); err != nil {
			t.Errorf("%s (line %d): %v", c.ID(), c.Line, err)
		}
	}
}

func TestParseRejectsMalformed(t *testing.T) {
	tests := map[string]string{
		"unpaired":   "-- a.js --\n1\n",
		"wrong pair": "-- a.js --\n1\n-- b.json --\n{\"ok\":true}\n",
		"not a js":   "-- a.txt --\nx\n",
		"twice":      "-- a.js --\n1\n-- a.json --\n{\"ok\":true}\n-- a.js --\n2\n-- a.json --\n{\"ok\":true}\n",
		"bad json":   "-- a.js --\n1\n-- a.json --\n{ok:true}\n",
		"no ok":      "-- a.js --\n1\n-- a.json --\n{\"value\":1}\n",
	}
	for name, text := range tests {
		if _, err := Parse("t.txtar", []byte(text)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
	cases, err := Parse("t.txtar", []byte("comment\n-- one.js --\nreturn 1\n-- one.json --\n{\"ok\":true,\"value\":1,\"toolCalls\":[]}\n"))
	if err != nil || len(cases) != 1 || cases[0].Program != "return 1\n" || cases[0].ID() != "t/one" || cases[0].Line != 2 {
		t.Fatalf("%v %+v", err, cases)
	}
}
