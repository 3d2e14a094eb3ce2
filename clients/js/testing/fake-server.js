// A fake codemode server for the tests: it speaks docs/protocol.md from the
// server's side, decodes every client frame strictly (testing/strict.js) and
// records each violation. A test drives it frame by frame: it awaits what the
// client sent with conn.next(type) and answers with conn.send(...).

import { WebSocketServer } from 'ws'
import { decodeClientFrame } from './strict.js'

/** A queue whose takers wait for the next item. */
class Queue {
  /** @type {any[]} */
  #items = []
  /** @type {{resolve: (v: any) => void, reject: (e: unknown) => void}[]} */
  #takers = []
  /** @type {Error | null} */
  #ended = null

  /** @param {any} item */
  push(item) {
    const taker = this.#takers.shift()
    if (taker) taker.resolve(item)
    else this.#items.push(item)
  }

  /** @param {Error} err */
  end(err) {
    this.#ended = err
    for (const t of this.#takers.splice(0)) t.reject(err)
  }

  take() {
    if (this.#items.length > 0) return Promise.resolve(this.#items.shift())
    if (this.#ended) return Promise.reject(this.#ended)
    return new Promise((resolve, reject) => this.#takers.push({ resolve, reject }))
  }

  get size() {
    return this.#items.length
  }
}

export class FakeConnection {
  /** @type {import('ws').WebSocket} */
  socket
  /** @type {import('http').IncomingHttpHeaders} */
  headers
  /** @type {Record<string, any> | null} */
  hello = null
  acked = false
  /** Every decoded frame after the hello, in order. */
  /** @type {Record<string, any>[]} */
  received = []
  /** Request ids in flight: sent by the client, not yet answered. */
  inflight = new Set()
  /** Calls the server made and the client has not answered, by callId. */
  /** @type {Map<string, {id: string, kind: string}>} */
  outstanding = new Map()
  /** @type {Promise<{code: number, reason: string}>} */
  closed
  #queue = new Queue()
  #server
  #n

  /**
   * @param {FakeServer} server
   * @param {import('ws').WebSocket} socket
   * @param {import('http').IncomingMessage} req
   * @param {number} n
   */
  constructor(server, socket, req, n) {
    this.#server = server
    this.#n = n
    this.socket = socket
    this.headers = req.headers
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        this.#queue.end(new Error(`connection #${n} closed (${code})`))
        resolve({ code, reason: reason.toString() })
      })
    })
    socket.on('message', (data, isBinary) => this.#onFrame(isBinary ? data : data.toString()))
  }

  /** @param {string} what */
  #violation(what) {
    const text = `connection #${this.#n}: ${what}`
    this.#server.violations.push(text)
    this.#queue.end(new Error(`protocol violation: ${text}`))
  }

  /** @param {any} data */
  #onFrame(data) {
    let msg
    try {
      msg = decodeClientFrame(data)
    } catch (err) {
      this.#violation(`malformed frame ${String(data).slice(0, 300)}: ${/** @type {Error} */ (err).message}`)
      return
    }
    if (!this.hello) {
      if (msg.type !== 'hello') {
        this.#violation(`first frame is ${msg.type}, not hello`)
        return
      }
      this.hello = msg
      this.#server.handleHello(msg, this)
      return
    }
    if (msg.type === 'hello') {
      this.#violation('a second hello')
      return
    }
    if (!this.acked) {
      this.#violation(`${msg.type} before the helloAck`)
      return
    }
    switch (msg.type) {
      case 'execute':
      case 'invokeHandle':
      case 'closeHandles':
      case 'resume':
        if (this.inflight.has(msg.id)) {
          this.#violation(`${msg.type} reuses the id ${msg.id} of a request in flight`)
          return
        }
        this.inflight.add(msg.id)
        break
      case 'dispatchResult':
      case 'fetchResult': {
        const kind = msg.type === 'dispatchResult' ? 'dispatch' : 'fetch'
        const call = this.outstanding.get(msg.callId)
        if (!call || call.id !== msg.id || call.kind !== kind) {
          this.#violation(`${msg.type} for ${msg.id}/${msg.callId}, which is no outstanding ${kind}`)
          return
        }
        this.outstanding.delete(msg.callId)
        break
      }
    }
    this.received.push(msg)
    this.#queue.push(msg)
  }

  /**
   * The next frame the client sent (after the hello). With a type, a frame
   * of another type fails.
   * @param {string} [type]
   */
  async next(type) {
    const msg = await this.#queue.take()
    if (type && msg.type !== type) throw new Error(`expected a ${type} frame, got ${JSON.stringify(msg)}`)
    return msg
  }

  /** How many frames wait to be taken by next. */
  get queued() {
    return this.#queue.size
  }

  /** @param {unknown} msg */
  send(msg) {
    this.socket.send(typeof msg === 'string' ? msg : JSON.stringify(msg))
  }

  /**
   * Answers a request: a result frame of id.
   * @param {string} id
   * @param {Record<string, unknown>} [fields]
   */
  result(id, fields = {}) {
    this.inflight.delete(id)
    this.send({ type: 'result', id, ...fields })
  }

  /**
   * Answers a request with an error frame.
   * @param {string} id
   * @param {string} code
   * @param {string} message
   */
  error(id, code, message) {
    this.inflight.delete(id)
    this.send({ type: 'error', id, code, message })
  }

  /**
   * Sends a tool call of the run id.
   * @param {string} id
   * @param {string} callId
   * @param {string} provider
   * @param {string} tool
   * @param {string} args
   */
  dispatch(id, callId, provider, tool, args) {
    this.outstanding.set(callId, { id, kind: 'dispatch' })
    this.send({ type: 'dispatch', id, callId, provider, tool, args })
  }

  /**
   * Sends an outbound request of the run id.
   * @param {string} id
   * @param {string} callId
   * @param {Record<string, unknown>} request
   */
  fetch(id, callId, request) {
    this.outstanding.set(callId, { id, kind: 'fetch' })
    this.send({ type: 'fetch', id, callId, request })
  }

  /**
   * @param {number} [code]
   * @param {string} [reason]
   */
  close(code = 1000, reason = '') {
    this.socket.close(code, reason)
    return this.closed
  }

  /** Cuts the connection without a close frame. */
  terminate() {
    this.socket.terminate()
    return this.closed
  }
}

