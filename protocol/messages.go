package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// MessageType is the "type" of a wire message.
type MessageType string

// The message types.
const (
	// TypeHello opens a connection (client to server).
	TypeHello MessageType = "hello"
	// TypeHelloAck accepts a connection (server to client).
	TypeHelloAck MessageType = "helloAck"
	// TypeExecute asks for one execution (client to server).
	TypeExecute MessageType = "execute"
	// TypeResult answers an execute or an invokeHandle (server to
	// client).
	TypeResult MessageType = "result"
	// TypeDispatch carries a program's tool call (server to client).
	TypeDispatch MessageType = "dispatch"
	// TypeDispatchResult answers a dispatch (client to server).
	TypeDispatchResult MessageType = "dispatchResult"
	// TypeInvokeHandle calls a handle of a retained execution (client to
	// server).
	TypeInvokeHandle MessageType = "invokeHandle"
	// TypeCloseHandles releases a retained execution (client to server).
	TypeCloseHandles MessageType = "closeHandles"
	// TypeCancel cancels an execution in flight (client to server).
	TypeCancel MessageType = "cancel"
	// TypeError reports a failure that no result carries (either way).
	TypeError MessageType = "error"
	// TypeFetch carries a program's outbound request in the stub mode
	// (server to client).
	TypeFetch MessageType = "fetch"
	// TypeFetchResult answers a fetch (client to server).
	TypeFetchResult MessageType = "fetchResult"
	// TypeResume continues a saved run (client to server).
	TypeResume MessageType = "resume"
)

// Message is one wire message: one of the *Message types of this
// package.
type Message interface {
	// Type is the message's "type".
	Type() MessageType
	// CorrelationID is the message's "id".
	CorrelationID() string
	isMessage()
}

// HelloMessage opens a connection. The server answers with a
// [HelloAckMessage] of the same id, or with an [ErrorMessage] of
// [CodeProtocolMismatch] or [CodeConnectionRejected].
type HelloMessage struct {
	// ID correlates the answer.
	ID string `json:"id" proto:"required,nonempty"`
	// Version is the protocol version the client speaks.
	Version int `json:"version" proto:"required"`
	// Token is the client's credential, when the server asks for one.
	Token string `json:"token,omitempty"`
}

// HelloAckMessage accepts a connection.
type HelloAckMessage struct {
	// ID is the id of the hello it answers.
	ID string `json:"id" proto:"required,nonempty"`
	// Version is the protocol version the server speaks.
	Version int `json:"version" proto:"required"`
}

// OutboundMode is how an execution's fetch reaches the network.
type OutboundMode string

// The outbound modes. The empty mode leaves the choice to the serving
// side, which performs requests natively unless its operator says
// otherwise.
const (
	// OutboundNative: the executor performs requests itself.
	OutboundNative OutboundMode = "native"
	// OutboundStub: the caller performs each request.
	OutboundStub OutboundMode = "stub"
	// OutboundDisabled: the execution has no network.
	OutboundDisabled OutboundMode = "disabled"
)

func (m OutboundMode) validate() error {
	switch m {
	case "", OutboundNative, OutboundStub, OutboundDisabled:
		return nil
	}
	return &fieldError{msg: fmt.Sprintf("is %q; the outbound modes are native, stub and disabled", string(m))}
}

// ExecuteOptions are the options of an execution.
type ExecuteOptions struct {
	// Timeout bounds the run: absent for the server's default, null
	// for the largest supported bound, or milliseconds.
	Timeout Timeout `json:"timeout,omitzero"`
	// CountHostWaits counts the time the program waits on the host
	// (tool calls) against the timeout.
	CountHostWaits bool `json:"countHostWaits,omitempty"`
	// RetainHandles keeps the execution after it returns, so that its
	// handles can be invoked; the result then carries its executionId.
	RetainHandles bool `json:"retainHandles,omitempty"`
	// Outbound is how the program's fetch reaches the network.
	Outbound OutboundMode `json:"outbound,omitempty"`
}

// ExecuteMessage asks for one execution. The server answers with a
// [ResultMessage] of the same id, sending a [DispatchMessage] of that id
// for every tool call the program makes meanwhile. Decoding checks the
// message's form only: the providers' names are checked by
// [ValidateProviders] where the request is served.
type ExecuteMessage struct {
	// ID names the execution on this connection.
	ID string `json:"id" proto:"required,nonempty"`
	// Code is the entry program: an arrow function expression,
	// optionally preceded by static imports of module-map entries.
	Code string `json:"code" proto:"required"`
	// Providers describe the tools the program may call.
	Providers []ProviderDescriptor `json:"providers,omitzero"`
	// Modules are what the program may import.
	Modules ModuleMap `json:"modules,omitzero"`
	// Options shape the run.
	Options ExecuteOptions `json:"options,omitzero"`
}

