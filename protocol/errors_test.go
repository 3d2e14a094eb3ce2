package protocol_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/go-codemode/codemode/protocol"
)

func TestCodes(t *testing.T) {
	want := []string{
		"PROTOCOL_MISMATCH", "QUEUE_OVERFLOW", "CONNECTION_REJECTED", "TIMEOUT",
		"WORKER_CRASHED", "PAYLOAD_TOO_LARGE", "MALFORMED_MESSAGE", "INVALID_REQUEST",
		"UNKNOWN_EXECUTION", "CANCELLED", "SHUTTING_DOWN", "INTERNAL", "SUSPENDED",
	}
	codes := protocol.Codes()
	if len(codes) != len(want) {
		t.Fatalf("Codes() = %v", codes)
	}
	for i, c := range codes {
		if string(c) != want[i] {
			t.Errorf("Codes()[%d] = %s, want %s", i, c, want[i])
		}
		if !c.Known() {
			t.Errorf("%s not Known", c)
		}
	}
	codes[0] = "CHANGED"
	if protocol.Codes()[0] != protocol.CodeProtocolMismatch {
		t.Error("Codes() shares its slice")
	}
	if protocol.Code("NOPE").Known() || protocol.Code("").Known() {
		t.Error("unknown code reported known")
	}
}

func TestError(t *testing.T) {
	e := protocol.NewError(protocol.CodeTimeout, protocol.TimeoutMessage)
	if e.Error() != "Execution timed out" {
		t.Errorf("Error() = %q", e.Error())
	}
	if got := (&protocol.Error{Code: protocol.CodeInternal}).Error(); got != "INTERNAL" {
		t.Errorf("Error() without message = %q", got)
	}
	if got := protocol.Errorf(protocol.CodeQueueOverflow, "queue of %d is full", 3).Message; got != "queue of 3 is full" {
		t.Errorf("Errorf message = %q", got)
	}

	wrapped := fmt.Errorf("running: %w", e)
	if got := protocol.CodeOf(wrapped); got != protocol.CodeTimeout {
		t.Errorf("CodeOf(wrapped) = %q", got)
	}
	if got := protocol.CodeOf(errors.New("plain")); got != "" {
		t.Errorf("CodeOf(plain) = %q", got)
	}
	if got := protocol.CodeOf(nil); got != "" {
		t.Errorf("CodeOf(nil) = %q", got)
	}
	var target *protocol.Error
	if !errors.As(wrapped, &target) || target != e {
		t.Error("errors.As does not find the *Error")
	}
	if !errors.Is(wrapped, &protocol.Error{Code: protocol.CodeTimeout}) {
		t.Error("errors.Is by code fails")
	}
	if !errors.Is(wrapped, &protocol.Error{Code: protocol.CodeTimeout, Message: protocol.TimeoutMessage}) {
		t.Error("errors.Is by code and message fails")
	}
	if errors.Is(wrapped, &protocol.Error{Code: protocol.CodeTimeout, Message: "other"}) {
		t.Error("errors.Is matches another message")
	}
	if errors.Is(wrapped, &protocol.Error{Code: protocol.CodeCancelled}) {
		t.Error("errors.Is matches another code")
	}

	b, err := json.Marshal(e)
	if err != nil || string(b) != `{"code":"TIMEOUT","message":"Execution timed out"}` {
		t.Errorf("json = %s, %v", b, err)
	}
	var back protocol.Error
	if err := json.Unmarshal(b, &back); err != nil || back != *e {
		t.Errorf("round trip = %+v, %v", back, err)
	}
}

func TestAssertCompatible(t *testing.T) {
	if err := protocol.AssertCompatible(protocol.Version, protocol.Version); err != nil {
		t.Errorf("equal versions: %v", err)
	}
	err := protocol.AssertCompatible(2, 1)
	if protocol.CodeOf(err) != protocol.CodeProtocolMismatch {
		t.Fatalf("code = %q", protocol.CodeOf(err))
	}
	want := "protocol version mismatch: the peer speaks version 2, this side speaks version 1; both sides must speak the same version"
	if err.Error() != want {
		t.Errorf("text = %q", err.Error())
	}
	if protocol.AssertCompatible(0, 1) == nil {
		t.Error("0 and 1 compatible")
	}
}