/**
 * @typedef {object} FakeServerOptions
 * @property {string} [token] the bearer token the hello or the upgrade must carry
 * @property {number} [version] the version the server speaks (1)
 * @property {number} [refuseUpgrade] an HTTP status every upgrade is refused with
 */

export class FakeServer {
  /** @type {WebSocketServer} */
  #wss
  /** @type {FakeConnection[]} */
  connections = []
  /** @type {string[]} */
  violations = []
  /** performance.now() of every upgrade, in order. */
  /** @type {number[]} */
  upgrades = []
  /** @type {string} */
  url = ''
  token
  version
  /**
   * Takes over the hello: called with the hello and the connection; return
   * true when it answered (or chose not to), anything else for the default
   * handling.
   * @type {((hello: Record<string, any>, conn: FakeConnection) => boolean | void) | null}
   */
  onHello = null
  /**
   * What a new connection meets before its hello: 'accept' (the default),
   * or 'close' (the server closes it right after the upgrade).
   */
  onUpgrade = 'accept'
  #connQueue = new Queue()
  #upgradeQueue = new Queue()

  /** @param {FakeServerOptions} [options] */
  constructor(options = {}) {
    this.token = options.token
    this.version = options.version ?? 1
    this.refuseUpgrade = options.refuseUpgrade
  }

  /** @param {FakeServerOptions} [options] */
  static async start(options) {
    const server = new FakeServer(options)
    await server.#listen()
    return server
  }

  async #listen() {
    this.#wss = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      verifyClient: (_info, cb) => {
        if (this.refuseUpgrade) {
          this.upgrades.push(performance.now())
          this.#upgradeQueue.push(this.upgrades.length)
          cb(false, this.refuseUpgrade)
        } else {
          cb(true)
        }
      },
    })
    await new Promise((resolve, reject) => {
      this.#wss.once('listening', resolve)
      this.#wss.once('error', reject)
    })
    const addr = /** @type {import('net').AddressInfo} */ (this.#wss.address())
    this.url = `ws://127.0.0.1:${addr.port}/`
    this.#wss.on('connection', (socket, req) => {
      this.upgrades.push(performance.now())
      this.#upgradeQueue.push(this.upgrades.length)
      const conn = new FakeConnection(this, socket, req, this.connections.length + 1)
      this.connections.push(conn)
      if (req.url !== '/') this.violations.push(`connection #${this.connections.length}: path ${req.url}, not /`)
      if (this.onUpgrade === 'close') {
        socket.close(1011, 'going away')
        return
      }
      this.#connQueue.push(conn)
    })
  }

  /** Resolves with the number of the next upgrade (refused ones included). */
  nextUpgrade() {
    return this.#upgradeQueue.take()
  }

  /** The next connection that got past its upgrade. */
  nextConnection() {
    return this.#connQueue.take()
  }

  /**
   * The default hello: the version, then the token (in the hello or as the
   * bearer header), then helloAck.
   * @param {Record<string, any>} hello
   * @param {FakeConnection} conn
   */
  handleHello(hello, conn) {
    if (this.onHello && this.onHello(hello, conn) === true) return
    if (hello.version !== this.version) {
      conn.send({
        type: 'error', id: hello.id, code: 'PROTOCOL_MISMATCH',
        message: `protocol version mismatch: the peer speaks version ${hello.version}, this side speaks version ${this.version}; both sides must speak the same version`,
      })
      conn.close(1002)
      return
    }
    if (this.token !== undefined) {
      const bearer = conn.headers.authorization === `Bearer ${this.token}`
      if (hello.token !== this.token && !bearer) {
        conn.send({ type: 'error', id: hello.id, code: 'CONNECTION_REJECTED', message: 'the token is missing or wrong' })
        conn.close(1008)
        return
      }
    }
    conn.acked = true
    conn.send({ type: 'helloAck', id: hello.id, version: this.version })
  }

  /** Closes every connection and the listener. */
  async close() {
    for (const c of this.connections) c.socket.terminate()
    await new Promise((resolve) => this.#wss.close(() => resolve(undefined)))
  }
}
