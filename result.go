// Package codemode runs JavaScript programs written by AI models, safely,
// inside the host's Go process: the program calls the host's tools, and
// the host limits its time, tool calls, output and memory and gets back one
// JSON-safe Result.
//
// The runtime itself (New, Execute) comes with the engines; this file
// defines the Result every run ends with, shaped exactly as the reference,
// @opencode/codemode, shapes it, so hosts and models can rely on it.
package codemode

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Kind classifies a Diagnostic. The kinds are the reference's, plus
// MemoryLimitExceeded, which codemode adds.
type Kind string

// Diagnostic kinds.
const (
	ParseError            Kind = "ParseError"
	UnsupportedSyntax     Kind = "UnsupportedSyntax"
	UnknownTool           Kind = "UnknownTool"
	InvalidToolInput      Kind = "InvalidToolInput"
	InvalidToolOutput     Kind = "InvalidToolOutput"
	InvalidDataValue      Kind = "InvalidDataValue"
	ToolCallLimitExceeded Kind = "ToolCallLimitExceeded"
	TimeoutExceeded       Kind = "TimeoutExceeded"
	ToolFailure           Kind = "ToolFailure"
	ExecutionFailure      Kind = "ExecutionFailure"
	Truncated             Kind = "Truncated"
	MemoryLimitExceeded   Kind = "MemoryLimitExceeded"
	// Cancelled: the caller's context was cancelled (codemode's; the
	// reference has the host interrupt the run instead).
	Cancelled Kind = "Cancelled"
)

// Location is a 1-based line and column in the program the model sent
// (columns count UTF-16 code units, as JavaScript tools do).
type Location struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	// Module names the module of the program's module map the position
	// is in (WithModules); Line and Column are then in that module's
	// text. Empty for the program itself.
	Module string `json:"module,omitempty"`
}

// Diagnostic is an error or a warning of a run.
type Diagnostic struct {
	Kind        Kind      `json:"kind"`
	Message     string    `json:"message"`
	Location    *Location `json:"location,omitempty"`
	Suggestions []string  `json:"suggestions,omitempty"`
}

// Error makes a Diagnostic an error: "Kind: message", so a host can
// return a run's failure as a Go error and errors.As it back.
func (d *Diagnostic) Error() string { return string(d.Kind) + ": " + d.Message }

// Is reports whether target is a Diagnostic of the same kind, so that
// errors.Is(err, &Diagnostic{Kind: TimeoutExceeded}) asks "did it time
// out?".
func (d *Diagnostic) Is(target error) bool {
	t, ok := target.(*Diagnostic)
	return ok && t.Kind == d.Kind && (t.Message == "" || t.Message == d.Message)
}

// ToolCall is one admitted tool call, in admission order.
type ToolCall struct {
	Name string `json:"name"`
}

// Result is how every run ends. On success OK is true and Value holds the
// program's value as JSON (never empty: "null" when the program produced
// undefined); on failure Error says why. Logs, Warnings and ToolCalls are
// kept either way (warnings only on success), and Truncated says that the
// output limit cut something. Warnings marshal as {kind, message} only.
//
// Result marshals exactly as the reference's Result: keys in the order
// ok, value or error, warnings, logs, truncated, toolCalls, with the
// optional ones left out when empty and toolCalls always present.
type Result struct {
	OK        bool
	Value     json.RawMessage
	Error     *Diagnostic
	Warnings  []Diagnostic
	Logs      []string
	Truncated bool
	ToolCalls []ToolCall
	// ExecutionID and Handles name a retained run (WithRetain) and the
	// paths of the functions in Value that Runtime.InvokeHandle calls;
	// both are empty when the run was not retained.
	ExecutionID string
	Handles     []string

	// valueSize is the length of the value's JSON when Value holds only
	// its first bytes (an output limit applies; boundOutput cuts it), or
	// zero; sizeAtLeast says the copy stopped counting at valueSize.
	valueSize   int
	sizeAtLeast bool
}

