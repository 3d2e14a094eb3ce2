// The contract's numbers and pinned texts, as protocol/constants.go declares
// them. A test pins each one to the Go source.

/** The protocol version: the handshake requires both sides to speak exactly this one. */
export const PROTOCOL_VERSION = 1

/** The run bound, in milliseconds, when neither the request nor the server names one. */
export const DEFAULT_TIMEOUT = 60000

/** The widest timeout any side supports, in milliseconds (a 32-bit timer's largest delay). */
export const MAX_SUPPORTED_TIMEOUT = 2147483647

/** The largest single value one execution may send outward, in characters. */
export const PAYLOAD_LIMIT = 8388608

/** The most console text one run captures, in characters. */
export const CONSOLE_CAPTURE_LIMIT = 2097152

/** The final warn line of a run that filled its console capture. */
export const CONSOLE_CAPTURE_MESSAGE = `Console output exceeded ${CONSOLE_CAPTURE_LIMIT} characters; further output was dropped.`

/** The error text of a run that exceeded its timeout. */
export const TIMEOUT_MESSAGE = 'Execution timed out'

/** The error text of a tool call that arrives after its execution finished. */
export const EXECUTION_COMPLETED_MESSAGE = 'Execution has already completed.'

/** How long a retained execution survives on the server without an invocation, in milliseconds. */
export const HANDLES_IDLE_TIMEOUT = 300000

/** The default bound of one wire frame, in bytes, that the server enforces. */
export const MAX_FRAME_SIZE = 64 * 1024 * 1024

/** The key of the object a binary value crosses the dispatch grammar as. */
export const BINARY_TAG = '$binary'