// Console levels a [LogLine] commonly carries.
const (
	LogLevelLog   = "log"
	LogLevelInfo  = "info"
	LogLevelWarn  = "warn"
	LogLevelError = "error"
	LogLevelDebug = "debug"
)

// LogLine is one captured console line.
type LogLine struct {
	// Level is the console method: log, info, warn, error or debug.
	Level string `json:"level" proto:"required,nonempty"`
	// Text is the line as the console formatted it.
	Text string `json:"text" proto:"required"`
}

// ResultMessage is the outcome of an execute or an invokeHandle: the
// program's value as JSON, or its failure, and the console lines it
// captured. A result with neither ResultJSON nor Error returned
// undefined.
type ResultMessage struct {
	// ID is the id of the request it answers.
	ID string `json:"id" proto:"required,nonempty"`
	// ResultJSON is the JSON of the program's value.
	ResultJSON json.RawMessage `json:"resultJson,omitempty"`
	// Error is the failure. Its Code is empty for a failure of the
	// program itself (a throw, a syntax error).
	Error *Error `json:"error,omitempty"`
	// Logs are the captured console lines.
	Logs []LogLine `json:"logs,omitzero"`
	// ExecutionID names the retained execution, when the request asked
	// to retain handles and the run granted them.
	ExecutionID string `json:"executionId,omitempty"`
	// Handles are the names of the retained execution's handles.
	Handles []string `json:"handles,omitzero"`
	// State is the run saved instead of finished, when Error's code is
	// SUSPENDED: send it back in a [ResumeMessage], to this server or
	// another, to continue the run.
	State Base64 `json:"state,omitzero"`
}

func (m ResultMessage) validate() error {
	switch {
	case m.ResultJSON != nil && m.Error != nil:
		return errors.New(`a result has both "resultJson" and "error"`)
	case len(m.Handles) > 0 && m.ExecutionID == "":
		return errors.New(`a result has "handles" without an "executionId"`)
	case len(m.State) > 0 && (m.Error == nil || m.Error.Code != CodeSuspended):
		return errors.New(`a result has a "state" without an error of code SUSPENDED`)
	}
	return nil
}

// DispatchMessage carries one tool call of an execution. The client
// answers with a [DispatchResultMessage] of the same id and callId.
type DispatchMessage struct {
	// ID is the execution's id.
	ID string `json:"id" proto:"required,nonempty"`
	// CallID names the call within the connection.
	CallID string `json:"callId" proto:"required,nonempty"`
	// Provider is the provider's name.
	Provider string `json:"provider" proto:"required,nonempty"`
	// Tool is the tool's name.
	Tool string `json:"tool" proto:"required,nonempty"`
	// Args is the arguments text, as [ParseDispatchArguments] reads it.
	Args string `json:"args" proto:"required"`
}

// DispatchResultMessage answers a tool call with its envelope.
type DispatchResultMessage struct {
	// ID is the execution's id.
	ID string `json:"id" proto:"required,nonempty"`
	// CallID is the callId of the dispatch it answers.
	CallID string `json:"callId" proto:"required,nonempty"`
	// Envelope is the envelope JSON, as [ParseEnvelope] reads it.
	Envelope string `json:"envelope" proto:"required"`
}

func (m DispatchResultMessage) validate() error {
	if _, _, _, err := ParseEnvelope(m.Envelope); err != nil {
		return fmt.Errorf(`"envelope" is not an envelope: %s`, strings.TrimPrefix(err.Error(), "malformed envelope: "))
	}
	return nil
}

// InvokeHandleMessage calls one handle of a retained execution. The
// server answers with a [ResultMessage] of the same id, or with an
// [ErrorMessage] of [CodeUnknownExecution].
type InvokeHandleMessage struct {
	// ID correlates the answer.
	ID string `json:"id" proto:"required,nonempty"`
	// ExecutionID names the retained execution.
	ExecutionID string `json:"executionId" proto:"required,nonempty"`
	// Handle names the handle.
	Handle string `json:"handle" proto:"required,nonempty"`
	// Args is the arguments text, as [ParseDispatchArguments] reads it.
	Args string `json:"args,omitempty"`
}

