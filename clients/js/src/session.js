// One WebSocket session: the handshake, the requests in flight on it and
// the answers to the server's dispatch and fetch frames.

import { WebSocket as WsWebSocket } from 'ws'
import { PROTOCOL_VERSION } from './constants.js'
import { bytesOf, decodeBase64, encodeBase64, errorEnvelope, EXECUTION_COMPLETED_ENVELOPE, messageOf, parseEnvelope } from './codec.js'
import { ExecutorError } from './errors.js'
import { isRecord } from './request.js'

const OPEN = 1

/** The errors that came as the server's error frame answering a request. */
export const serverErrors = new WeakSet()

/**
 * Whether a WebSocket constructor can send upgrade headers: ws itself, a
 * subclass of it, or a constructor that declares ws's third parameter
 * (new Ctor(url, protocols, options)).
 * @param {any} Ctor
 */
export function supportsHeaders(Ctor) {
  return Ctor === WsWebSocket || Ctor.prototype instanceof WsWebSocket || Ctor.length >= 3
}

/**
 * Builds the socket, with the token as a bearer header where the
 * constructor can send headers.
 * @param {string} url
 * @param {SessionConfig} config
 */
function createSocket(url, config) {
  const Ctor = config.websocket ?? WsWebSocket
  const userHeaders = config.headers ?? {}
  const hasUserHeaders = Object.keys(userHeaders).length > 0
  if (!supportsHeaders(Ctor)) {
    if (hasUserHeaders) {
      throw new ExecutorError('CONNECTION_REJECTED', 'the headers option needs a WebSocket constructor that can send headers (such as ws); this one takes no options')
    }
    return new Ctor(url)
  }
  /** @type {Record<string, string>} */
  const headers = { ...userHeaders }
  const hasAuthorization = Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')
  if (config.token && !hasAuthorization) headers.Authorization = `Bearer ${config.token}`
  return new Ctor(url, undefined, { headers, maxPayload: config.maxFrameSize + 1024 })
}

/**
 * @typedef {object} SessionConfig
 * @property {any} [websocket]
 * @property {Record<string, string>} [headers]
 * @property {string} [token]
 * @property {number} handshakeTimeout
 * @property {number} maxFrameSize
 */

/**
 * @typedef {object} CallContext
 * @property {Function} [dispatch] answers the run's tool calls
 * @property {Function} [fetch] performs the run's requests in the stub mode
 */

/**
 * @typedef {object} Call
 * @property {string} id
 * @property {string} type
 * @property {CallContext} ctx
 * @property {(frame: any) => void} resolve
 * @property {(err: unknown) => void} reject
 * @property {(() => void) | null} cleanup
 */

/**
 * @typedef {object} SessionHooks
 * @property {(session: Session) => void} onClose the socket closed
 * @property {(session: Session) => void} onSettle a request settled
 */

/**
 * The byte length of a string in UTF-8.
 * @param {string} s
 */
function utf8Length(s) {
  const B = /** @type {any} */ (globalThis).Buffer
  return B ? B.byteLength(s, 'utf8') : new TextEncoder().encode(s).length
}

/**
 * Describes a value for an error text.
 * @param {unknown} v
 */
