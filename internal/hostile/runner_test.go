package hostile_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCorpus checks the corpus itself: it parses, is big enough, and
// known-failures.txt names only cases that exist.
func TestCorpus(t *testing.T) {
	cases, err := loadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 120 {
		t.Errorf("%d cases, want at least 120", len(cases))
	}
	ids := map[string]bool{}
	for _, c := range cases {
		ids[c.ID()] = true
	}
	known, err := loadKnownFailures(knownFailuresFile)
	if err != nil {
		t.Fatal(err)
	}
	for id := range known {
		if !ids[id] {
			t.Errorf("%s lists %q, which is not a case", knownFailuresFile, id)
		}
	}
}

// TestParseFileErrors: a malformed corpus file is an error that says
// where, not a silently smaller suite.
func TestParseFileErrors(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"unpaired", "-- a.js --\n1\n", "pairs"},
		{"wrong spec name", "-- a.js --\n1\n-- b.json --\n{}\n", "want NAME.js then NAME.json"},
		{"duplicate", "-- a.js --\n1\n-- a.json --\n{\"limits\":{\"timeoutMs\":1},\"expect\":[\"ok\"]}\n-- a.js --\n1\n-- a.json --\n{\"limits\":{\"timeoutMs\":1},\"expect\":[\"ok\"]}\n", "twice"},
		{"no timeout", "-- a.js --\n1\n-- a.json --\n{\"expect\":[\"ok\"]}\n", "timeoutMs"},
		{"no expectation", "-- a.js --\n1\n-- a.json --\n{\"limits\":{\"timeoutMs\":1}}\n", "expect"},
		{"unknown key", "-- a.js --\n1\n-- a.json --\n{\"limits\":{\"timeoutMs\":1},\"expect\":[\"ok\"],\"expected\":1}\n", "unknown field"},
		{"unknown tool", "-- a.js --\n1\n-- a.json --\n{\"limits\":{\"timeoutMs\":1},\"expect\":[\"ok\"],\"tools\":[\"x.nope\"]}\n", "unknown runner tool"},
		{"missing marker", "-- a.js --\n1\n-- a.json --\n{\"limits\":{\"timeoutMs\":1},\"expect\":[\"ok\"],\"expand\":[{\"marker\":\"@X@\",\"text\":\"a\",\"count\":2}]}\n", "marker"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseFile("t.txtar", []byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
	cases, err := parseFile("t.txtar", []byte("-- a.js --\nreturn @X@;\n-- a.json --\n{\"limits\":{\"timeoutMs\":1},\"expect\":[\"ok\"],\"expand\":[{\"marker\":\"@X@\",\"text\":\"ab\",\"count\":3}]}\n"))
	if err != nil || len(cases) != 1 || cases[0].Program != "return ababab;\n" {
		t.Errorf("expand: %v %+v", err, cases)
	}
}

// TestCheck runs the parent's checks on made-up child reports.
func TestCheck(t *testing.T) {
	spec := func(js string) spec {
		var s spec
		if err := json.Unmarshal([]byte(js), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	tests := []struct {
		name string
		spec string
		out  childOutcome
		want string // a problem's text, "" for none
	}{
		{"pass", `{"limits":{"timeoutMs":500},"expect":["TimeoutExceeded"]}`,
			childOutcome{report: &report{Kind: "TimeoutExceeded", ElapsedMs: 800}}, ""},
		{"too late", `{"limits":{"timeoutMs":500},"expect":["TimeoutExceeded"]}`,
			childOutcome{report: &report{Kind: "TimeoutExceeded", ElapsedMs: 1000}}, "past the 500ms timeout"},
		{"wider bound", `{"limits":{"timeoutMs":500},"expect":["TimeoutExceeded"],"pastMs":600}`,
			childOutcome{report: &report{Kind: "TimeoutExceeded", ElapsedMs: 1000}}, ""},
		{"wrong kind", `{"limits":{"timeoutMs":500},"expect":["MemoryLimitExceeded"]}`,
			childOutcome{report: &report{Kind: "TimeoutExceeded"}}, "outcome TimeoutExceeded"},
		{"message", `{"limits":{"timeoutMs":500},"expect":["ExecutionFailure","ok"],"message":"Maximum call stack"}`,
			childOutcome{report: &report{Kind: "ExecutionFailure", Message: "RangeError: Invalid array length"}}, "does not contain"},
		{"internal error", `{"limits":{"timeoutMs":500},"expect":["ExecutionFailure"]}`,
			childOutcome{report: &report{Kind: "ExecutionFailure", Message: "Internal error: x. This is a bug in codemode"}}, "internal error"},
		{"value", `{"limits":{"timeoutMs":500},"expect":["ok"],"value":[1,2]}`,
			childOutcome{report: &report{OK: true, Value: json.RawMessage(`[1, 3]`)}}, "value [1, 3]"},
		{"value same", `{"limits":{"timeoutMs":500},"expect":["ok"],"value":[1,2]}`,
			childOutcome{report: &report{OK: true, Value: json.RawMessage(`[1, 2]`)}}, ""},
		{"value omitted", `{"limits":{"timeoutMs":500},"expect":["ok"],"value":1}`,
			childOutcome{report: &report{OK: true, ValueOmitted: true}}, "a value of more than"},
		{"tool calls", `{"limits":{"timeoutMs":500},"expect":["TimeoutExceeded"],"toolCalls":["x.pending"]}`,
			childOutcome{report: &report{Kind: "TimeoutExceeded", ToolCalls: []string{}}}, "toolCalls []"},
		{"go memory", `{"limits":{"timeoutMs":500,"maxMemoryBytes":1048576},"expect":["MemoryLimitExceeded"]}`,
			childOutcome{report: &report{Kind: "MemoryLimitExceeded", PeakGoMem: 100 << 20}}, "Go memory peaked"},
		{"rss", `{"limits":{"timeoutMs":500,"maxMemoryBytes":1048576},"expect":["MemoryLimitExceeded"]}`,
			childOutcome{report: &report{Kind: "MemoryLimitExceeded", PeakGoMem: 10 << 20}, maxRSS: 200 << 20}, "RSS peaked"},
		{"output", `{"limits":{"timeoutMs":500,"maxOutputBytes":10},"expect":["ok"]}`,
			childOutcome{report: &report{OK: true, ResultBytes: 1 << 20}}, "output limit"},
		{"lifecycle", `{"limits":{"timeoutMs":500},"expect":["ok"]}`,
			childOutcome{report: &report{OK: true, Lifecycle: []string{"after Execute returned: start x.echo at 9ms"}}}, "after Execute returned"},
		{"crash", `{"limits":{"timeoutMs":500},"expect":["ok"]}`,
			childOutcome{stderr: "fatal error: stack overflow", exitErr: errExit}, "child crashed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if raceEnabled && (tt.name == "go memory" || tt.name == "rss" || tt.name == "too late") {
				t.Skip("bounds are relaxed under -race")
			}
			c := &hcase{Class: "t", Name: tt.name, Spec: spec(tt.spec)}
			got := strings.Join(c.check(&tt.out), "\n")
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("problems %q, want %q", got, tt.want)
			}
		})
	}
}

// errExit stands for a child's non-zero exit.
var errExit = exitError("exit status 2")

type exitError string

func (e exitError) Error() string { return string(e) }
