// connect and RemoteExecutor: sessions opened, rotated, reopened and
// retired behind one executor; executions, suspended runs, retained handles.

import { HANDLES_IDLE_TIMEOUT, MAX_FRAME_SIZE } from './constants.js'
import { decodeBase64, encodeBase64 } from './codec.js'
import { ExecutorError } from './errors.js'
import { InvalidRequest, isRecord, pick, resolveOutbound, wireArgs, wireModules, wireOptions, wireProviders } from './request.js'
import { serverErrors, Session } from './session.js'

/**
 * Result codes that are the executor's failure, not the program's: the
 * request rejects with them. Every other code in a result (none, TIMEOUT,
 * INVALID_REQUEST, PAYLOAD_TOO_LARGE, SUSPENDED, or one this client does not
 * know) resolves as the result's error.
 */
const REJECTING_CODES = new Set([
  'WORKER_CRASHED', 'INTERNAL', 'CANCELLED', 'QUEUE_OVERFLOW', 'SHUTTING_DOWN',
  'PROTOCOL_MISMATCH', 'CONNECTION_REJECTED', 'MALFORMED_MESSAGE', 'UNKNOWN_EXECUTION',
])

/** Codes after which opening a session again may succeed. */
const RETRYABLE_OPEN_CODES = new Set(['CONNECTION_LOST', 'SHUTTING_DOWN', 'INTERNAL'])

const DEFAULT_RECONNECT = Object.freeze({ retries: 3, backoff: 250 })

/**
 * The options of a resume: the server reads its timeout alone (the other
 * options are the saved run's), so the timeout alone is sent.
 * @param {{timeout?: unknown} | undefined} options
 */
function resumeOptions(options) {
  return options && options.timeout !== undefined ? { timeout: options.timeout } : undefined
}

/** Errors of requests that never reached a server. */
const unsent = new WeakSet()

/**
 * Marks err as the failure of a request that was never sent.
 * @template T
 * @param {T} err
 * @returns {T}
 */
function notSent(err) {
  if (err !== null && typeof err === 'object') unsent.add(err)
  return err
}

/**
 * @param {unknown} v
 * @param {string} name
 */
function positiveInteger(v, name) {
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw new TypeError(`${name} must be a positive whole number`)
  return v
}

/**
 * Opens a session to a codemode server and resolves to a RemoteExecutor,
 * or rejects with an ExecutorError (PROTOCOL_MISMATCH, CONNECTION_REJECTED,
 * SHUTTING_DOWN, CONNECTION_LOST) when the handshake fails. The first
 * session is tried once: reconnect governs the sessions opened later.
 * @param {string | URL} url
 * @param {import('../index.js').ConnectOptions} [options]
 * @returns {Promise<RemoteExecutor>}
 */
export async function connect(url, options = {}) {
  const executor = new RemoteExecutor(url, options)
  await executor._start()
  return executor
}

export class RemoteExecutor {
  #url
  #config
  #defaults
  /** @type {{retries: number, backoff: number} | false} */
  #reconnect
  #rotateAfter
  #resumeSuspended
  #handlesIdleTimeout

  /** @type {Session | null} */
  #current = null
  /** @type {Promise<Session> | null} */
  #opening = null
  /** @type {Set<Session>} */
  #sessions = new Set()
  /** The current session closed without this side asking: with reconnect off, the executor is done. */
  /** @type {ExecutorError | null} */
  #lost = null
  /** @type {Map<string, {session: Session, ctx: import('./session.js').CallContext, timer: any}>} */
  #retained = new Map()
  #disposed = false
  /** @type {Promise<void> | null} */
  #disposing = null
  /** @type {Set<() => void>} */
  #wakeups = new Set()