// warning is a warning as the reference shapes it: kind and message
// only (a location stays inside the message text).
type warning struct {
	Kind    Kind   `json:"kind"`
	Message string `json:"message"`
}

func warningsJSON(ws []Diagnostic) []warning {
	out := make([]warning, len(ws))
	for i, w := range ws {
		out[i] = warning{Kind: w.Kind, Message: w.Message}
	}
	return out
}

// MarshalJSON writes the reference's shape. It does not escape HTML
// characters; json.Marshal re-escapes them ("<" as "\u003c"), so use this
// method, String, or an Encoder with SetEscapeHTML(false) for the exact
// bytes.
func (r Result) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	field := func(name string, v any) error {
		data, err := marshalNoEscape(v)
		if err != nil {
			return fmt.Errorf("codemode: Result.%s: %w", name, err)
		}
		fmt.Fprintf(&b, ",%q:", name)
		b.Write(data)
		return nil
	}
	if r.OK {
		b.WriteString(`{"ok":true`)
		value := r.Value
		if len(bytes.TrimSpace(value)) == 0 {
			value = json.RawMessage("null")
		}
		if !json.Valid(value) {
			return nil, fmt.Errorf("codemode: Result.Value is not valid JSON")
		}
		b.WriteString(`,"value":`)
		b.Write(value)
		if len(r.Warnings) > 0 {
			if err := field("warnings", warningsJSON(r.Warnings)); err != nil {
				return nil, err
			}
		}
	} else {
		b.WriteString(`{"ok":false`)
		diag := r.Error
		if diag == nil {
			diag = &Diagnostic{Kind: ExecutionFailure, Message: "The run failed without a diagnostic."}
		}
		if err := field("error", diag); err != nil {
			return nil, err
		}
	}
	if len(r.Logs) > 0 {
		if err := field("logs", r.Logs); err != nil {
			return nil, err
		}
	}
	if r.Truncated {
		b.WriteString(`,"truncated":true`)
	}
	calls := r.ToolCalls
	if calls == nil {
		calls = []ToolCall{}
	}
	if err := field("toolCalls", calls); err != nil {
		return nil, err
	}
	if r.ExecutionID != "" {
		if err := field("executionId", r.ExecutionID); err != nil {
			return nil, err
		}
		if err := field("handles", r.Handles); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalNoEscape is json.Marshal without HTML escaping: a model reading
// "<" should see "<", not "\u003c".
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// UnmarshalJSON reads a Result in the reference's shape.
func (r *Result) UnmarshalJSON(data []byte) error {
	var raw struct {
		OK        *bool           `json:"ok"`
		Value     json.RawMessage `json:"value"`
		Error     *Diagnostic     `json:"error"`
		Warnings  []Diagnostic    `json:"warnings"`
		Logs      []string        `json:"logs"`
		Truncated bool            `json:"truncated"`
		ToolCalls []ToolCall      `json:"toolCalls"`
		ExecID    string          `json:"executionId"`
		Handles   []string        `json:"handles"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if raw.OK == nil {
		return fmt.Errorf("codemode: a Result needs an \"ok\" key")
	}
	*r = Result{OK: *raw.OK, Value: raw.Value, Error: raw.Error, Warnings: raw.Warnings,
		Logs: raw.Logs, Truncated: raw.Truncated, ToolCalls: raw.ToolCalls, ExecutionID: raw.ExecID, Handles: raw.Handles}
	return nil
}

// Err is the run's failure as an error (a *Diagnostic), or nil when it
// succeeded:
//
//	if err := res.Err(); err != nil {
//		var d *codemode.Diagnostic
//		if errors.As(err, &d) && d.Kind == codemode.TimeoutExceeded { ... }
//	}
func (r Result) Err() error {
	if r.OK || r.Error == nil {
		return nil
	}
	return r.Error
}

// String is the Result as one line of JSON.
func (r Result) String() string {
	b, err := r.MarshalJSON()
	if err != nil {
		return fmt.Sprintf(`{"ok":false,"error":{"kind":"ExecutionFailure","message":%q}}`, err.Error())
	}
	return string(b)
}
