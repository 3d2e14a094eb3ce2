// The setup the client tests share: a fake server, a connected executor,
// and checks that run when the test ends.

import assert from 'node:assert/strict'
import { connect } from '../index.js'
import { FakeServer } from './fake-server.js'

/**
 * Starts a fake server and connects an executor to it. When the test ends
 * the executor is disposed, the server closed, and the test fails if the
 * server saw a frame the protocol refuses.
 * @param {import('node:test').TestContext} t
 * @param {{server?: import('./fake-server.js').FakeServerOptions, connect?: import('../index.js').ConnectOptions}} [options]
 */
export async function setup(t, options = {}) {
  const server = await FakeServer.start(options.server)
  /** @type {import('../index.js').RemoteExecutor | undefined} */
  let executor
  t.after(async () => {
    await executor?.dispose()
    await server.close()
    assert.deepEqual(server.violations, [], 'the fake server saw frames the protocol refuses')
  })
  const connecting = connect(server.url, options.connect)
  const conn = await server.nextConnection()
  executor = await connecting
  return { server, conn, executor }
}

/**
 * Starts a fake server whose cleanup the test registers; for tests that
 * connect by themselves.
 * @param {import('node:test').TestContext} t
 * @param {import('./fake-server.js').FakeServerOptions} [options]
 */
export async function startServer(t, options) {
  const server = await FakeServer.start(options)
  t.after(async () => {
    await server.close()
    assert.deepEqual(server.violations, [], 'the fake server saw frames the protocol refuses')
  })
  return server
}

/**
 * A promise and its resolve, for a value the test hands over later.
 * @template T
 */
export function deferred() {
  /** @type {(v: T) => void} */
  let resolve = () => {}
  /** @type {(e: unknown) => void} */
  let reject = () => {}
  /** @type {Promise<T>} */
  const promise = new Promise((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/**
 * Asserts that a promise rejects with an ExecutorError of code.
 * @param {Promise<unknown>} promise
 * @param {string} code
 * @param {RegExp} [message]
 */
export async function rejectsWith(promise, code, message) {
  await assert.rejects(promise, (err) => {
    assert.equal(/** @type {any} */ (err)?.name, 'ExecutorError', String(err))
    assert.equal(/** @type {any} */ (err).code, code, String(/** @type {any} */ (err).message))
    if (message) assert.match(/** @type {Error} */ (err).message, message)
    return true
  })
}
