package protocol

import "time"

// Version is the protocol version this package speaks. The handshake
// requires the two sides' versions to be exactly equal; see
// [AssertCompatible].
const Version = 1

// DefaultTimeoutMillis is [DefaultTimeout] in milliseconds, the form the
// wire carries.
const DefaultTimeoutMillis = 60000

// DefaultTimeout bounds a run when neither the request nor the server
// names a timeout: one minute.
const DefaultTimeout = DefaultTimeoutMillis * time.Millisecond

// MaxSupportedTimeoutMillis is [MaxSupportedTimeout] in milliseconds: the
// widest delay a 32-bit timer accepts, close to 25 days.
const MaxSupportedTimeoutMillis = 2147483647

// MaxSupportedTimeout is the widest timeout any side supports. A request
// whose timeout is null lifts the bound to the largest value the serving
// side supports, never above this.
const MaxSupportedTimeout = MaxSupportedTimeoutMillis * time.Millisecond

// PayloadLimit is the largest single value one execution may send
// outward, in characters: 8 × 1024 × 1024.
const PayloadLimit = 8388608

// ConsoleCaptureLimit is the most console text one run captures, in
// characters, over all its lines: 2 × 1024 × 1024.
const ConsoleCaptureLimit = 2097152

// ConsoleCaptureMessage is the final warn line of a run that filled its
// console capture. It is composed from [ConsoleCaptureLimit] (Go has no
// constant integer formatting, so the digits are spelled out here and a
// test pins them to the limit).
const ConsoleCaptureMessage = "Console output exceeded 2097152 characters; further output was dropped."

// TimeoutMessage is the error text of a run that exceeded its timeout.
const TimeoutMessage = "Execution timed out"

// ExecutionCompletedMessage is the error text of a tool call that arrives
// after its execution finished.
const ExecutionCompletedMessage = "Execution has already completed."

// ExecutionCompletedEnvelope is the dispatch envelope carrying
// [ExecutionCompletedMessage], the exact answer of a closed
// [EnvelopeDispatch].
const ExecutionCompletedEnvelope = `{"error":"Execution has already completed."}`

// DefaultGraceMillis is [DefaultGrace] in milliseconds.
const DefaultGraceMillis = 1000

// DefaultGrace is the grace period after a run's bound, during which a
// run that has timed out may still unwind before it is stopped by force.
const DefaultGrace = DefaultGraceMillis * time.Millisecond

// HandlesIdleTimeoutMillis is [HandlesIdleTimeout] in milliseconds.
const HandlesIdleTimeoutMillis = 300000

// HandlesIdleTimeout is how long a retained execution survives with no
// handle invocation before it is released: five minutes.
const HandlesIdleTimeout = HandlesIdleTimeoutMillis * time.Millisecond

// MaxFrameSize is the default bound of one wire frame, in bytes, that
// [Decode] enforces. It leaves room for a value at [PayloadLimit] and a
// full console capture at [ConsoleCaptureLimit] even when every
// character is escaped as six bytes (\u0000).
const MaxFrameSize = 64 << 20