function describe(v) {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  return typeof v === 'object' ? 'an object' : typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`
}

export class Session {
  /** @type {any} */
  #socket
  #url
  /** @type {SessionConfig} */
  #config
  /** @type {SessionHooks} */
  #hooks
  #seq = 0
  /** Ids of requests given up (cancelled) whose answer may still come. */
  #abandoned = new Set()
  /** @type {{code: string, message: string} | null} */
  #lastError = null
  #closing = false
  /** @type {Promise<void> | null} */
  #closed = null
  /** @type {(() => void) | null} */
  #markClosed = null
  /** @type {((frame: any) => void) | null} */
  #handshakeFrame = null

  /** @type {Map<string, Call>} */
  pending = new Map()
  /** Retained executions of this session, by executionId. */
  retained = new Set()
  /** Executions and resumes started on this session. */
  executions = 0
  /** No new work goes to a retired session; it closes once idle. */
  retired = false
  /** The socket closed. */
  isClosed = false
  /** The close status, once closed. */
  /** @type {number | undefined} */
  closeCode = undefined
  /** Why the socket closed, for the calls that find it closed. */
  /** @type {ExecutorError | null} */
  closeError = null

  /**
   * @param {any} socket
   * @param {string} url
   * @param {SessionConfig} config
   * @param {SessionHooks} hooks
   */
  constructor(socket, url, config, hooks) {
    this.#socket = socket
    this.#url = url
    this.#config = config
    this.#hooks = hooks
    this.#closed = new Promise((resolve) => {
      this.#markClosed = resolve
    })
    socket.addEventListener('message', (/** @type {any} */ ev) => this.#onMessage(ev.data))
    socket.addEventListener('close', (/** @type {any} */ ev) => this.#onClose(ev.code, ev.reason))
    // A socket error is followed by its close event; the close handles it.
    socket.addEventListener('error', () => {})
  }

  /**
   * Opens a session: the socket, then the hello and its helloAck. Rejects
   * with an ExecutorError: the server's code for a refused hello,
   * CONNECTION_LOST when the socket failed or no answer came in time.
   * @param {string} url
   * @param {SessionConfig} config
   * @param {SessionHooks} hooks
   * @returns {Promise<Session>}
   */
  static open(url, config, hooks) {
    return new Promise((resolve, reject) => {
      let socket
      try {
        socket = createSocket(url, config)
      } catch (err) {
        reject(err instanceof ExecutorError ? err : new ExecutorError('CONNECTION_LOST', `cannot open ${url}: ${messageOf(err)}`, { cause: err }))
        return
      }
      const session = new Session(socket, url, config, hooks)
      session.#handshake(resolve, reject)
    })
  }

  /**
   * @param {(s: Session) => void} resolve
   * @param {(e: unknown) => void} reject
   */
  #handshake(resolve, reject) {
    const socket = this.#socket
    const id = 'h1'
    let done = false
    /** @type {string | null} */
    let socketError = null
    const finish = (/** @type {ExecutorError | null} */ err) => {
      if (done) return
      done = true
      clearTimeout(timer)
      this.#handshakeFrame = null
      if (err) {
        this.closeError = err
        this.#terminate()
        reject(err)
      } else {
        resolve(this)
      }
    }
    const timer = setTimeout(() => {
      finish(new ExecutorError('CONNECTION_LOST', `no answer to the hello from ${this.#url} within ${this.#config.handshakeTimeout} ms`))
    }, this.#config.handshakeTimeout)
    socket.addEventListener('error', (/** @type {any} */ ev) => {
      socketError = ev?.message || ev?.error?.message || 'socket error'
    })
    socket.addEventListener('close', (/** @type {any} */ ev) => {
      const status = /Unexpected server response: (\d+)/.exec(socketError ?? '')
      if (status && (status[1] === '401' || status[1] === '403')) {
        finish(new ExecutorError('CONNECTION_REJECTED', `${this.#url} refused the upgrade: ${socketError}`))
        return
      }
      const why = socketError ?? `the socket closed (code ${ev.code}${ev.reason ? `, ${ev.reason}` : ''})`
      finish(new ExecutorError('CONNECTION_LOST', `cannot open a session with ${this.#url}: ${why}`))
    })
    socket.addEventListener('open', () => {
      /** @type {Record<string, unknown>} */
      const hello = { type: 'hello', id, version: PROTOCOL_VERSION }
      if (this.#config.token) hello.token = this.#config.token
      this.#sendRaw(JSON.stringify(hello))
    })
    this.#handshakeFrame = (/** @type {any} */ msg) => {
      if (msg.type === 'helloAck' && msg.id === id) {
        if (msg.version !== PROTOCOL_VERSION) {
          finish(new ExecutorError('PROTOCOL_MISMATCH',
            `protocol version mismatch: the peer speaks version ${msg.version}, this side speaks version ${PROTOCOL_VERSION}; both sides must speak the same version`))
        } else {
          finish(null)
        }
      } else if (msg.type === 'error') {
        const code = typeof msg.code === 'string' && msg.code !== '' ? msg.code : 'CONNECTION_REJECTED'
        finish(new ExecutorError(code, typeof msg.message === 'string' ? msg.message : code))
      } else {
        finish(new ExecutorError('MALFORMED_MESSAGE', `the server answered the hello with ${JSON.stringify(msg.type)}, not helloAck`))
      }
    }
  }

  /** Whether new work may go to this session. */
  get usable() {
    return !this.isClosed && !this.#closing && !this.retired
  }

  /** Whether nothing is in flight and nothing is retained. */
  get idle() {
    return this.pending.size === 0 && this.retained.size === 0
  }

  /**
   * Sends a request and resolves with the frame that answers it (a
   * result), or rejects with the ExecutorError of an error frame, of a lost
   * connection, or CANCELLED when signal aborts (the server is sent a
   * cancel).
   * @param {string} type
   * @param {Record<string, unknown>} fields
   * @param {CallContext} ctx
   * @param {AbortSignal} [signal]
   * @returns {Promise<any>}
   */
  request(type, fields, ctx, signal) {
    if (this.isClosed || this.#closing) {
      return Promise.reject(this.closeError ?? new ExecutorError('CONNECTION_LOST', `the session with ${this.#url} is closed`))
    }
    const id = `${type === 'execute' ? 'e' : type === 'resume' ? 'r' : type === 'invokeHandle' ? 'i' : 'c'}${++this.#seq}`
    return new Promise((resolve, reject) => {
      /** @type {Call} */
      const call = { id, type, ctx, resolve, reject, cleanup: null }
      this.pending.set(id, call)
      if (signal) {
        const onAbort = () => {
          if (!this.pending.has(id)) return
          this.#abandoned.add(id)
          this.#send({ type: 'cancel', id })
          this.#settle(call, new ExecutorError('CANCELLED', 'the request was cancelled', { cause: signal.reason }))
        }
        signal.addEventListener('abort', onAbort, { once: true })
        call.cleanup = () => signal.removeEventListener('abort', onAbort)
      }
      const problem = this.#send({ type, id, ...fields })
      if (problem) this.#settle(call, problem)
    })
  }

  /**
   * Sends a frame, returning the ExecutorError that kept it from going, or
   * null.
   * @param {Record<string, unknown>} frame
   * @returns {ExecutorError | null}
   */
  #send(frame) {
    const text = JSON.stringify(frame)
    const limit = this.#config.maxFrameSize
    if (text.length * 3 > limit) {
      const size = utf8Length(text)
      if (size > limit) return new ExecutorError('PAYLOAD_TOO_LARGE', `message of ${size} bytes exceeds the limit of ${limit} bytes`)
    }
    if (!this.#sendRaw(text)) {
      return this.closeError ?? new ExecutorError('CONNECTION_LOST', `the session with ${this.#url} is closed`)
    }
    return null
  }

  /** @param {string} text */
  #sendRaw(text) {
    if (this.#socket.readyState !== OPEN) return false
    try {
      this.#socket.send(text)
      return true
    } catch {
      return false
    }
  }

  /**
   * @param {Call} call
   * @param {any} outcome a frame, or an error to reject with
   */
  #settle(call, outcome) {
    if (this.pending.get(call.id) !== call) return
    this.pending.delete(call.id)
    call.cleanup?.()
    if (outcome instanceof Error) call.reject(outcome)
    else call.resolve(outcome)
    this.#hooks.onSettle(this)
  }

  /** @param {unknown} data */
  #onMessage(data) {
    if (typeof data !== 'string') {
      this.#violation('a binary frame')
      return
    }
    let msg
    try {
      msg = JSON.parse(data)
    } catch {
      this.#violation('a frame that is not JSON')
      return
    }
    if (!isRecord(msg) || typeof msg.type !== 'string') {
      this.#violation('a frame that is not a message')
      return
    }
    if (this.#handshakeFrame) {
      this.#handshakeFrame(msg)
      return
    }
    switch (msg.type) {
      case 'result':
        this.#onResult(msg)
        break
      case 'error':
        this.#onError(msg)
        break
      case 'dispatch':
        this.#onDispatch(msg)
        break
      case 'fetch':
        this.#onFetch(msg)
        break
      default:
        // helloAck again, or a type of a later version: nothing to do.
        break
    }
  }

  /** @param {Record<string, any>} msg */
  #onResult(msg) {
    const call = typeof msg.id === 'string' ? this.pending.get(msg.id) : undefined
    if (!call) {
      if (this.#abandoned.delete(msg.id) && typeof msg.executionId === 'string' && msg.executionId !== '') {
        // A cancelled run that was retained anyway: release it.
        this.#send({ type: 'closeHandles', id: `c${++this.#seq}`, executionId: msg.executionId })
      }
      return
    }
    if (msg.error !== undefined && msg.error !== null && (!isRecord(msg.error) || typeof msg.error.message !== 'string')) {
      this.#settle(call, new ExecutorError('MALFORMED_MESSAGE', 'the server sent a result whose error is not {code, message}'))
      return
    }
    // Counted before the call settles: the session must not close as idle
    // between this frame and the executor's bookkeeping of the handles.
    if (typeof msg.executionId === 'string' && msg.executionId !== '') this.retained.add(msg.executionId)
    this.#settle(call, msg)
  }

  /** @param {Record<string, any>} msg */
  #onError(msg) {
    const code = typeof msg.code === 'string' && msg.code !== '' ? msg.code : 'INTERNAL'
    const message = typeof msg.message === 'string' ? msg.message : code
    const call = typeof msg.id === 'string' ? this.pending.get(msg.id) : undefined
    if (call) {
      const err = new ExecutorError(code, message)
      serverErrors.add(err)
      this.#settle(call, err)
      return
    }
    if (typeof msg.id === 'string' && this.#abandoned.delete(msg.id)) return
    this.#lastError = { code, message }
  }

  /** @param {Record<string, any>} msg */
  #onDispatch(msg) {
    if (typeof msg.id !== 'string' || typeof msg.callId !== 'string') {
      this.#violation('a dispatch without its id and callId')
      return
    }
    const call = this.pending.get(msg.id)
    const provider = String(msg.provider ?? '')
    const tool = String(msg.tool ?? '')
    const args = typeof msg.args === 'string' ? msg.args : ''
    const answer = (/** @type {string} */ envelope) => {
      const frame = { type: 'dispatchResult', id: msg.id, callId: msg.callId, envelope }
      const problem = this.#send(frame)
      if (problem?.code === 'PAYLOAD_TOO_LARGE') {
        this.#send({ ...frame, envelope: errorEnvelope(`tool ${provider}.${tool}: its answer exceeds the frame limit (${problem.message})`) })
      }
    }
    if (!call) {
      answer(EXECUTION_COMPLETED_ENVELOPE)
      return
    }
    runDispatch(call.ctx.dispatch, provider, tool, args).then(answer)
  }

  /** @param {Record<string, any>} msg */
  #onFetch(msg) {
    if (typeof msg.id !== 'string' || typeof msg.callId !== 'string') {
      this.#violation('a fetch without its id and callId')
      return
    }
    const call = this.pending.get(msg.id)
    const reply = (/** @type {{response?: object, error?: string}} */ outcome) => {
      const frame = { type: 'fetchResult', id: msg.id, callId: msg.callId, ...outcome }
      const problem = this.#send(frame)
      if (problem?.code === 'PAYLOAD_TOO_LARGE') {
        this.#send({ type: 'fetchResult', id: msg.id, callId: msg.callId, error: `the response exceeds the frame limit (${problem.message})` })
      }
    }
    if (!call) {
      reply({ error: 'the execution has already completed' })
      return
    }
    runFetch(call.ctx.fetch, msg.request).then(reply)
  }

  /**
   * The server broke the protocol: the session is closed and its requests
   * fail with MALFORMED_MESSAGE.
   * @param {string} what
   */
  #violation(what) {
    const err = new ExecutorError('MALFORMED_MESSAGE', `the server at ${this.#url} sent ${what}`)
    if (this.#handshakeFrame) {
      this.#handshakeFrame({ type: 'error', code: 'MALFORMED_MESSAGE', message: err.message })
      return
    }
    this.closeError = err
    this.close(1002, 'protocol violation', err)
  }

  /**
   * @param {number} code
   * @param {string} reason
   */
  #onClose(code, reason) {
    if (this.isClosed) return
    this.isClosed = true
    this.closeCode = code
    if (!this.closeError) {
      const last = this.#lastError
      this.closeError = last && last.code !== 'INTERNAL'
        ? new ExecutorError(last.code === 'SHUTTING_DOWN' ? 'SHUTTING_DOWN' : 'CONNECTION_LOST', `the connection to ${this.#url} closed: ${last.code}: ${last.message}`)
        : new ExecutorError('CONNECTION_LOST', `the connection to ${this.#url} closed (code ${code}${reason ? `, ${reason}` : ''}) before the answer arrived`)
    }
    for (const call of [...this.pending.values()]) this.#settle(call, this.closeError)
    this.#markClosed?.()
    this.#hooks.onClose(this)
  }

  /** Whether close was asked for by this side. */
  get closedByClient() {
    return this.#closing
  }

  /**
   * Closes the session: its requests in flight fail with err. Resolves
   * once the socket has closed.
   * @param {number} [code]
   * @param {string} [reason]
   * @param {ExecutorError} [err]
   * @returns {Promise<void>}
   */
  close(code = 1000, reason = '', err) {
    if (!this.isClosed && !this.#closing) {
      this.#closing = true
      if (err) this.closeError = err
      else this.closeError ??= new ExecutorError('CONNECTION_LOST', `the session with ${this.#url} was closed by the client`)
      for (const call of [...this.pending.values()]) this.#settle(call, this.closeError)
      try {
        this.#socket.close(code, reason)
      } catch {
        this.#terminate()
      }
      // A peer that never answers the close frame is cut off.
      /** @type {any} */
      const cut = setTimeout(() => this.#terminate(), 2000)
      cut.unref?.()
      this.#closed?.then(() => clearTimeout(cut))
    }
    return /** @type {Promise<void>} */ (this.#closed)
  }

  #terminate() {
    const s = this.#socket
    try {
      if (typeof s.terminate === 'function') s.terminate()
      else s.close()
    } catch {
      // already closed
    }
  }
}

