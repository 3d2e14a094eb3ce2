// Public types of @go-codemode/client. docs/protocol.md in the repository is
// the wire contract behind them.

/** The protocol version: the handshake requires both sides to speak exactly this one. */
export const PROTOCOL_VERSION: 1
/** The run bound, in milliseconds, when neither the request nor the server names one. */
export const DEFAULT_TIMEOUT: 60000
/** The widest timeout any side supports, in milliseconds. */
export const MAX_SUPPORTED_TIMEOUT: 2147483647
/** The largest single value one execution may send outward, in characters. */
export const PAYLOAD_LIMIT: 8388608
/** The most console text one run captures, in characters. */
export const CONSOLE_CAPTURE_LIMIT: 2097152
/** The final warn line of a run that filled its console capture. */
export const CONSOLE_CAPTURE_MESSAGE: string
/** The error text of a run that exceeded its timeout. */
export const TIMEOUT_MESSAGE: 'Execution timed out'
/** The error text of a tool call that arrives after its execution finished. */
export const EXECUTION_COMPLETED_MESSAGE: 'Execution has already completed.'
/** How long a retained execution survives on the server without an invocation, in milliseconds. */
export const HANDLES_IDLE_TIMEOUT: 300000
/** The server's default bound of one wire frame, in bytes. */
export const MAX_FRAME_SIZE: number
/** The key of the object a binary value crosses the dispatch grammar as. */
export const BINARY_TAG: '$binary'

/** The failure codes: the protocol's, and CONNECTION_LOST, the client's own. */
export type ExecutorErrorCode =
  | 'PROTOCOL_MISMATCH'
  | 'QUEUE_OVERFLOW'
  | 'CONNECTION_REJECTED'
  | 'TIMEOUT'
  | 'WORKER_CRASHED'
  | 'PAYLOAD_TOO_LARGE'
  | 'MALFORMED_MESSAGE'
  | 'INVALID_REQUEST'
  | 'UNKNOWN_EXECUTION'
  | 'CANCELLED'
  | 'SHUTTING_DOWN'
  | 'INTERNAL'
  | 'SUSPENDED'
  | 'CONNECTION_LOST'

export const ERROR_CODES: readonly ExecutorErrorCode[]

/** An executor failure: branch on `code`, never on the wording of `message`. */
export class ExecutorError extends Error {
  constructor(code: ExecutorErrorCode | (string & {}), message: string, options?: { cause?: unknown; logs?: LogLine[] })
  readonly name: 'ExecutorError'
  code: ExecutorErrorCode | (string & {})
  /** The console lines of the run, when the failure came as a result. */
  logs?: LogLine[]
  /**
   * The saved run of a SUSPENDED result that no server took when the client
   * tried to resume it: resume it later with executor.resume.
   */
  state?: string
}

/** Returns the ExecutorError of a protocol error's {code, message}. */
export function rehydrateExecutorError(error: { code?: string; message?: string }): ExecutorError

/** A captured console line. */
export interface LogLine {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug' | (string & {})
  text: string
}

/** A provider as the program is told about it: a global whose methods are the tools. */
export interface ProviderDescriptor {
  name: string
  tools: readonly string[]
  /** true (the default): every argument crosses as a list; false: the first argument alone. */
  positionalArgs?: boolean
  /** JSON Schemas of the tools' input, by tool name. */
  schemas?: Record<string, unknown>
  /** One-line descriptions of the tools, by tool name. */
  descriptions?: Record<string, string>
}

/** One module: an ES module's source, or its kind and source. */
export type ModuleSource = string | { js: string } | { cjs: string } | { json: unknown } | { text: string }

/** The modules a program may import, by name. */
export type ModuleMap = Record<string, ModuleSource> | Map<string, ModuleSource>

/**
 * Answers one tool call with its envelope JSON, {"result": value} or
 * {"error": "text"}. argsJson is read by parseDispatchArguments.
 */
export type ToolDispatchFn = (provider: string, tool: string, argsJson: string) => Promise<string> | string

