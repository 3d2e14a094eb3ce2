package codemode

import (
	"encoding/json"
	"testing"
)

// TestResultJSON pins the reference's Result shape: key order, omitted
// optional keys, toolCalls always present.
func TestResultJSON(t *testing.T) {
	tests := []struct {
		name string
		r    Result
		want string
	}{
		{"null value", Result{OK: true}, `{"ok":true,"value":null,"toolCalls":[]}`},
		{"value keeps its key order", Result{OK: true, Value: json.RawMessage(`{"b":1,"a":[1,"<x>"]}`)},
			`{"ok":true,"value":{"b":1,"a":[1,"<x>"]},"toolCalls":[]}`},
		{"everything", Result{OK: true, Value: json.RawMessage(`"v"`),
			Warnings:  []Diagnostic{{Kind: ToolFailure, Message: "Unhandled rejection from an un-awaited promise: Lookup refused"}},
			Logs:      []string{"a", "[warn] <b>"},
			Truncated: true,
			ToolCalls: []ToolCall{{Name: "search"}, {Name: "crm.get"}}},
			`{"ok":true,"value":"v","warnings":[{"kind":"ToolFailure","message":"Unhandled rejection from an un-awaited promise: Lookup refused"}],"logs":["a","[warn] <b>"],"truncated":true,"toolCalls":[{"name":"search"},{"name":"crm.get"}]}`},
		{"failure with location and suggestions", Result{Error: &Diagnostic{Kind: UnknownTool,
			Message: "Unknown tool 'a.b'.", Location: &Location{Line: 2, Column: 8},
			Suggestions: []string{"Use search to find available tools."}}, Logs: []string{"x"}},
			`{"ok":false,"error":{"kind":"UnknownTool","message":"Unknown tool 'a.b'.","location":{"line":2,"column":8},"suggestions":["Use search to find available tools."]},"logs":["x"],"toolCalls":[]}`},
		{"failure drops warnings", Result{Error: &Diagnostic{Kind: TimeoutExceeded, Message: "Execution timed out after 5ms."},
			Warnings: []Diagnostic{{Kind: ToolFailure, Message: "w"}}},
			`{"ok":false,"error":{"kind":"TimeoutExceeded","message":"Execution timed out after 5ms."},"toolCalls":[]}`},
	}
	for _, tt := range tests {
		b, err := tt.r.MarshalJSON()
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if string(b) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, b, tt.want)
		}
		var back Result
		if err := json.Unmarshal(b, &back); err != nil {
			t.Errorf("%s: read back: %v", tt.name, err)
			continue
		}
		again, _ := back.MarshalJSON()
		if !tt.r.OK && len(tt.r.Warnings) > 0 {
			continue // warnings are not part of a failure
		}
		if string(again) != tt.want {
			t.Errorf("%s: round trip gives %s", tt.name, again)
		}
	}
}

func TestResultJSONErrors(t *testing.T) {
	if _, err := (Result{OK: true, Value: json.RawMessage(`{bad`)}).MarshalJSON(); err == nil {
		t.Error("an invalid Value must not marshal")
	}
	var r Result
	if err := json.Unmarshal([]byte(`{"value":1}`), &r); err == nil {
		t.Error("a Result without ok must not unmarshal")
	}
	got := Result{}.String()
	if got != `{"ok":false,"error":{"kind":"ExecutionFailure","message":"The run failed without a diagnostic."},"toolCalls":[]}` {
		t.Errorf("a failure without a diagnostic: %s", got)
	}
}