/**
 * Answers one tool call with the request's dispatch function.
 * @param {Function | undefined} dispatch
 * @param {string} provider
 * @param {string} tool
 * @param {string} args
 * @returns {Promise<string>}
 */
export async function runDispatch(dispatch, provider, tool, args) {
  if (typeof dispatch !== 'function') return errorEnvelope(`Tool "${provider}.${tool}" not found`)
  let out
  try {
    out = await dispatch(provider, tool, args)
  } catch (err) {
    const text = messageOf(err)
    return errorEnvelope(text === '' ? `tool ${provider}.${tool} failed` : text)
  }
  if (typeof out !== 'string') {
    return errorEnvelope(`tool ${provider}.${tool}: the dispatch function returned ${describe(out)}, not an envelope string`)
  }
  try {
    parseEnvelope(out)
  } catch (err) {
    return errorEnvelope(`tool ${provider}.${tool}: the dispatch function returned a ${messageOf(err)}`)
  }
  return out
}

/**
 * Returns header pairs from an array of pairs, a Headers object or a plain
 * object.
 * @param {unknown} headers
 * @returns {[string, string][]}
 */
function headerPairs(headers) {
  if (headers === undefined || headers === null) return []
  /** @type {[string, string][]} */
  const out = []
  if (Array.isArray(headers) || typeof (/** @type {any} */ (headers))[Symbol.iterator] === 'function') {
    for (const pair of /** @type {Iterable<unknown>} */ (headers)) {
      if (!Array.isArray(pair) || pair.length !== 2) throw new TypeError('response headers must be [name, value] pairs')
      out.push([String(pair[0]), String(pair[1])])
    }
    return out
  }
  if (isRecord(headers)) {
    for (const [k, v] of Object.entries(headers)) {
      if (Array.isArray(v)) for (const e of v) out.push([k, String(e)])
      else if (v !== undefined) out.push([k, String(v)])
    }
    return out
  }
  throw new TypeError('response headers must be [name, value] pairs, a Headers object or a plain object')
}