/** One request of the program's fetch, as plain data. */
export interface OutboundRequest {
  method: string
  url: string
  headers: [string, string][]
  body: Uint8Array | undefined
}

/** The answer to an OutboundRequest. A fetch Response is accepted too. */
export interface OutboundResponse {
  /** 200 to 599. */
  status: number
  statusText?: string
  headers?: [string, string][] | Record<string, string | string[]> | Iterable<[string, string]>
  body?: Uint8Array | ArrayBuffer | ArrayBufferView | string
  /** The URL that answered, after redirects. */
  url?: string
}

/** Performs the program's fetch in the stub mode. */
export type OutboundFetchFn = (request: OutboundRequest) => Promise<OutboundResponse | Response>

/**
 * How the program's fetch reaches the network: the server performs it
 * (native), nothing does (disabled, or null), or a function of the host
 * does (the stub mode).
 */
export type Outbound = 'native' | 'disabled' | OutboundFetchFn | null

/** One execution stated in full. */
export interface ExecuteRequest {
  /** The entry form async () => { ... }, optionally after static imports of modules; or a plain program body. */
  code: string
  providers?: readonly ProviderDescriptor[]
  /** Answers the providers' tool calls; without one every call is "not found". */
  dispatch?: ToolDispatchFn | null
  modules?: ModuleMap
  /** Milliseconds; null for the server's largest bound; absent for the connection's default, then the server's. */
  timeout?: number | null
  /** Count the time the program waits on the host against the timeout (false by default). */
  countHostWaits?: boolean
  outbound?: Outbound
  /** Keep the execution when its value holds functions (see invokeHandle). */
  retainHandles?: boolean
  /** Aborting sends cancel; the call rejects with CANCELLED. */
  signal?: AbortSignal
}

/** What an execution gives back. */
export interface ExecuteResult {
  /** The program's value, parsed from its JSON; undefined when it returned undefined or failed. */
  result: unknown
  /** The failure's message; undefined when the run succeeded. */
  error: string | undefined
  /** The failure's code: undefined for a failure of the program itself, else TIMEOUT, INVALID_REQUEST, PAYLOAD_TOO_LARGE or SUSPENDED. */
  errorCode: ExecutorErrorCode | (string & {}) | undefined
  logs: LogLine[]
  /** The retained execution, when retainHandles was asked and the value held functions. */
  executionId?: string
  /** The paths of the retained functions in the value ("increment", "nested.reset"). */
  handles?: string[]
  /** The saved run of a SUSPENDED result (base64), when resumeSuspended is false. */
  state?: string
}

/** A saved run to continue, with the providers it was started with. */
export interface ResumeRequest {
  /** The state of a SUSPENDED result: its base64 string, or its bytes. */
  state: string | Uint8Array | ArrayBuffer
  providers?: readonly ProviderDescriptor[]
  dispatch?: ToolDispatchFn | null
  /** The bound of the whole run, its earlier active time included. The server reads no other option of a resume. */
  timeout?: number | null
  /** The function that performs the run's fetch, when the run was started in the stub mode. */
  outbound?: Outbound
  signal?: AbortSignal
}

/** A WebSocket constructor: ws's (which can send headers) or a standard one. */
export type WebSocketConstructor = new (url: string, protocols?: string | string[], options?: object) => unknown

export interface ConnectOptions {
  /** Sent in the hello's token and, where the socket can send headers, as Authorization: Bearer. */
  token?: string
  /** Headers of the WebSocket upgrade; they need a constructor that can send them (ws). */
  headers?: Record<string, string>
  /** The constructor the sessions build their sockets from (ws by default). */
  websocket?: WebSocketConstructor
  /** How many executions one session runs before it is retired and another opened (100). */
  rotateAfterExecutions?: number
  /** How a call that finds no live session reopens one ({retries: 3, backoff: 250}); false: never after a loss (a close other than 1001). */
  reconnect?: { retries?: number; backoff?: number } | false
  /** Resume a SUSPENDED run on a new session transparently (true). */
  resumeSuspended?: boolean
  /** How long the client waits for the helloAck, in milliseconds (10000). */
  handshakeTimeout?: number
  /** The largest frame the client sends, in bytes (64 MiB, the server's default). */
  maxFrameSize?: number
  /** After how long without an invocation a retained execution is forgotten (300000, the server's). */
  handlesIdleTimeout?: number
  /** Per-connection defaults that a request field overrides. */
  timeout?: number | null
  countHostWaits?: boolean
  modules?: ModuleMap
  outbound?: Outbound
}