// CloseHandlesMessage releases a retained execution. The server answers
// with an empty [ResultMessage] of the same id, or with an
// [ErrorMessage] of [CodeUnknownExecution].
type CloseHandlesMessage struct {
	// ID correlates the answer.
	ID string `json:"id" proto:"required,nonempty"`
	// ExecutionID names the retained execution.
	ExecutionID string `json:"executionId" proto:"required,nonempty"`
}

// CancelMessage cancels the execution of the same id. The execution's
// [ResultMessage] then carries an error of [CodeCancelled], unless the run
// had already finished.
type CancelMessage struct {
	// ID is the id of the execute to cancel.
	ID string `json:"id" proto:"required,nonempty"`
}

// ErrorMessage reports a failure no result carries: a refused hello, a
// malformed frame, an unknown execution. Its ID is the id of the
// message that failed, when one was read.
type ErrorMessage struct {
	// ID is the id of the message that failed, or empty.
	ID string `json:"id,omitempty"`
	// Code is the kind of failure.
	Code Code `json:"code" proto:"required,nonempty"`
	// Message is the failure text.
	Message string `json:"message" proto:"required"`
}

// Err returns m as an *Error.
func (m ErrorMessage) Err() *Error { return &Error{Code: m.Code, Message: m.Message} }

// FetchMessage carries one outbound request of an execution whose
// outbound mode is stub. The client performs it and answers with a
// [FetchResultMessage] of the same id and callId.
type FetchMessage struct {
	// ID is the execution's id.
	ID string `json:"id" proto:"required,nonempty"`
	// CallID names the request within the connection.
	CallID string `json:"callId" proto:"required,nonempty"`
	// Request is the request.
	Request OutboundRequest `json:"request" proto:"required"`
}

// FetchResultMessage answers a fetch: the response, or the error text of
// a request that failed (the program's fetch rejects with it).
type FetchResultMessage struct {
	// ID is the execution's id.
	ID string `json:"id" proto:"required,nonempty"`
	// CallID is the callId of the fetch it answers.
	CallID string `json:"callId" proto:"required,nonempty"`
	// Response is the response, when the request was performed.
	Response *OutboundResponse `json:"response,omitempty"`
	// Error is why the request failed, when it was not performed.
	Error string `json:"error,omitempty"`
}

func (m FetchResultMessage) validate() error {
	if (m.Response == nil) == (m.Error == "") {
		return errors.New(`a fetch result has exactly one of "response" and "error"`)
	}
	return nil
}

// ResumeMessage continues a run saved in a result's state, on this
// server or another built from the same version. The server answers as
// for an execute: dispatches of the same id, then a [ResultMessage].
type ResumeMessage struct {
	// ID names the resumed execution on this connection.
	ID string `json:"id" proto:"required,nonempty"`
	// State is the saved run, as the SUSPENDED result carried it.
	State Base64 `json:"state" proto:"required"`
	// Providers must be the providers the run was started with.
	Providers []ProviderDescriptor `json:"providers,omitzero"`
	// Options shape the resumed run; Timeout counts the run's earlier
	// active time too.
	Options ExecuteOptions `json:"options,omitzero"`
}

