package scripttest

import (
	"encoding/json"
	"testing"

	"github.com/go-codemode/codemode/ast"
)

// TestSuiteIsWellFormed loads the whole suite: every case is paired, named
// once, has a JSON expectation, and its program parses unless the case
// expects the ParseError (and then it does not parse). The engines' runs
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
		var want struct {
			Error *struct{ Kind string } `json:"error"`
		}
		if err := json.Unmarshal(c.Expected, &want); err != nil {
			t.Fatalf("%s: %v", c.ID(), err)
		}
		wantParseError := want.Error != nil && want.Error.Kind == "ParseError"
		if _, err := ast.Parse(c.Program); (err != nil) != wantParseError {
			t.Errorf("%s (line %d): parse error %v, but the case expects a ParseError: %v", c.ID(), c.Line, err, wantParseError)
		}
	}
}

func TestParseRejectsMalformed(t *testing.T) {
	tests := map[string]string{
		"unpaired":           "-- a.js --\n1\n",
		"wrong pair":         "-- a.js --\n1\n-- b.json --\n{\"ok\":true}\n",
		"not a js":           "-- a.txt --\nx\n",
		"twice":              "-- a.js --\n1\n-- a.json --\n{\"ok\":true}\n-- a.js --\n2\n-- a.json --\n{\"ok\":true}\n",
		"bad json":           "-- a.js --\n1\n-- a.json --\n{ok:true}\n",
		"no ok":              "-- a.js --\n1\n-- a.json --\n{\"value\":1}\n",
		"bad tools":          "-- a.js --\n1\n-- a.tools.json --\n{\"t\":{\"nope\":1}}\n-- a.json --\n{\"ok\":true}\n",
		"bad limits":         "-- a.js --\n1\n-- a.limits.json --\n{\"timeout\":1}\n-- a.json --\n{\"ok\":true}\n",
		"tools after result": "-- a.js --\n1\n-- a.json --\n{\"ok\":true}\n-- a.tools.json --\n{}\n",
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
	cases, err = Parse("t.txtar", []byte("-- c.js --\nawait tools.x()\n-- c.tools.json --\n{\"x\":{\"error\":\"no\",\"delayMs\":5}}\n-- c.limits.json --\n{\"timeoutMs\":100,\"maxToolCalls\":0}\n-- c.json --\n{\"ok\":false}\n"))
	if err != nil || len(cases) != 1 || cases[0].Tools["x"].Error != "no" || cases[0].Tools["x"].DelayMs != 5 ||
		cases[0].Limits.TimeoutMs != 100 || cases[0].Limits.MaxToolCalls == nil || *cases[0].Limits.MaxToolCalls != 0 {
		t.Fatalf("%v %+v", err, cases)
	}
}
