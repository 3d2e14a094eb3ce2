package remote

import (
	"context"
	"errors"
	"fmt"

	"github.com/coder/websocket"

	"github.com/go-codemode/codemode/protocol"
)

// CodeConnectionLost is the code of this client's own failure: the
// connection to the server failed (it could not be opened, even after
// the retries of Options.Reconnect, or it closed before the answer of a
// request in flight). The protocol declares no such code because no
// server sends it; the JavaScript client uses the same one. A request
// that was in flight is never sent again: it may have run.
const CodeConnectionLost protocol.Code = "CONNECTION_LOST"

// errClosed is the error of every call after Close, and of the calls
// Close interrupts, as codemode.Executor's.
var errClosed = protocol.NewError(protocol.CodeShuttingDown, "remote: the executor is closed")

// errRunEnded ends the context of a request's tool calls once its answer
// has arrived, as protocol.EnvelopeDispatch's Close does.
var errRunEnded = protocol.NewError(protocol.CodeCancelled, protocol.ExecutionCompletedMessage)

// connLost returns a CONNECTION_LOST error saying what, caused by cause.
// errors.Is matches both &protocol.Error{Code: CodeConnectionLost} and
// cause.
func connLost(cause error, format string, args ...any) error {
	e := protocol.Errorf(CodeConnectionLost, "remote: "+format, args...)
	if cause == nil {
		return e
	}
	return fmt.Errorf("%w: %w", e, cause)
}

// cancelled returns the CANCELLED error of a request whose ctx ended
// before an answer.
func cancelled(ctx context.Context, what string) error {
	return fmt.Errorf("%w: %w", protocol.NewError(protocol.CodeCancelled, "remote: "+what), context.Cause(ctx))
}

// retryable reports whether an open that failed with err may succeed
// when tried again.
func retryable(err error) bool {
	switch protocol.CodeOf(err) {
	case CodeConnectionLost, protocol.CodeShuttingDown, protocol.CodeInternal:
		return true
	}
	return false
}

// describeClose renders why a connection ended, for errors and logs.
func describeClose(err error) string {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		if ce.Reason != "" {
			return fmt.Sprintf("closed with status %d (%s)", int(ce.Code), ce.Reason)
		}
		return fmt.Sprintf("closed with status %d", int(ce.Code))
	}
	return err.Error()
}
