package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// result is the part of a Result's JSON the judge reads; Error is kept
// as its JSON text because the negative rules search it, as run.py
// searches its json.dumps.
type result struct {
	OK    *bool           `json:"ok"`
	Value json.RawMessage `json:"value"`
	Error json.RawMessage `json:"error"`
}

type diagnostic struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Judge decides whether a test passed from the Result (its JSON) the
// engine gave for the test's program, with run.py's rules; detail says
// why it failed (or, for a negative test that passed, how).
func Judge(t Test, resultJSON []byte) (pass bool, detail string) {
	var out result
	if err := json.Unmarshal(resultJSON, &out); err != nil {
		return false, "no Result: " + err.Error()
	}
	ok := out.OK != nil && *out.OK
	var d diagnostic
	blob := []byte("{}")
	if len(out.Error) > 0 && out.Error[0] == '{' {
		blob = out.Error
		_ = json.Unmarshal(blob, &d) // a kind or message of another type reads as "", as in run.py
	}
	failure := d.Kind + ": " + d.Message
	expected := t.expectedType()
	parseKind := d.Kind == "ParseError" || d.Kind == "UnsupportedSyntax"
	switch t.Category {
	case "positive":
		switch {
		case ok && string(bytes.TrimSpace(out.Value)) == `"PASS"`:
			return true, ""
		case ok:
			return false, "ok but value=" + truncate(compact(out.Value), 200)
		}
		return false, truncate(failure, 300)
	case "negative-parse":
		switch {
		case ok:
			return false, fmt.Sprintf("expected %s at parse time, the program ran", expected)
		case parseKind:
			return true, d.Kind
		// A SyntaxError thrown before the test body starts also counts;
		// every such test calls $DONOTEVALUATE() first, which throws a
		// string.
		case bytes.Contains(blob, []byte("SyntaxError")) && !bytes.Contains(blob, []byte("should not be evaluated")):
			return true, "late SyntaxError"
		}
		return false, truncate(fmt.Sprintf("expected %s at parse time, got %s", expected, failure), 300)
	case "negative-runtime":
		switch {
		case ok:
			return false, fmt.Sprintf("expected %s at run time, the program completed", expected)
		case !parseKind && expected != "" && bytes.Contains(blob, []byte(expected)):
			return true, d.Kind
		}
		return false, truncate(fmt.Sprintf("expected %s at run time, got %s", expected, failure), 300)
	}
	return false, fmt.Sprintf("unknown category %q in the manifest", t.Category)
}

// compact is a JSON value on one line ("null" when absent, as
// json.dumps(None)).
func compact(v json.RawMessage) string {
	var b bytes.Buffer
	if len(v) == 0 || json.Compact(&b, v) != nil {
		return "null"
	}
	return b.String()
}

// truncate keeps the first n characters (code points, as Python slices).
func truncate(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}
