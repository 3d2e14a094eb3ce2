package protocol_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-codemode/codemode/protocol"
)

func TestConstants(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"Version", protocol.Version, 1},
		{"DefaultTimeout", protocol.DefaultTimeout, time.Minute},
		{"DefaultTimeoutMillis", protocol.DefaultTimeoutMillis, 60000},
		{"MaxSupportedTimeout", protocol.MaxSupportedTimeout, 2147483647 * time.Millisecond},
		{"MaxSupportedTimeoutMillis", protocol.MaxSupportedTimeoutMillis, 1<<31 - 1},
		{"PayloadLimit", protocol.PayloadLimit, 8 * 1024 * 1024},
		{"ConsoleCaptureLimit", protocol.ConsoleCaptureLimit, 2 * 1024 * 1024},
		{"TimeoutMessage", protocol.TimeoutMessage, "Execution timed out"},
		{"ExecutionCompletedMessage", protocol.ExecutionCompletedMessage, "Execution has already completed."},
		{"DefaultGrace", protocol.DefaultGrace, time.Second},
		{"DefaultGraceMillis", protocol.DefaultGraceMillis, 1000},
		{"HandlesIdleTimeout", protocol.HandlesIdleTimeout, 5 * time.Minute},
		{"HandlesIdleTimeoutMillis", protocol.HandlesIdleTimeoutMillis, 300000},
		{"MaxFrameSize", protocol.MaxFrameSize, 64 << 20},
	} {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// The pinned texts that are spelled out are the ones composed from their
// parts.
func TestComposedTexts(t *testing.T) {
	want := fmt.Sprintf("Console output exceeded %d characters; further output was dropped.", protocol.ConsoleCaptureLimit)
	if protocol.ConsoleCaptureMessage != want {
		t.Errorf("ConsoleCaptureMessage = %q, want %q", protocol.ConsoleCaptureMessage, want)
	}
	if got := protocol.ErrorEnvelope(protocol.ExecutionCompletedMessage); got != protocol.ExecutionCompletedEnvelope {
		t.Errorf("ExecutionCompletedEnvelope = %s, want %s", protocol.ExecutionCompletedEnvelope, got)
	}
	if protocol.ExecutionCompletedEnvelope != `{"error":"Execution has already completed."}` {
		t.Errorf("ExecutionCompletedEnvelope = %s", protocol.ExecutionCompletedEnvelope)
	}
	// The frame bound holds a full payload and console capture at six
	// bytes a character.
	if need := 6 * (protocol.PayloadLimit + protocol.ConsoleCaptureLimit); protocol.MaxFrameSize < need {
		t.Errorf("MaxFrameSize %d < %d", protocol.MaxFrameSize, need)
	}
}
