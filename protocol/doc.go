// Package protocol is the executor contract of codemode: the numbers and
// pinned texts both sides of an executor agree on, the error codes a
// failure carries, the rules a provider declaration must satisfy, the
// codec tool calls cross in, the module map a program may import from,
// and the JSON messages of the executor wire protocol.
//
// The package uses the standard library only and names no runtime, so a
// host, a server and a client all import it without importing the
// interpreter.
//
// # Tool calls
//
// A program calls a tool as provider.tool(...args). The call reaches the
// host as three strings and one JSON text: the provider name, the tool
// name and the arguments (see [ParseDispatchArguments]). The host answers
// with an envelope, {"result": <value>} or {"error": "<text>"} (see
// [ResultEnvelope], [ErrorEnvelope] and [ParseEnvelope]).
// [NewEnvelopeDispatch] wraps a plain Go responder into a dispatcher that
// speaks that grammar and that refuses every call once its execution has
// completed.
//
// Binary values cross the dispatch grammar as {"$binary":"<base64>"}; see
// [StringifyForDispatch] and [Binary].
//
// # Wire messages
//
// The wire protocol sends one JSON object per frame. Every object names
// its kind in "type" and carries an "id" that correlates a request with
// its answer. [Decode] turns a frame into a [Message] and refuses anything
// that is not exactly one well-formed message; [Encode] is its inverse.
package protocol
