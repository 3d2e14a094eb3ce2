package protocol

import (
	"errors"
	"fmt"
)

// Code names the kind of an executor failure. Hosts branch on the code,
// never on the wording of the message.
type Code string

// The codes a failure can carry.
const (
	// CodeProtocolMismatch: the two sides speak different protocol
	// versions, or a request needs something the other side lacks.
	CodeProtocolMismatch Code = "PROTOCOL_MISMATCH"
	// CodeQueueOverflow: too many executions are already waiting.
	CodeQueueOverflow Code = "QUEUE_OVERFLOW"
	// CodeConnectionRejected: the server refused the connection or its
	// handshake.
	CodeConnectionRejected Code = "CONNECTION_REJECTED"
	// CodeTimeout: the run exceeded its timeout.
	CodeTimeout Code = "TIMEOUT"
	// CodeWorkerCrashed: the worker running the execution died.
	CodeWorkerCrashed Code = "WORKER_CRASHED"
	// CodePayloadTooLarge: a value, a result or a frame exceeded its
	// limit.
	CodePayloadTooLarge Code = "PAYLOAD_TOO_LARGE"
	// CodeMalformedMessage: a frame, an envelope or an argument list is
	// not of the protocol's form.
	CodeMalformedMessage Code = "MALFORMED_MESSAGE"
	// CodeInvalidRequest: a well-formed request declares something the
	// executor refuses: bad providers, modules or options.
	CodeInvalidRequest Code = "INVALID_REQUEST"
	// CodeUnknownExecution: the execution or handle named is unknown or
	// already closed.
	CodeUnknownExecution Code = "UNKNOWN_EXECUTION"
	// CodeCancelled: the caller cancelled the execution.
	CodeCancelled Code = "CANCELLED"
	// CodeShuttingDown: the executor is shutting down and takes no new
	// work.
	CodeShuttingDown Code = "SHUTTING_DOWN"
	// CodeInternal: the executor failed in a way no other code names.
	CodeInternal Code = "INTERNAL"
	// CodeSuspended: the run did not finish but was saved (the server
	// drained while it waited on a tool); the result carries its state,
	// which a resume continues.
	CodeSuspended Code = "SUSPENDED"
)

var knownCodes = []Code{
	CodeProtocolMismatch, CodeQueueOverflow, CodeConnectionRejected,
	CodeTimeout, CodeWorkerCrashed, CodePayloadTooLarge,
	CodeMalformedMessage, CodeInvalidRequest, CodeUnknownExecution,
	CodeCancelled, CodeShuttingDown, CodeInternal, CodeSuspended,
}

// Codes returns every code this version of the protocol declares, in
// declaration order. The slice is a copy.
func Codes() []Code { return append([]Code(nil), knownCodes...) }

// Known reports whether c is one of the codes this version declares.
// Messages from a peer may carry codes this version does not know; they
// decode all the same.
func (c Code) Known() bool {
	for _, k := range knownCodes {
		if c == k {
			return true
		}
	}
	return false
}

// Error is an executor failure: a code to branch on and a message to
// show. In a [ResultMessage] an Error with an empty Code is a failure of
// the program itself (a throw, a syntax error), not of the executor.
type Error struct {
	// Code is the kind of failure.
	Code Code `json:"code,omitempty"`
	// Message is the human-readable text.
	Message string `json:"message" proto:"required"`
}

// NewError returns an Error with the given code and message.
func NewError(code Code, message string) *Error {
	return &Error{Code: code, Message: message}
}

// Errorf returns an Error with the given code and a message formatted as
// by fmt.Sprintf.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Error returns the message, or the code when the message is empty.
func (e *Error) Error() string {
	if e.Message == "" {
		return string(e.Code)
	}
	return e.Message
}

// Is reports whether target is an *Error with the same code and, when
// target's message is not empty, the same message, so that
// errors.Is(err, &protocol.Error{Code: protocol.CodeTimeout}) matches any
// timeout.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok || t == nil {
		return false
	}
	return t.Code == e.Code && (t.Message == "" || t.Message == e.Message)
}

// CodeOf returns the code of the first *Error in err's chain, or "" when
// there is none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) && e != nil {
		return e.Code
	}
	return ""
}

// AssertCompatible returns nil when remote and local are the same
// protocol version, and an *Error with [CodeProtocolMismatch] otherwise.
// A host that has no other version in mind passes [Version] as local.
func AssertCompatible(remote, local int) error {
	if remote == local {
		return nil
	}
	return Errorf(CodeProtocolMismatch,
		"protocol version mismatch: the peer speaks version %d, this side speaks version %d; both sides must speak the same version",
		remote, local)
}
