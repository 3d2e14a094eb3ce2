package codemode

import (
	"encoding/json"
	"strconv"
	"sync"
	"time"
)

// CallPhase says whether a ToolCallEvent starts or ends a call.
type CallPhase string

// The phases of a host call.
const (
	CallStart CallPhase = "start"
	CallEnd   CallPhase = "end"
)

// ToolCallEvent is the start or the end of one host call (a tool, search,
// or an extension function), as OnToolCall streams them.
type ToolCallEvent struct {
	Phase CallPhase
	// ID is unique within the run ("call-3") and Seq is the call's place
	// in the order the program made its host calls, from 1. Hooks see the
	// same two in ToolCallInfo and ExtensionCallInfo, so that parallel
	// calls to one tool can be told apart and paired.
	ID  string
	Seq int
	// Kind is "tool" (search included) or "extension".
	Kind string
	// Name is the tool's path, "search", or the extension function's
	// path ("fs.readFile").
	Name string
	// Input is a tool call's validated input (nil for extensions).
	Input json.RawMessage
	// Duration, on end events, is the time since the call was made.
	Duration time.Duration
	// Outcome, on end events: success, failure (a denied call too) or
	// interrupted (the run ended first).
	Outcome CallOutcome
}

// OnToolCall streams the run's host calls: f gets a start event when the
// program makes a call (after its input is validated and it is admitted)
// and exactly one end event when its outcome is known. Calls are made and
// end on several goroutines; f is called with one event at a time, never
// after Execute returns, and a panic in it is dropped.
func OnToolCall(f func(ToolCallEvent)) ExecOption {
	return func(c *execConfig) { c.onToolCall = f }
}

// callEvents serializes a run's events to the host's OnToolCall.
type callEvents struct {
	mu sync.Mutex
	f  func(ToolCallEvent)
}

func (e *callEvents) emit(ev ToolCallEvent) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	defer func() { _ = recover() }()
	e.f(ev)
}

// callID numbers the run's next host call: its ID and Seq. It runs on
// the run's goroutine, where calls are made.
func (h *toolHost) callID() (string, int) {
	h.seq++
	return "call-" + strconv.Itoa(h.seq), h.seq
}

// started emits a call's start event and returns what emits its end.
func (h *toolHost) started(kind, name, id string, seq int, input json.RawMessage) func(CallOutcome) {
	if h.events == nil {
		return func(CallOutcome) {}
	}
	start := time.Now()
	h.events.emit(ToolCallEvent{Phase: CallStart, ID: id, Seq: seq, Kind: kind, Name: name, Input: input})
	return func(out CallOutcome) {
		h.events.emit(ToolCallEvent{Phase: CallEnd, ID: id, Seq: seq, Kind: kind, Name: name, Duration: time.Since(start), Outcome: out})
	}
}