/**
 * Returns the bytes of a response body: binary, a string (UTF-8) or none.
 * @param {unknown} body
 * @returns {Uint8Array | undefined}
 */
function bodyBytes(body) {
  if (body === undefined || body === null) return undefined
  if (typeof body === 'string') return new TextEncoder().encode(body)
  const bytes = bytesOf(body)
  if (bytes) return bytes
  throw new TypeError('a response body must be a Uint8Array, an ArrayBuffer or a string')
}

/**
 * Turns what an outbound function returned into the wire's response.
 * @param {any} res
 */
async function wireResponse(res) {
  if (!isRecord(res)) throw new TypeError(`the outbound function returned ${describe(res)}, not a response`)
  const isFetchResponse = typeof Response === 'function' && res instanceof Response
  const status = res.status
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
    throw new TypeError(`the outbound function returned status ${String(status)}; an HTTP status is 200 to 599`)
  }
  /** @type {Record<string, unknown>} */
  const out = { status }
  if (typeof res.statusText === 'string' && res.statusText !== '') out.statusText = res.statusText
  const headers = headerPairs(res.headers)
  if (headers.length > 0) out.headers = headers
  const body = isFetchResponse ? new Uint8Array(await res.arrayBuffer()) : bodyBytes(res.body)
  if (body !== undefined) out.body = encodeBase64(body)
  if (typeof res.url === 'string' && res.url !== '') out.url = res.url
  return out
}

/**
 * Performs one outbound request of the stub mode with the request's
 * function, returning the fetchResult's response or error.
 * @param {Function | undefined} fetchFn
 * @param {any} request
 * @returns {Promise<{response?: object, error?: string}>}
 */
export async function runFetch(fetchFn, request) {
  if (typeof fetchFn !== 'function') return { error: 'this request has no outbound function to perform fetch' }
  if (!isRecord(request) || typeof request.method !== 'string' || typeof request.url !== 'string') {
    return { error: 'the server sent a fetch without a request' }
  }
  /** @type {Uint8Array | undefined} */
  let body
  if (typeof request.body === 'string') {
    const decoded = decodeBase64(request.body)
    if (decoded === null) return { error: 'the request body is not valid base64' }
    body = decoded
  }
  const req = {
    method: request.method,
    url: request.url,
    headers: Array.isArray(request.headers) ? request.headers.map((/** @type {any[]} */ h) => [String(h[0]), String(h[1])]) : [],
    body,
  }
  try {
    return { response: await wireResponse(await fetchFn(req)) }
  } catch (err) {
    const text = messageOf(err)
    return { error: text === '' ? 'fetch failed' : text }
  }
}