// NewErrorMessage returns the error message reporting err for the
// message of the given id. The code is err's ([CodeOf]), or
// [CodeInternal] when it has none.
func NewErrorMessage(id string, err error) *ErrorMessage {
	code := CodeOf(err)
	if code == "" {
		code = CodeInternal
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	return &ErrorMessage{ID: id, Code: code, Message: msg}
}

// The Message methods.

// Type returns [TypeHello].
func (HelloMessage) Type() MessageType { return TypeHello }

// Type returns [TypeHelloAck].
func (HelloAckMessage) Type() MessageType { return TypeHelloAck }

// Type returns [TypeExecute].
func (ExecuteMessage) Type() MessageType { return TypeExecute }

// Type returns [TypeResult].
func (ResultMessage) Type() MessageType { return TypeResult }

// Type returns [TypeDispatch].
func (DispatchMessage) Type() MessageType { return TypeDispatch }

// Type returns [TypeDispatchResult].
func (DispatchResultMessage) Type() MessageType { return TypeDispatchResult }

// Type returns [TypeInvokeHandle].
func (InvokeHandleMessage) Type() MessageType { return TypeInvokeHandle }

// Type returns [TypeCloseHandles].
func (CloseHandlesMessage) Type() MessageType { return TypeCloseHandles }

// Type returns [TypeCancel].
func (CancelMessage) Type() MessageType { return TypeCancel }

// Type returns [TypeError].
func (ErrorMessage) Type() MessageType { return TypeError }

// Type returns [TypeFetch].
func (FetchMessage) Type() MessageType { return TypeFetch }

// Type returns [TypeFetchResult].
func (FetchResultMessage) Type() MessageType { return TypeFetchResult }

// Type returns [TypeResume].
func (ResumeMessage) Type() MessageType { return TypeResume }

// CorrelationID returns m.ID.
func (m HelloMessage) CorrelationID() string { return m.ID }

// CorrelationID returns m.ID.
func (m HelloAckMessage) CorrelationID() string { return m.ID }

// CorrelationID returns m.ID.
func (m ExecuteMessage) CorrelationID() string { return m.ID }

// CorrelationID returns m.ID.
func (m ResultMessage) CorrelationID() string { return m.ID }

// CorrelationID returns m.ID.
func (m DispatchMessage) CorrelationID() string { return m.ID }

// CorrelationID returns m.ID.
func (m DispatchResultMessage) CorrelationID() string { return m.ID }

// CorrelationID returns m.ID.
func (m InvokeHandleMessage) CorrelationID() string { return m.ID }

// CorrelationID returns m.ID.
func (m CloseHandlesMessage) CorrelationID() string { return m.ID }

// CorrelationID returns m.ID.
func (m CancelMessage) CorrelationID() string { return m.ID }

// CorrelationID returns m.ID.
func (m ErrorMessage) CorrelationID() string { return m.ID }

// CorrelationID returns m.ID.
func (m FetchMessage) CorrelationID() string { return m.ID }

// CorrelationID returns m.ID.
func (m FetchResultMessage) CorrelationID() string { return m.ID }

// CorrelationID returns m.ID.
func (m ResumeMessage) CorrelationID() string { return m.ID }

func (HelloMessage) isMessage()          {}
func (HelloAckMessage) isMessage()       {}
func (ExecuteMessage) isMessage()        {}
func (ResultMessage) isMessage()         {}
func (DispatchMessage) isMessage()       {}
func (DispatchResultMessage) isMessage() {}
func (InvokeHandleMessage) isMessage()   {}
func (CloseHandlesMessage) isMessage()   {}
func (CancelMessage) isMessage()         {}
func (ErrorMessage) isMessage()          {}
func (FetchMessage) isMessage()          {}
func (FetchResultMessage) isMessage()    {}
func (ResumeMessage) isMessage()         {}

// newMessage returns a new message of type t, or nil for an unknown type.
func newMessage(t MessageType) Message {
	switch t {
	case TypeHello:
		return &HelloMessage{}
	case TypeHelloAck:
		return &HelloAckMessage{}
	case TypeExecute:
		return &ExecuteMessage{}
	case TypeResult:
		return &ResultMessage{}
	case TypeDispatch:
		return &DispatchMessage{}
	case TypeDispatchResult:
		return &DispatchResultMessage{}
	case TypeInvokeHandle:
		return &InvokeHandleMessage{}
	case TypeCloseHandles:
		return &CloseHandlesMessage{}
	case TypeCancel:
		return &CancelMessage{}
	case TypeError:
		return &ErrorMessage{}
	case TypeFetch:
		return &FetchMessage{}
	case TypeFetchResult:
		return &FetchResultMessage{}
	case TypeResume:
		return &ResumeMessage{}
	}
	return nil
}

// Decode reads one frame as a message, refusing a frame over
// [MaxFrameSize]; see [DecodeLimit].
func Decode(frame []byte) (Message, error) { return DecodeLimit(frame, MaxFrameSize) }

// DecodeLimit reads one frame as a message: a pointer to one of the
// *Message types. A frame over limit bytes is an *Error with
// [CodePayloadTooLarge]. Anything but exactly one JSON object of a known
// "type" with every required field, of the right JSON types, and no
// other field is an *Error with [CodeMalformedMessage]: field names match
// exactly, a key given twice is refused, and so are null for a field that
// is not nullable and trailing data after the object. Raw JSON values
// (resultJson, provider schemas, json modules) are checked to be JSON and
// compacted, and are otherwise opaque.
func DecodeLimit(frame []byte, limit int) (Message, error) {
	if len(frame) > limit {
		return nil, Errorf(CodePayloadTooLarge, "message of %d bytes exceeds the limit of %d bytes", len(frame), limit)
	}
	fields, err := decodeObject(frame)
	if err != nil {
		return nil, malformed(err)
	}
	rawType, ok := fields["type"]
	if !ok {
		return nil, malformed(errors.New(`"type" is missing`))
	}
	var t string
	if jsonKind(rawType) != "a string" || json.Unmarshal(rawType, &t) != nil {
		return nil, malformed(fmt.Errorf(`"type" must be a string, not %s`, jsonKind(rawType)))
	}
	m := newMessage(MessageType(t))
	if m == nil {
		return nil, malformed(fmt.Errorf("unknown message type %q", t))
	}
	if err := decodeFields("", fields, reflect.ValueOf(m), "type"); err != nil {
		return nil, malformed(err)
	}
	return m, nil
}

func malformed(err error) *Error {
	return Errorf(CodeMalformedMessage, "malformed message: %v", err)
}

// PeekID returns the "id" of a frame that may not decode, for an
// [ErrorMessage] answering it: the id when the frame is a JSON object
// whose "id" is a string, and "" otherwise.
func PeekID(frame []byte) string {
	var probe map[string]json.RawMessage // keys match exactly
	if json.Unmarshal(frame, &probe) != nil {
		return ""
	}
	var id string
	if raw := probe["id"]; jsonKind(raw) != "a string" || json.Unmarshal(raw, &id) != nil {
		return ""
	}
	return id
}

// Encode renders a message as one frame, checking first what [Decode]
// would check: required fields that must not be empty, the known
// outbound modes, positive timeouts, well-formed module sources and
// envelopes. A message that fails is an *Error with
// [CodeMalformedMessage]. What Encode returns, Decode reads back as an
// equal message.
func Encode(m Message) ([]byte, error) {
	if err := checkMessage(m); err != nil {
		return nil, err
	}
	b, err := marshalNoEscape(m)
	if err != nil {
		var me *json.MarshalerError
		if errors.As(err, &me) {
			err = me.Unwrap()
		}
		return nil, Errorf(CodeMalformedMessage, "message cannot be encoded: %v", err)
	}
	return b, nil
}

// checkMessage runs the checks of Encode.
func checkMessage(m Message) error {
	v := reflect.ValueOf(m)
	if m == nil || (v.Kind() == reflect.Pointer && v.IsNil()) {
		return NewError(CodeMalformedMessage, "message cannot be encoded: it is nil")
	}
	v = reflect.Indirect(v)
	if err := checkStruct("", v); err != nil {
		return Errorf(CodeMalformedMessage, "message cannot be encoded: %v", err)
	}
	if x, ok := m.(validator); ok {
		if err := x.validate(); err != nil {
			return Errorf(CodeMalformedMessage, "message cannot be encoded: %v", err)
		}
	}
	return nil
}

// marshalMessage renders plain, a message's fields, with the "type" key
// first.
func marshalMessage(m Message, plain any) ([]byte, error) {
	if err := checkMessage(m); err != nil {
		return nil, err
	}
	body, err := marshalNoEscape(plain)
	if err != nil {
		return nil, err
	}
	head := fmt.Appendf(nil, `{"type":%q`, string(m.Type()))
	if len(body) > 2 {
		head = append(head, ',')
	}
	return append(head, body[1:]...), nil
}

// unmarshalMessage decodes data into m as DecodeLimit would, requiring
// data's "type" to be m's.
func unmarshalMessage(data []byte, m Message) error {
	got, err := DecodeLimit(data, len(data))
	if err != nil {
		return err
	}
	if got.Type() != m.Type() {
		return malformed(fmt.Errorf("type %q where %q was expected", got.Type(), m.Type()))
	}
	reflect.ValueOf(m).Elem().Set(reflect.ValueOf(got).Elem())
	return nil
}

// MarshalJSON renders m with its "type".
func (m HelloMessage) MarshalJSON() ([]byte, error) {
	type plain HelloMessage
	return marshalMessage(m, plain(m))
}

// MarshalJSON renders m with its "type".
func (m HelloAckMessage) MarshalJSON() ([]byte, error) {
	type plain HelloAckMessage
	return marshalMessage(m, plain(m))
}

// MarshalJSON renders m with its "type".
func (m ExecuteMessage) MarshalJSON() ([]byte, error) {
	type plain ExecuteMessage
	return marshalMessage(m, plain(m))
}

// MarshalJSON renders m with its "type".
func (m ResultMessage) MarshalJSON() ([]byte, error) {
	type plain ResultMessage
	return marshalMessage(m, plain(m))
}

// MarshalJSON renders m with its "type".
func (m DispatchMessage) MarshalJSON() ([]byte, error) {
	type plain DispatchMessage
	return marshalMessage(m, plain(m))
}

// MarshalJSON renders m with its "type".
func (m DispatchResultMessage) MarshalJSON() ([]byte, error) {
	type plain DispatchResultMessage
	return marshalMessage(m, plain(m))
}

// MarshalJSON renders m with its "type".
func (m InvokeHandleMessage) MarshalJSON() ([]byte, error) {
	type plain InvokeHandleMessage
	return marshalMessage(m, plain(m))
}

// MarshalJSON renders m with its "type".
func (m CloseHandlesMessage) MarshalJSON() ([]byte, error) {
	type plain CloseHandlesMessage
	return marshalMessage(m, plain(m))
}

// MarshalJSON renders m with its "type".
func (m CancelMessage) MarshalJSON() ([]byte, error) {
	type plain CancelMessage
	return marshalMessage(m, plain(m))
}

// MarshalJSON renders m with its "type".
func (m ErrorMessage) MarshalJSON() ([]byte, error) {
	type plain ErrorMessage
	return marshalMessage(m, plain(m))
}

// UnmarshalJSON decodes m as strictly as [Decode], requiring its type.
func (m *HelloMessage) UnmarshalJSON(data []byte) error { return unmarshalMessage(data, m) }

// UnmarshalJSON decodes m as strictly as [Decode], requiring its type.
func (m *HelloAckMessage) UnmarshalJSON(data []byte) error { return unmarshalMessage(data, m) }

// UnmarshalJSON decodes m as strictly as [Decode], requiring its type.
func (m *ExecuteMessage) UnmarshalJSON(data []byte) error { return unmarshalMessage(data, m) }

// UnmarshalJSON decodes m as strictly as [Decode], requiring its type.
func (m *ResultMessage) UnmarshalJSON(data []byte) error { return unmarshalMessage(data, m) }

// UnmarshalJSON decodes m as strictly as [Decode], requiring its type.
func (m *DispatchMessage) UnmarshalJSON(data []byte) error { return unmarshalMessage(data, m) }

// UnmarshalJSON decodes m as strictly as [Decode], requiring its type.
func (m *DispatchResultMessage) UnmarshalJSON(data []byte) error {
	return unmarshalMessage(data, m)
}

// UnmarshalJSON decodes m as strictly as [Decode], requiring its type.
func (m *InvokeHandleMessage) UnmarshalJSON(data []byte) error { return unmarshalMessage(data, m) }

// UnmarshalJSON decodes m as strictly as [Decode], requiring its type.
func (m *CloseHandlesMessage) UnmarshalJSON(data []byte) error { return unmarshalMessage(data, m) }

// UnmarshalJSON decodes m as strictly as [Decode], requiring its type.
func (m *CancelMessage) UnmarshalJSON(data []byte) error { return unmarshalMessage(data, m) }

// UnmarshalJSON decodes m as strictly as [Decode], requiring its type.
func (m *ErrorMessage) UnmarshalJSON(data []byte) error { return unmarshalMessage(data, m) }

// MarshalJSON renders m with its "type".
func (m FetchMessage) MarshalJSON() ([]byte, error) {
	type plain FetchMessage
	return marshalMessage(m, plain(m))
}

// MarshalJSON renders m with its "type".
func (m FetchResultMessage) MarshalJSON() ([]byte, error) {
	type plain FetchResultMessage
	return marshalMessage(m, plain(m))
}

// MarshalJSON renders m with its "type".
func (m ResumeMessage) MarshalJSON() ([]byte, error) {
	type plain ResumeMessage
	return marshalMessage(m, plain(m))
}

// UnmarshalJSON decodes m as strictly as [Decode], requiring its type.
func (m *FetchMessage) UnmarshalJSON(data []byte) error { return unmarshalMessage(data, m) }

// UnmarshalJSON decodes m as strictly as [Decode], requiring its type.
func (m *FetchResultMessage) UnmarshalJSON(data []byte) error { return unmarshalMessage(data, m) }

// UnmarshalJSON decodes m as strictly as [Decode], requiring its type.
func (m *ResumeMessage) UnmarshalJSON(data []byte) error { return unmarshalMessage(data, m) }
