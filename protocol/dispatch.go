package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// isBlank reports whether s is empty or holds JSON whitespace only.
func isBlank(s string) bool { return strings.Trim(s, " \t\r\n") == "" }

// ParseDispatchArguments turns the arguments text of a tool call into the
// argument list: the empty string, or JSON whitespace alone, is no
// arguments; a JSON array is the list itself; any other JSON value is one
// argument. Values decode as by [ParseForDispatch], binary included.
// Text that is not one JSON value, or that holds a number beyond the
// range of float64, is an *Error with [CodeMalformedMessage].
func ParseDispatchArguments(argsJSON string) ([]any, error) {
	if isBlank(argsJSON) {
		return []any{}, nil
	}
	v, err := ParseForDispatch(argsJSON)
	if err != nil {
		if json.Valid([]byte(argsJSON)) { // a number beyond float64
			return nil, Errorf(CodeMalformedMessage, "tool arguments cannot be decoded: %v", err)
		}
		return nil, Errorf(CodeMalformedMessage, "tool arguments are not valid JSON: %v", err)
	}
	if list, ok := v.([]any); ok {
		return list, nil
	}
	return []any{v}, nil
}

// ParseDispatchArgumentsRaw is [ParseDispatchArguments] for a host that
// decodes each argument into a type of its own: the arguments come back
// as JSON texts, binary tags untouched (a [Binary] field decodes them).
func ParseDispatchArgumentsRaw(argsJSON string) ([]json.RawMessage, error) {
	if isBlank(argsJSON) {
		return []json.RawMessage{}, nil
	}
	if !json.Valid([]byte(argsJSON)) {
		var v any
		err := json.Unmarshal([]byte(argsJSON), &v)
		return nil, Errorf(CodeMalformedMessage, "tool arguments are not valid JSON: %v", err)
	}
	trimmed := strings.TrimLeft(argsJSON, " \t\r\n")
	if trimmed[0] != '[' {
		return []json.RawMessage{json.RawMessage(strings.TrimRight(trimmed, " \t\r\n"))}, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal([]byte(argsJSON), &list); err != nil {
		return nil, Errorf(CodeMalformedMessage, "tool arguments are not valid JSON: %v", err)
	}
	return list, nil
}

// Envelope is the answer to a tool call: exactly one of Result, the
// value's JSON text, and Error, the failure text. A Result of null is the
// value null, which differs from an absent Result.
type Envelope struct {
	// Result is the JSON text of the tool's value.
	Result json.RawMessage `json:"result,omitempty"`
	// Error is the text of the tool's failure.
	Error *string `json:"error,omitempty"`
}

// MarshalJSON encodes e, refusing an envelope with neither or both
// fields.
func (e Envelope) MarshalJSON() ([]byte, error) {
	switch {
	case e.Result != nil && e.Error != nil:
		return nil, errors.New("envelope has both a result and an error")
	case e.Error != nil:
		return []byte(ErrorEnvelope(*e.Error)), nil
	case e.Result != nil:
		if !json.Valid(e.Result) {
			return nil, errors.New("envelope result is not valid JSON")
		}
		return marshalNoEscape(struct {
			Result json.RawMessage `json:"result"`
		}{e.Result})
	}
	return nil, errors.New("envelope has neither a result nor an error")
}

// UnmarshalJSON decodes an envelope as strictly as [ParseEnvelope].
func (e *Envelope) UnmarshalJSON(data []byte) error {
	result, msg, isErr, err := ParseEnvelope(string(data))
	if err != nil {
		return err
	}
	if isErr {
		*e = Envelope{Error: &msg}
	} else {
		*e = Envelope{Result: result}
	}
	return nil
}

// ResultEnvelope returns the envelope {"result": <v>}, v encoded by
// [StringifyForDispatch].
func ResultEnvelope(v any) (string, error) {
	s, err := StringifyForDispatch(v)
	if err != nil {
		return "", err
	}
	return `{"result":` + s + `}`, nil
}

// ErrorEnvelope returns the envelope {"error": "<msg>"}.
func ErrorEnvelope(msg string) string {
	b, _ := marshalNoEscape(msg) // a string always encodes
	return `{"error":` + string(b) + `}`
}

// ParseEnvelope reads an envelope. For {"result": <v>} it returns v's
// JSON text as result; for {"error": "<text>"} it returns the text as
// errMsg with isErr true. Anything else is an *Error with
// [CodeMalformedMessage]: text that is not one JSON object, an object
// with neither key, with both, with another key or a key twice, or an
// error that is not a string.
func ParseEnvelope(s string) (result json.RawMessage, errMsg string, isErr bool, err error) {
	fields, derr := decodeObject([]byte(s))
	if derr != nil {
		return nil, "", false, Errorf(CodeMalformedMessage, "malformed envelope: %s", derr.Error())
	}
	r, hasResult := fields["result"]
	e, hasError := fields["error"]
	for k := range fields {
		if k != "result" && k != "error" {
			return nil, "", false, Errorf(CodeMalformedMessage, "malformed envelope: unknown field %q", k)
		}
	}
	switch {
	case hasResult && hasError:
		return nil, "", false, NewError(CodeMalformedMessage, "malformed envelope: it has both a result and an error")
	case hasError:
		if err := json.Unmarshal(e, &errMsg); err != nil || string(e) == "null" {
			return nil, "", false, NewError(CodeMalformedMessage, `malformed envelope: "error" must be a string`)
		}
		return nil, errMsg, true, nil
	case hasResult:
		return r, "", false, nil
	}
	return nil, "", false, NewError(CodeMalformedMessage, "malformed envelope: it has neither a result nor an error")
}

// Responder answers one tool call: the provider and tool named, and the
// arguments as [ParseDispatchArguments] decodes them. Its value becomes
// the call's result and its error the call's error text.
type Responder func(ctx context.Context, provider, tool string, args []any) (any, error)

// EnvelopeDispatch wraps a [Responder] into a dispatcher that speaks the
// envelope grammar, for the duration of one execution. It is safe for
// concurrent use.
type EnvelopeDispatch struct {
	respond Responder
	ctx     context.Context // cancelled by Close
	close   context.CancelCauseFunc
}

// errCompleted is the cause a Close gives the contexts of the calls still
// in flight.
var errCompleted = NewError(CodeCancelled, ExecutionCompletedMessage)

// NewEnvelopeDispatch returns a dispatcher around respond. It panics when
// respond is nil.
func NewEnvelopeDispatch(respond Responder) *EnvelopeDispatch {
	if respond == nil {
		panic("protocol: NewEnvelopeDispatch with a nil Responder")
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	return &EnvelopeDispatch{respond: respond, ctx: ctx, close: cancel}
}

// Dispatch answers one tool call with its envelope JSON. It serializes
// {"result"} from what the responder returns and {"error"} from the error
// it returns or the panic it raises (a panic never escapes). Arguments
// that are not valid JSON are an {"error"} without a call. Once Close has
// been called, every Dispatch returns [ExecutionCompletedEnvelope]
// without calling the responder; a call already in flight then sees its
// context cancelled, with an *Error of [CodeCancelled] as the cause, and
// still answers with what its responder returns.
func (d *EnvelopeDispatch) Dispatch(ctx context.Context, provider, tool, argsJSON string) string {
	if d.ctx.Err() != nil {
		return ExecutionCompletedEnvelope
	}
	args, err := ParseDispatchArguments(argsJSON)
	if err != nil {
		return ErrorEnvelope(fmt.Sprintf("tool %s.%s: %s", provider, tool, err.Error()))
	}
	if ctx == nil {
		ctx = context.Background()
	}
	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(d.ctx, func() { cancel(errCompleted) })
	defer stop()

	v, err := d.call(callCtx, provider, tool, args)
	if err != nil {
		return ErrorEnvelope(err.Error())
	}
	env, err := ResultEnvelope(v)
	if err != nil {
		return ErrorEnvelope(fmt.Sprintf("tool %s.%s returned a value that cannot cross as JSON: %v", provider, tool, err))
	}
	return env
}

// call runs the responder, turning a panic into an error.
func (d *EnvelopeDispatch) call(ctx context.Context, provider, tool string, args []any) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, fmt.Errorf("tool %s.%s panicked: %v", provider, tool, p)
		}
	}()
	v, err = d.respond(ctx, provider, tool, args)
	if err == nil {
		return v, nil
	}
	if msg := err.Error(); msg != "" {
		return nil, err
	}
	return nil, fmt.Errorf("tool %s.%s failed", provider, tool)
}

// Close ends the execution: every later Dispatch returns
// [ExecutionCompletedEnvelope] without calling the responder, and the
// calls in flight see their contexts cancelled. Close is idempotent.
func (d *EnvelopeDispatch) Close() { d.close(errCompleted) }

// Closed reports whether Close has been called.
func (d *EnvelopeDispatch) Closed() bool { return d.ctx.Err() != nil }
