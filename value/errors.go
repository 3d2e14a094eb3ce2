package value

import "fmt"

// Exception is a JavaScript throw in flight. The library and the engines
// throw by panicking with *Exception; try/catch and the run boundary
// recover it. Any other panic inside a run is a bug.
type Exception struct {
	Value Value
}

func (e *Exception) Error() string { return "uncaught exception" }

// Interrupt stops a run from the inside: a deadline, a memory budget, a
// cancelled context. Programs cannot catch it; it unwinds to the run
// boundary, which reports Kind and Message.
type Interrupt struct {
	Kind    string
	Message string
}

func (i *Interrupt) Error() string { return i.Message }

// ErrorData is the Internal of error objects.
type ErrorData struct {
	// Raised marks errors the runtime made (not `new Error` in the
	// program): their diagnostics carry the location.
	Raised bool
	// Pos is where a raised error happened (source offset), or -1.
	Pos int
	// Kind overrides the diagnostic kind of an uncaught raised error
	// (InvalidDataValue, UnsupportedSyntax, ...); empty means the default.
	Kind string
	// Suggestions go with the diagnostic of an uncaught error.
	Suggestions []string
}

// ErrorType names the native error constructors.
type ErrorType uint8

// The error types.
const (
	Error ErrorType = iota
	TypeError
	RangeError
	SyntaxError
	ReferenceError
	EvalError
	URIError
	AggregateError
)

var errorProtos = [...]Intrinsic{ErrorPrototype, TypeErrorPrototype, RangeErrorPrototype, SyntaxErrorPrototype,
	ReferenceErrorPrototype, EvalErrorPrototype, URIErrorPrototype, AggregateErrorPrototype}

// ErrorTypeNames are the constructor names of the error types.
var ErrorTypeNames = [...]string{"Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError", "AggregateError"}

// Proto is the intrinsic prototype of the error type.
func (t ErrorType) Proto() Intrinsic { return errorProtos[t] }

// NewError makes an error object of type t with message msg, as the
// program's `new T(msg)` would (not marked as raised).
func (r *Realm) NewError(t ErrorType, msg string) *Object {
	o := NewObject(r.Intrinsic(errorProtos[t]))
	o.Class = ClassError
	o.Internal = &ErrorData{Pos: -1}
	o.Define("message", StrOf(msg), Writable|Configurable)
	return o
}

// RaisedError makes an error the runtime raises: it records where (the
// agent's current position) so the diagnostic can say.
func (r *Realm) RaisedError(t ErrorType, msg string) *Object {
	o := r.NewError(t, msg)
	d := o.Internal.(*ErrorData)
	d.Raised = true
	if r.Agent != nil {
		d.Pos = r.Agent.Pos()
	}
	return o
}

// Throw throws v.
func (r *Realm) Throw(v Value) { panic(&Exception{Value: v}) }

// ThrowError throws a raised error of type t.
func (r *Realm) ThrowError(t ErrorType, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	panic(&Exception{Value: Obj(r.RaisedError(t, msg))})
}

// ThrowType throws a raised TypeError.
func (r *Realm) ThrowType(format string, args ...any) { r.ThrowError(TypeError, format, args...) }

// ThrowRange throws a raised RangeError.
func (r *Realm) ThrowRange(format string, args ...any) { r.ThrowError(RangeError, format, args...) }

// ThrowKind throws a raised TypeError whose uncaught diagnostic has the
// given kind (InvalidDataValue).
func (r *Realm) ThrowKind(kind string, t ErrorType, format string, args ...any) {
	o := r.RaisedError(t, fmt.Sprintf(format, args...))
	o.Internal.(*ErrorData).Kind = kind
	panic(&Exception{Value: Obj(o)})
}

// IsError reports whether v is an error object.
func IsError(v Value) bool {
	o := v.AsObject()
	return o != nil && o.Class == ClassError
}

// ErrorInfo returns the ErrorData of an error object, or nil.
func ErrorInfo(v Value) *ErrorData {
	o := v.AsObject()
	if o == nil {
		return nil
	}
	d, _ := o.Internal.(*ErrorData)
	return d
}