  /**
   * @param {string | URL} url
   * @param {import('../index.js').ConnectOptions} options
   */
  constructor(url, options = {}) {
    if (!isRecord(options)) throw new TypeError('connect options must be an object')
    const text = String(url)
    let parsed
    try {
      parsed = new URL(text)
    } catch {
      throw new TypeError(`connect needs a ws:// or wss:// URL, not ${JSON.stringify(text)}`)
    }
    if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
      throw new TypeError(`connect needs a ws:// or wss:// URL, not ${JSON.stringify(text)}`)
    }
    if (options.websocket !== undefined && typeof options.websocket !== 'function') throw new TypeError('websocket must be a WebSocket constructor')
    if (options.headers !== undefined && !isRecord(options.headers)) throw new TypeError('headers must be an object of header values by name')
    if (options.token !== undefined && typeof options.token !== 'string') throw new TypeError('token must be a string')
    this.#url = text
    this.#config = {
      websocket: options.websocket,
      headers: options.headers,
      token: options.token,
      handshakeTimeout: positiveInteger(options.handshakeTimeout ?? 10000, 'handshakeTimeout'),
      maxFrameSize: positiveInteger(options.maxFrameSize ?? MAX_FRAME_SIZE, 'maxFrameSize'),
    }
    const reconnect = options.reconnect === undefined ? DEFAULT_RECONNECT : options.reconnect
    if (reconnect === false) {
      this.#reconnect = false
    } else if (isRecord(reconnect)) {
      const retries = reconnect.retries ?? DEFAULT_RECONNECT.retries
      const backoff = reconnect.backoff ?? DEFAULT_RECONNECT.backoff
      if (!Number.isInteger(retries) || retries < 0) throw new TypeError('reconnect.retries must be a whole number')
      if (typeof backoff !== 'number' || !(backoff >= 0)) throw new TypeError('reconnect.backoff must be a number of milliseconds')
      this.#reconnect = { retries, backoff }
    } else {
      throw new TypeError('reconnect must be {retries, backoff} or false')
    }
    const rotate = options.rotateAfterExecutions ?? 100
    if (rotate !== Infinity) positiveInteger(rotate, 'rotateAfterExecutions')
    this.#rotateAfter = rotate
    this.#resumeSuspended = options.resumeSuspended ?? true
    this.#handlesIdleTimeout = options.handlesIdleTimeout ?? HANDLES_IDLE_TIMEOUT
    if (this.#handlesIdleTimeout !== Infinity) positiveInteger(this.#handlesIdleTimeout, 'handlesIdleTimeout')
    // Checked now, so that a bad default fails connect and not every call.
    try {
      wireModules(options.modules)
      wireOptions({ timeout: options.timeout, countHostWaits: options.countHostWaits })
      resolveOutbound(options.outbound)
    } catch (err) {
      throw err instanceof InvalidRequest ? new TypeError(err.message) : err
    }
    this.#defaults = {
      timeout: options.timeout,
      countHostWaits: options.countHostWaits,
      modules: options.modules,
      outbound: options.outbound,
    }
  }

  /** The server's URL. */
  get url() {
    return this.#url
  }

  /** Whether dispose has been called. */
  get disposed() {
    return this.#disposed
  }

  /** @internal opens the first session, once. */
  async _start() {
    const session = await this.#openSession()
    this.#install(session)
  }

  /** The hooks a session calls back. */
  #hooks = {
    onClose: (/** @type {Session} */ session) => this.#onSessionClose(session),
    onSettle: (/** @type {Session} */ session) => this.#closeIfDone(session),
  }

  /** @returns {Promise<Session>} */
  #openSession() {
    return Session.open(this.#url, this.#config, this.#hooks)
  }

  /** @param {Session} session */
  #install(session) {
    if (this.#disposed) {
      session.close(1000, 'disposed')
      throw this.#disposedError()
    }
    this.#sessions.add(session)
    this.#current = session
    this.#lost = null
  }

  #disposedError() {
    return new ExecutorError('SHUTTING_DOWN', 'the executor has been disposed')
  }

  /**
   * Waits ms, or less when the executor is disposed meanwhile.
   * @param {number} ms
   */
  #sleep(ms) {
    if (this.#disposed) return Promise.resolve(undefined)
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        this.#wakeups.delete(wake)
        resolve(undefined)
      }
      const timer = setTimeout(wake, ms)
      this.#wakeups.add(wake)
    })
  }

  /**
   * Opens a session, retrying as reconnect says: after a connection that
   * failed or a server that is shutting down, backing off backoff × n
   * milliseconds before the n-th retry. A refused hello
   * (CONNECTION_REJECTED) or a version mismatch is never retried.
   * @returns {Promise<Session>}
   */
  async #openWithRetries() {
    const { retries, backoff } = this.#reconnect || { retries: 0, backoff: 0 }
    for (let attempt = 0; ; attempt++) {
      if (this.#disposed) throw this.#disposedError()
      try {
        return await this.#openSession()
      } catch (err) {
        const code = err instanceof ExecutorError ? err.code : ''
        if (!RETRYABLE_OPEN_CODES.has(code) || attempt >= retries) {
          if (attempt > 0 && err instanceof ExecutorError) err.message += ` (after ${attempt + 1} attempts)`
          throw err
        }
      }
      await this.#sleep(backoff * (attempt + 1))
    }
  }

  /**
   * Returns a live session for new work, opening one when there is none.
   * Counting the work as an execution may retire the session (rotation).
   * @param {boolean} counts whether the work is an execution
   * @returns {Promise<Session>}
   */
  async #acquire(counts) {
    for (let opened = 0; ; opened++) {
      if (this.#disposed) throw this.#disposedError()
      const s = this.#current
      if (s && s.usable) {
        if (counts) {
          s.executions++
          // Rotation: this execution is the session's last. It closes once
          // this request settles (and what it retained is closed).
          if (s.executions >= this.#rotateAfter) {
            s.retired = true
            this.#current = null
          }
        }
        return s
      }
      if (this.#lost && this.#reconnect === false) {
        throw new ExecutorError('CONNECTION_LOST', `the connection to ${this.#url} was lost and reconnect is off`, { cause: this.#lost })
      }
      if (opened >= 3) {
        // Every session this call saw opened closed again before it could be used.
        throw new ExecutorError('CONNECTION_LOST', `the sessions with ${this.#url} close as soon as they open`, { cause: this.#lost ?? undefined })
      }
      if (!this.#opening) {
        const opening = this.#openWithRetries().then((session) => {
          this.#install(session)
          return session
        })
        this.#opening = opening
        opening.then(
          () => { if (this.#opening === opening) this.#opening = null },
          () => { if (this.#opening === opening) this.#opening = null },
        )
      }
      await this.#opening
    }
  }

  /**
   * Retires a session: it takes no new work and closes once nothing is in
   * flight on it and nothing it retained is left.
   * @param {Session} session
   */
  #retire(session) {
    session.retired = true
    if (this.#current === session) this.#current = null
    this.#closeIfDone(session)
  }

  /** @param {Session} session */
  #closeIfDone(session) {
    if (session.retired && session.idle && !session.isClosed) session.close(1000, 'retired')
  }

  /** @param {Session} session */
  #onSessionClose(session) {
    if (!this.#sessions.delete(session)) return
    for (const id of session.retained) this.#forget(id)
    if (this.#current === session) {
      this.#current = null
      // 1001 (going away): the server retired the connection on purpose (it
      // drains, or the connection reached its maximum age). Like a rotation,
      // that is no loss: the next call opens a new session even when
      // reconnect is off.
      if (!session.closedByClient && session.closeCode !== 1001 && !this.#disposed) {
        this.#lost = session.closeError ?? new ExecutorError('CONNECTION_LOST', `the connection to ${this.#url} closed`)
      }
    }
  }

  /** @param {string} executionId */
  #forget(executionId) {
    const entry = this.#retained.get(executionId)
    if (!entry) return
    clearTimeout(entry.timer)
    this.#retained.delete(executionId)
    entry.session.retained.delete(executionId)
    this.#closeIfDone(entry.session)
  }

  /**
   * Keeps a retained execution: its session, the dispatch and fetch of its
   * request, and a timer that forgets it after the server's idle timeout.
   * @param {string} executionId
   * @param {Session} session
   * @param {import('./session.js').CallContext} ctx
   */
  #retain(executionId, session, ctx) {
    if (session.isClosed) {
      session.retained.delete(executionId)
      return
    }
    const entry = { session, ctx, timer: /** @type {any} */ (null) }
    this.#retained.set(executionId, entry)
    session.retained.add(executionId)
    this.#touch(executionId)
  }

  /** @param {string} executionId */
  #touch(executionId) {
    const entry = this.#retained.get(executionId)
    if (!entry || this.#handlesIdleTimeout === Infinity) return
    clearTimeout(entry.timer)
    entry.timer = setTimeout(() => this.#forget(executionId), this.#handlesIdleTimeout)
    entry.timer.unref?.()
  }

  #checkOpen() {
    if (this.#disposed) throw this.#disposedError()
  }

  /**
   * Sends one execute or resume on a live session and returns its result
   * frame. A server that answers SHUTTING_DOWN did not start the work: the
   * session is retired and the request goes once more, to a new session.
   * A SUSPENDED result retires its session too (its server is draining).
   * @param {string} type
   * @param {Record<string, unknown>} fields
   * @param {import('./session.js').CallContext} ctx
   * @param {AbortSignal | undefined} signal
   */
  async #run(type, fields, ctx, signal) {
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw notSent(new ExecutorError('CANCELLED', 'the request was cancelled', { cause: signal.reason }))
      let session
      try {
        session = await this.#acquire(true)
      } catch (err) {
        // A fresh error per call: the opening's is shared by every waiter.
        throw notSent(err instanceof ExecutorError ? new ExecutorError(err.code, err.message, { cause: err }) : err)
      }
      try {
        const frame = await session.request(type, fields, ctx, signal)
        if (frame.error?.code === 'SUSPENDED') this.#retire(session)
        return { frame, session }
      } catch (err) {
        if (serverErrors.has(/** @type {object} */ (err)) && /** @type {any} */ (err).code === 'SHUTTING_DOWN') {
          this.#retire(session)
          if (attempt === 0 && this.#reconnect !== false) continue
          throw notSent(err)
        }
        throw err
      }
    }
  }

  /**
   * Turns a result frame into an ExecuteResult, or throws the
   * ExecutorError of an executor failure.
   * @param {any} frame
   * @param {Session} session
   * @param {import('./session.js').CallContext} ctx
   * @returns {import('../index.js').ExecuteResult}
   */
  #toResult(frame, session, ctx) {
    const logs = Array.isArray(frame.logs) ? frame.logs : []
    const error = isRecord(frame.error) ? frame.error : undefined
    const code = typeof error?.code === 'string' && error.code !== '' ? error.code : undefined
    const retained = typeof frame.executionId === 'string' && frame.executionId !== ''
    // The session counted the retained execution when the frame arrived, so
    // that a retired session does not close under it.
    if (retained) this.#retain(frame.executionId, session, ctx)
    if (code && REJECTING_CODES.has(code)) throw new ExecutorError(code, error?.message ?? code, { logs })
    /** @type {import('../index.js').ExecuteResult} */
    const result = { result: frame.resultJson, error: error?.message, errorCode: code, logs }
    if (retained) {
      result.executionId = frame.executionId
      result.handles = Array.isArray(frame.handles) ? frame.handles : []
    }
    if (code === 'SUSPENDED' && typeof frame.state === 'string') result.state = frame.state
    return result
  }

  /**
   * Builds the context and wire fields shared by execute and resume.
   * @param {Record<string, any>} request
   */
  #prepare(request) {
    if (request.dispatch !== undefined && request.dispatch !== null && typeof request.dispatch !== 'function') {
      throw new TypeError('dispatch must be a function (provider, tool, argsJson) => Promise<string>')
    }
    if (request.signal !== undefined && request.signal !== null && !(typeof request.signal === 'object' && 'aborted' in request.signal)) {
      throw new TypeError('signal must be an AbortSignal')
    }
    const outbound = resolveOutbound(pick(request.outbound, this.#defaults.outbound))
    const options = wireOptions({
      timeout: pick(request.timeout, this.#defaults.timeout),
      countHostWaits: pick(request.countHostWaits, this.#defaults.countHostWaits),
      retainHandles: request.retainHandles,
      outbound: outbound.mode,
    })
    const providers = wireProviders(request.providers)
    /** @type {import('./session.js').CallContext} */
    const ctx = { dispatch: request.dispatch ?? undefined, fetch: outbound.fetch }
    return { ctx, options, providers }
  }

  /**
   * Runs a request to its end: the execute or resume, then, while the
   * result is SUSPENDED and resumeSuspended is on, a resume of its state on
   * a new session with the same providers and functions.
   * @param {string} type
   * @param {Record<string, unknown>} fields
   * @param {{ctx: import('./session.js').CallContext, options: {timeout?: unknown} | undefined, providers: object[] | undefined}} prep
   * @param {AbortSignal | undefined} signal
   */
  async #complete(type, fields, prep, signal) {
    let { frame, session } = await this.#run(type, fields, prep.ctx, signal)
    while (this.#resumeSuspended && frame.error?.code === 'SUSPENDED' && typeof frame.state === 'string') {
      /** @type {Record<string, unknown>} */
      const resume = { state: frame.state }
      if (prep.providers) resume.providers = prep.providers
      const options = resumeOptions(prep.options)
      if (options) resume.options = options
      try {
        ;({ frame, session } = await this.#run('resume', resume, prep.ctx, signal))
      } catch (err) {
        // No server took the saved run: hand its state to the caller, who
        // may resume it later.
        if (err instanceof ExecutorError && unsent.has(err)) Object.assign(err, { state: resume.state })
        throw err
      }
    }
    return this.#toResult(frame, session, prep.ctx)
  }

  /**
   * Runs one program. Resolves with its result; the program's own failures
   * (a throw, a syntax error, a timeout, bad providers or modules) are the
   * result's error. Rejects with an ExecutorError for the executor's
   * failures.
   * @param {import('../index.js').ExecuteRequest} request
   * @returns {Promise<import('../index.js').ExecuteResult>}
   */
  async execute(request) {
    this.#checkOpen()
    if (!isRecord(request)) throw new TypeError('execute takes a request object {code, providers, dispatch, ...}')
    if (typeof request.code !== 'string') throw new TypeError('the request code must be a string')
    let prep
    /** @type {Record<string, unknown>} */
    const fields = { code: request.code }
    try {
      prep = this.#prepare(request)
      const modules = wireModules(pick(request.modules, this.#defaults.modules))
      if (prep.providers) fields.providers = prep.providers
      if (modules) fields.modules = modules
      if (prep.options) fields.options = prep.options
    } catch (err) {
      if (err instanceof InvalidRequest) return { result: undefined, error: err.message, errorCode: 'INVALID_REQUEST', logs: [] }
      throw err
    }
    return this.#complete('execute', fields, prep, request.signal ?? undefined)
  }

  /**
   * Continues a run saved in a SUSPENDED result's state (when connect's
   * resumeSuspended is false). providers must be those of the original
   * execute; dispatch and outbound answer the resumed run's calls.
   * @param {import('../index.js').ResumeRequest} request
   * @returns {Promise<import('../index.js').ExecuteResult>}
   */
  async resume(request) {
    this.#checkOpen()
    if (!isRecord(request)) throw new TypeError('resume takes a request object {state, providers, dispatch, ...}')
    let state = request.state
    if (state instanceof Uint8Array || state instanceof ArrayBuffer) {
      state = encodeBase64(state instanceof Uint8Array ? state : new Uint8Array(state))
    }
    if (typeof state !== 'string' || decodeBase64(state) === null) {
      throw new TypeError('the resume state must be the base64 string of a SUSPENDED result (or its bytes)')
    }
    let prep
    /** @type {Record<string, unknown>} */
    const fields = { state }
    try {
      prep = this.#prepare(request)
      if (prep.providers) fields.providers = prep.providers
      const options = resumeOptions(prep.options)
      if (options) fields.options = options
    } catch (err) {
      if (err instanceof InvalidRequest) return { result: undefined, error: err.message, errorCode: 'INVALID_REQUEST', logs: [] }
      throw err
    }
    return this.#complete('resume', fields, prep, request.signal ?? undefined)
  }

  /**
   * Calls the handle (a path such as "increment" or "nested.reset") of a
   * retained execution with argsJson (a JSON text, as parseDispatchArguments
   * reads it; a value that is not a string is encoded). Its tool calls go to
   * the original request's dispatch. Rejects with UNKNOWN_EXECUTION for an
   * execution this executor does not hold.
   * @param {string} executionId
   * @param {string} handle
   * @param {unknown} [argsJson]
   * @param {{signal?: AbortSignal}} [options]
   * @returns {Promise<import('../index.js').ExecuteResult>}
   */
  async invokeHandle(executionId, handle, argsJson, options = {}) {
    this.#checkOpen()
    if (typeof executionId !== 'string' || executionId === '') throw new TypeError('executionId must be a non-empty string')
    if (typeof handle !== 'string' || handle === '') throw new TypeError('handle must be a non-empty string')
    const entry = this.#retained.get(executionId)
    if (!entry || entry.session.isClosed) {
      throw new ExecutorError('UNKNOWN_EXECUTION', `execution ${JSON.stringify(executionId)} is not retained by this executor`)
    }
    /** @type {Record<string, unknown>} */
    const fields = { executionId, handle }
    const args = wireArgs(argsJson)
    if (args !== undefined) fields.args = args
    this.#touch(executionId)
    let frame
    try {
      frame = await entry.session.request('invokeHandle', fields, entry.ctx, options?.signal ?? undefined)
    } catch (err) {
      if (err instanceof ExecutorError && err.code === 'UNKNOWN_EXECUTION') this.#forget(executionId)
      throw err
    } finally {
      this.#touch(executionId)
    }
    const out = this.#toResult(frame, entry.session, entry.ctx)
    delete out.executionId
    delete out.handles
    return out
  }

  /**
   * Releases a retained execution. Rejects with UNKNOWN_EXECUTION for one
   * this executor does not hold (never retained, already closed, or lost
   * with its connection).
   * @param {string} executionId
   * @returns {Promise<void>}
   */
  async closeHandles(executionId) {
    this.#checkOpen()
    const entry = this.#retained.get(executionId)
    if (!entry || entry.session.isClosed) {
      throw new ExecutorError('UNKNOWN_EXECUTION', `execution ${JSON.stringify(executionId)} is not retained by this executor`)
    }
    try {
      await entry.session.request('closeHandles', { executionId }, {}, undefined)
    } finally {
      this.#forget(executionId)
    }
  }

  /**
   * Closes every session. Requests in flight and every later call reject
   * with SHUTTING_DOWN. Resolves once the sockets have closed.
   * @returns {Promise<void>}
   */
  dispose() {
    if (!this.#disposing) {
      this.#disposed = true
      for (const wake of [...this.#wakeups]) wake()
      for (const id of [...this.#retained.keys()]) clearTimeout(this.#retained.get(id)?.timer)
      this.#retained.clear()
      this.#current = null
      const err = this.#disposedError()
      const closing = [...this.#sessions].map((s) => s.close(1000, 'disposed', err))
      this.#disposing = Promise.all(closing).then(() => {})
    }
    return this.#disposing
  }

  /** Same as dispose, for `await using`. */
  [Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose')]() {
    return this.dispose()
  }
}
