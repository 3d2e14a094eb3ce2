// connect: the handshake and its failures.

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { WebSocket } from 'ws'
import { connect, ExecutorError } from '../index.js'
import { rejectsWith, setup, startServer } from '../testing/harness.js'

test('connect says hello with the version and the token, also as a bearer header', async (t) => {
  const { conn, executor } = await setup(t, {
    server: { token: 's3cret' },
    connect: { token: 's3cret', headers: { 'X-Trace': 'abc' } },
  })
  assert.deepEqual(conn.hello, { type: 'hello', id: 'h1', version: 1, token: 's3cret' })
  assert.equal(conn.headers.authorization, 'Bearer s3cret')
  assert.equal(conn.headers['x-trace'], 'abc')
  assert.equal(executor.disposed, false)
})

test('a hello without a token has no token field', async (t) => {
  const { conn } = await setup(t)
  assert.deepEqual(conn.hello, { type: 'hello', id: 'h1', version: 1 })
  assert.equal(conn.headers.authorization, undefined)
})

test('an Authorization header of the caller wins over the token\'s', async (t) => {
  const { conn } = await setup(t, { connect: { token: 'x', headers: { authorization: 'Basic Zm9v' } } })
  assert.equal(conn.headers.authorization, 'Basic Zm9v')
  assert.equal(conn.hello?.token, 'x')
})

test('a version mismatch rejects with PROTOCOL_MISMATCH', async (t) => {
  const server = await startServer(t, { version: 2 })
  await rejectsWith(connect(server.url), 'PROTOCOL_MISMATCH',
    /^protocol version mismatch: the peer speaks version 1, this side speaks version 2; both sides must speak the same version$/)
  assert.equal(server.connections.length, 1)
})

test('a helloAck of another version rejects with PROTOCOL_MISMATCH', async (t) => {
  const server = await startServer(t)
  server.onHello = (hello, conn) => {
    conn.send({ type: 'helloAck', id: hello.id, version: 2 })
    return true
  }
  await rejectsWith(connect(server.url), 'PROTOCOL_MISMATCH', /the peer speaks version 2, this side speaks version 1/)
})

test('a refused token rejects with CONNECTION_REJECTED, without a retry', async (t) => {
  const server = await startServer(t, { token: 'right' })
  await rejectsWith(connect(server.url, { token: 'wrong' }), 'CONNECTION_REJECTED', /token/)
  await rejectsWith(connect(server.url), 'CONNECTION_REJECTED')
  assert.equal(server.connections.length, 2)
})

test('an upgrade refused with 401 rejects with CONNECTION_REJECTED', async (t) => {
  const server = await startServer(t, { refuseUpgrade: 401 })
  await rejectsWith(connect(server.url), 'CONNECTION_REJECTED', /401/)
  assert.equal(server.upgrades.length, 1)
})

test('a draining server rejects the hello with SHUTTING_DOWN', async (t) => {
  const server = await startServer(t)
  server.onHello = (hello, conn) => {
    conn.send({ type: 'error', id: hello.id, code: 'SHUTTING_DOWN', message: 'the server is draining' })
    conn.close(1001)
    return true
  }
  await rejectsWith(connect(server.url), 'SHUTTING_DOWN', /draining/)
})

test('a server that closes before the helloAck rejects with CONNECTION_LOST', async (t) => {
  const server = await startServer(t)
  server.onUpgrade = 'close'
  await rejectsWith(connect(server.url), 'CONNECTION_LOST', /cannot open a session/)
})

test('a server that never answers the hello rejects after handshakeTimeout', async (t) => {
  const server = await startServer(t)
  server.onHello = () => true
  await rejectsWith(connect(server.url, { handshakeTimeout: 50 }), 'CONNECTION_LOST', /no answer to the hello .* within 50 ms/)
})

test('nothing listening rejects with CONNECTION_LOST', async (t) => {
  const server = await startServer(t)
  const url = server.url
  await server.close()
  await rejectsWith(connect(url), 'CONNECTION_LOST')
})

test('a bad URL or option is a TypeError', async () => {
  await assert.rejects(connect('http://127.0.0.1:1/'), TypeError)
  await assert.rejects(connect('not a url'), TypeError)
  await assert.rejects(connect('ws://127.0.0.1:1/', { reconnect: /** @type {any} */ (5) }), TypeError)
  await assert.rejects(connect('ws://127.0.0.1:1/', { rotateAfterExecutions: 0 }), TypeError)
  await assert.rejects(connect('ws://127.0.0.1:1/', { timeout: -1 }), TypeError)
  await assert.rejects(connect('ws://127.0.0.1:1/', { outbound: /** @type {any} */ ('sometimes') }), TypeError)
})

test('the websocket option builds the socket; a constructor without options gets no headers', async (t) => {
  const server = await startServer(t, { token: 'tok' })
  /** @type {string[]} */
  const built = []
  // A standard-style constructor: (url, protocols), no options.
  const Plain = function (/** @type {string} */ url) {
    built.push(url)
    return new WebSocket(url)
  }
  const executor = await connect(server.url, { token: 'tok', websocket: Plain })
  t.after(() => executor.dispose())
  assert.deepEqual(built, [server.url])
  assert.equal(server.connections[0].headers.authorization, undefined)
  assert.equal(server.connections[0].hello?.token, 'tok')

  await rejectsWith(connect(server.url, { websocket: Plain, headers: { 'X-A': '1' } }), 'CONNECTION_REJECTED', /headers/)

  // A subclass of ws sends headers.
  class Traced extends WebSocket {}
  const traced = await connect(server.url, { token: 'tok', websocket: Traced })
  t.after(() => traced.dispose())
  assert.equal(server.connections.at(-1)?.headers.authorization, 'Bearer tok')
})

test('ExecutorError is what connect rejects with', async (t) => {
  const server = await startServer(t, { version: 3 })
  const err = await connect(server.url).catch((e) => e)
  assert.ok(err instanceof ExecutorError)
})