/** The executor contract: execute, invokeHandle, closeHandles, dispose. */
export interface Executor {
  execute(request: ExecuteRequest): Promise<ExecuteResult>
  invokeHandle(executionId: string, handle: string, argsJson?: string | unknown, options?: { signal?: AbortSignal }): Promise<ExecuteResult>
  closeHandles(executionId: string): Promise<void>
  dispose(): Promise<void>
}

/** The executor connect resolves to: sessions to one codemode server. */
export class RemoteExecutor implements Executor {
  private constructor(url: string | URL, options?: ConnectOptions)
  /** The server's URL. */
  readonly url: string
  /** Whether dispose has been called. */
  readonly disposed: boolean
  /**
   * Runs one program. The program's failures (a throw, a syntax error, a
   * timeout, bad providers) resolve as error; the executor's (QUEUE_OVERFLOW,
   * WORKER_CRASHED, CANCELLED, CONNECTION_LOST, SHUTTING_DOWN, a frame too
   * large) reject with an ExecutorError.
   */
  execute(request: ExecuteRequest): Promise<ExecuteResult>
  /** Continues a saved run (when resumeSuspended is false). */
  resume(request: ResumeRequest): Promise<ExecuteResult>
  /** Calls a handle of a retained execution; a non-string argsJson is encoded. */
  invokeHandle(executionId: string, handle: string, argsJson?: string | unknown, options?: { signal?: AbortSignal }): Promise<ExecuteResult>
  /** Releases a retained execution. */
  closeHandles(executionId: string): Promise<void>
  /** Closes every session; later calls reject with SHUTTING_DOWN. */
  dispose(): Promise<void>
}

/** Opens a session to a codemode server; rejects with an ExecutorError when the handshake fails. */
export function connect(url: string | URL, options?: ConnectOptions): Promise<RemoteExecutor>

/**
 * Wraps a responder into a ToolDispatchFn: its value becomes {"result"},
 * its throw {"error"}; once state.active is false every call answers
 * {"error":"Execution has already completed."} without calling it.
 */
export function createEnvelopeDispatch(
  state: { active: boolean },
  respond: (provider: string, tool: string, argsJson: string) => unknown,
): (provider: string, tool: string, argsJson: string) => Promise<string>

/** The argument list of a tool call: "" is none, an array is the list, anything else one argument. */
export function parseDispatchArguments(argsJson: string | undefined | null): unknown[]
/** JSON.stringify with binary tagged as {"$binary": base64}. */
export function stringifyForDispatch(value: unknown): string
/** JSON.parse with every binary tag rebuilt as a Uint8Array. */
export function parseForDispatch(json: string): unknown
/** Rebuilds binary inside a value that already crossed as data, in place. */
export function decodeDispatchValue(value: unknown): unknown
/** Reads an envelope as strictly as the server: {result} or {error}, else MALFORMED_MESSAGE. */
export function parseEnvelope(text: string): { result: unknown } | { error: string }
/** The envelope {"result": value}. */
export function resultEnvelope(value: unknown): string
/** The envelope {"error": message}. */
export function errorEnvelope(message: string): string

/** The text of the first provider that fails, or null. The texts are the server's. */
export function validateProviders(providers: readonly ProviderDescriptor[] | null | undefined): string | null
export const RESERVED_PROVIDER_NAMES: readonly string[]
export const JAVASCRIPT_RESERVED_WORDS: readonly string[]
export const PROVIDER_NAME_PATTERN: RegExp
