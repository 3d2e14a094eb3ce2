// Sessions behind one executor: rotation, reconnection with backoff,
// draining servers, suspended runs resumed elsewhere, dispose.

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { connect, createEnvelopeDispatch, parseDispatchArguments } from '../index.js'
import { rejectsWith, setup, startServer } from '../testing/harness.js'

/**
 * Drops the connection under a run in flight and waits for the client to
 * see it: the run fails with CONNECTION_LOST.
 * @param {import('../testing/fake-server.js').FakeConnection} conn
 * @param {import('../index.js').RemoteExecutor} executor
 */
async function drop(conn, executor) {
  const run = executor.execute({ code: 'in flight when the connection drops' })
  const settled = run.catch((e) => e)
  await conn.next('execute')
  conn.terminate()
  assert.equal((await settled).code, 'CONNECTION_LOST')
}

test('after rotateAfterExecutions the session is retired once its work ends, and a new one opens', async (t) => {
  const { server, conn, executor } = await setup(t, { connect: { rotateAfterExecutions: 2 } })
  const a = executor.execute({ code: 'a' })
  const b = executor.execute({ code: 'b' })
  const ma = await conn.next('execute')
  const mb = await conn.next('execute')
  // The third goes to a new session while the first still has work in flight.
  const c = executor.execute({ code: 'c' })
  const conn2 = await server.nextConnection()
  const mc = await conn2.next('execute')
  assert.equal(mc.code, 'c')
  assert.equal(conn.socket.readyState, conn.socket.OPEN, 'the retired session waits for its runs')
  conn2.result(mc.id, { resultJson: 'c' })
  assert.equal((await c).result, 'c')
  conn.result(ma.id, { resultJson: 'a' })
  assert.equal((await a).result, 'a')
  assert.equal(conn.socket.readyState, conn.socket.OPEN)
  conn.result(mb.id, { resultJson: 'b' })
  assert.equal((await b).result, 'b')
  assert.deepEqual(await conn.closed, { code: 1000, reason: 'retired' })
  // The second session has one execution left before it too rotates.
  const d = executor.execute({ code: 'd' })
  const md = await conn2.next('execute')
  conn2.result(md.id, { resultJson: 'd' })
  assert.equal((await d).result, 'd')
  assert.equal((await conn2.closed).code, 1000)
  assert.equal(server.connections.length, 2)
})

test('a dropped connection fails its runs; the next call reconnects', async (t) => {
  const { server, conn, executor } = await setup(t)
  const inflight = executor.execute({ code: 'a' })
  const settled = inflight.catch((e) => e)
  await conn.next('execute')
  conn.terminate()
  assert.equal((await settled).code, 'CONNECTION_LOST')
  const run = executor.execute({ code: 'b' })
  const conn2 = await server.nextConnection()
  const m = await conn2.next('execute')
  assert.equal(m.code, 'b')
  conn2.result(m.id, { resultJson: 2 })
  assert.equal((await run).result, 2)
})

test('reconnecting backs off backoff × n before the n-th retry, then fails with CONNECTION_LOST', async (t) => {
  const backoff = 20
  const { server, conn, executor } = await setup(t, { connect: { reconnect: { retries: 3, backoff } } })
  server.onUpgrade = 'close'
  await drop(conn, executor)
  await rejectsWith(executor.execute({ code: 'x' }), 'CONNECTION_LOST', /after 4 attempts/)
  const attempts = server.upgrades.slice(1)
  assert.equal(attempts.length, 4, 'one attempt and three retries')
  for (let i = 1; i < attempts.length; i++) {
    const gap = attempts[i] - attempts[i - 1]
    assert.ok(gap >= backoff * i - 2, `retry ${i} came ${gap.toFixed(1)} ms after the attempt before it, not ${backoff * i}`)
  }
  // Once the server accepts again, the next call reconnects.
  server.onUpgrade = 'accept'
  const run = executor.execute({ code: 'y' })
  const conn2 = await server.nextConnection()
  const m = await conn2.next('execute')
  conn2.result(m.id, { resultJson: 1 })
  assert.equal((await run).result, 1)
})

test('the default reconnect is three retries', async (t) => {
  const { server, conn, executor } = await setup(t)
  server.refuseUpgrade = 503
  await drop(conn, executor)
  await rejectsWith(executor.execute({ code: 'x' }), 'CONNECTION_LOST', /503/)
  assert.equal(server.upgrades.length, 1 + 4)
})

test('a version mismatch while reconnecting is never retried', async (t) => {
  const { server, conn, executor } = await setup(t, { connect: { reconnect: { retries: 3, backoff: 1 } } })
  await drop(conn, executor)
  server.version = 2
  await rejectsWith(executor.execute({ code: 'x' }), 'PROTOCOL_MISMATCH')
  assert.equal(server.connections.length, 2)
})

test('a refused hello while reconnecting is not retried', async (t) => {
  const { server, conn, executor } = await setup(t, { server: { token: 'a' }, connect: { token: 'a', reconnect: { retries: 3, backoff: 1 } } })
  await drop(conn, executor)
  server.token = 'rotated'
  await rejectsWith(executor.execute({ code: 'x' }), 'CONNECTION_REJECTED')
  assert.equal(server.connections.length, 2)
})

test('a draining server\'s SHUTTING_DOWN at the hello is retried', async (t) => {
  const { server, conn, executor } = await setup(t, { connect: { reconnect: { retries: 3, backoff: 1 } } })
  await drop(conn, executor)
  let refusals = 2
  server.onHello = (hello, c) => {
    if (refusals-- <= 0) return false
    c.send({ type: 'error', id: hello.id, code: 'SHUTTING_DOWN', message: 'draining' })
    c.close(1001)
    return true
  }
  const run = executor.execute({ code: 'x' })
  await server.nextConnection()
  await server.nextConnection()
  const conn4 = await server.nextConnection()
  const m = await conn4.next('execute')
  conn4.result(m.id, { resultJson: 'ok' })
  assert.equal((await run).result, 'ok')
  assert.equal(server.connections.length, 4)
})

test('reconnect: false: once the connection is lost, calls fail with CONNECTION_LOST', async (t) => {
  const { server, conn, executor } = await setup(t, { connect: { reconnect: false } })
  await drop(conn, executor)
  await rejectsWith(executor.execute({ code: 'x' }), 'CONNECTION_LOST', /reconnect is off/)
  await rejectsWith(executor.execute({ code: 'y' }), 'CONNECTION_LOST')
  assert.equal(server.connections.length, 1)
})

test('reconnect: false: a connection the server retires (1001) is no loss', async (t) => {
  const { server, conn, executor } = await setup(t, { connect: { reconnect: false } })
  // The server goes away (status 1001) with a run in flight: the run fails...
  const run = executor.execute({ code: 'x' })
  const settled = run.catch((e) => e)
  await conn.next('execute')
  await conn.close(1001)
  assert.equal((await settled).code, 'CONNECTION_LOST')
  // ...but the executor is not lost: the next call opens a new session.
  const next = executor.execute({ code: 'y' })
  const conn2 = await server.nextConnection()
  const m2 = await conn2.next('execute')
  conn2.result(m2.id, { resultJson: 'y' })
  assert.equal((await next).result, 'y')
})

test('reconnect: false still rotates', async (t) => {
  const { server, conn, executor } = await setup(t, { connect: { reconnect: false, rotateAfterExecutions: 1 } })
  const a = executor.execute({ code: 'a' })
  const ma = await conn.next('execute')
  conn.result(ma.id)
  await a
  const b = executor.execute({ code: 'b' })
  const conn2 = await server.nextConnection()
  const mb = await conn2.next('execute')
  conn2.result(mb.id)
  await b
  assert.equal(server.connections.length, 2)
})

test('calls that find no live session share one new session', async (t) => {
  const { server, conn, executor } = await setup(t)
  await drop(conn, executor)
  const runs = [executor.execute({ code: '1' }), executor.execute({ code: '2' }), executor.execute({ code: '3' })]
  const conn2 = await server.nextConnection()
  for (let i = 0; i < 3; i++) {
    const m = await conn2.next('execute')
    conn2.result(m.id, { resultJson: m.code })
  }
  assert.deepEqual((await Promise.all(runs)).map((r) => r.result), ['1', '2', '3'])
  assert.equal(server.connections.length, 2)
})

test('an execute refused with SHUTTING_DOWN goes once more, to a new session', async (t) => {
  const { server, conn, executor } = await setup(t)
  const run = executor.execute({ code: 'x' })
  const m = await conn.next('execute')
  conn.error(m.id, 'SHUTTING_DOWN', 'the server is draining and takes no new work')
  const conn2 = await server.nextConnection()
  const m2 = await conn2.next('execute')
  assert.equal(m2.code, 'x')
  conn2.result(m2.id, { resultJson: 'moved' })
  assert.equal((await run).result, 'moved')
  assert.equal((await conn.closed).code, 1000, 'the draining session is retired')
})

test('a SUSPENDED run resumes on a new session with the same providers and dispatch', async (t) => {
  const { server, conn, executor } = await setup(t)
  /** @type {unknown[]} */
  const calls = []
  const providers = [{ name: 'store', tools: ['getUser'] }]
  const run = executor.execute({
    code: 'async () => { const a = await store.getUser(1); const b = await store.getUser(2); return [a, b] }',
    providers,
    timeout: 5000,
    countHostWaits: true,
    outbound: 'native',
    dispatch: createEnvelopeDispatch({ active: true }, (provider, tool, argsJson) => {
      const [id] = parseDispatchArguments(argsJson)
      calls.push(id)
      return { id }
    }),
  })
  const m = await conn.next('execute')
  conn.dispatch(m.id, 'c1', 'store', 'getUser', '[1]')
  assert.equal((await conn.next('dispatchResult')).envelope, '{"result":{"id":1}}')
  // The server drains while the run waits on its second call: it saves it.
  conn.result(m.id, { error: { code: 'SUSPENDED', message: 'the server is draining; the run was saved' }, state: 'Q01TVAEA', logs: [{ level: 'log', text: 'first' }] })
  assert.equal((await conn.closed).code, 1000, 'the draining session is retired')

  const conn2 = await server.nextConnection()
  const r = await conn2.next('resume')
  assert.deepEqual(r, { type: 'resume', id: r.id, state: 'Q01TVAEA', providers, options: { timeout: 5000 } })
  conn2.dispatch(r.id, 'c2', 'store', 'getUser', '[2]')
  assert.equal((await conn2.next('dispatchResult')).envelope, '{"result":{"id":2}}')
  // Saved again, and resumed again.
  conn2.result(r.id, { error: { code: 'SUSPENDED', message: 'again' }, state: 'AAAA' })
  const conn3 = await server.nextConnection()
  const r2 = await conn3.next('resume')
  assert.equal(r2.state, 'AAAA')
  conn3.result(r2.id, { resultJson: [{ id: 1 }, { id: 2 }], logs: [{ level: 'log', text: 'first' }, { level: 'log', text: 'second' }] })

  assert.deepEqual(await run, {
    result: [{ id: 1 }, { id: 2 }], error: undefined, errorCode: undefined,
    logs: [{ level: 'log', text: 'first' }, { level: 'log', text: 'second' }],
  })
  assert.deepEqual(calls, [1, 2])
})

test('a suspended run that no server takes rejects with its state, which resume continues later', async (t) => {
  const { server, conn, executor } = await setup(t, { connect: { reconnect: { retries: 1, backoff: 1 } } })
  const providers = [{ name: 'store', tools: ['get'] }]
  const run = executor.execute({ code: 'x', providers })
  const settled = run.catch((e) => e)
  const m = await conn.next('execute')
  server.refuseUpgrade = 503 // the successor is not up yet
  conn.result(m.id, { error: { code: 'SUSPENDED', message: 'saved' }, state: 'Q01TVAEA' })
  const err = await settled
  assert.equal(err.code, 'CONNECTION_LOST')
  assert.equal(err.state, 'Q01TVAEA')
  assert.equal(server.upgrades.length, 1 + 2)

  server.refuseUpgrade = undefined
  const resumed = executor.resume({ state: err.state, providers })
  const conn2 = await server.nextConnection()
  const r = await conn2.next('resume')
  assert.equal(r.state, 'Q01TVAEA')
  conn2.result(r.id, { resultJson: 'finished' })
  assert.equal((await resumed).result, 'finished')
})

test('with reconnect: false an execute refused with SHUTTING_DOWN rejects', async (t) => {
  const { server, conn, executor } = await setup(t, { connect: { reconnect: false } })
  const run = executor.execute({ code: 'x' })
  const m = await conn.next('execute')
  conn.error(m.id, 'SHUTTING_DOWN', 'draining')
  await rejectsWith(run, 'SHUTTING_DOWN', /draining/)
  assert.equal(server.connections.length, 1)
})

test('resumeSuspended: false gives the state, and executor.resume continues it', async (t) => {
  const { server, conn, executor } = await setup(t, { connect: { resumeSuspended: false } })
  const providers = [{ name: 'store', tools: ['get'] }]
  const run = executor.execute({ code: 'x', providers })
  const m = await conn.next('execute')
  conn.result(m.id, { error: { code: 'SUSPENDED', message: 'saved' }, state: 'Q01TVAEA', logs: [] })
  assert.deepEqual(await run, { result: undefined, error: 'saved', errorCode: 'SUSPENDED', logs: [], state: 'Q01TVAEA' })
  await conn.closed

  let dispatched = 0
  const resumed = executor.resume({
    state: 'Q01TVAEA',
    providers,
    outbound: null,
    dispatch: async () => { dispatched++; return '{"result":7}' },
  })
  const conn2 = await server.nextConnection()
  const r = await conn2.next('resume')
  // The server reads a resume's timeout alone: the other options are the saved run's.
  assert.deepEqual(r, { type: 'resume', id: r.id, state: 'Q01TVAEA', providers })
  conn2.dispatch(r.id, 'c1', 'store', 'get', '[]')
  assert.equal((await conn2.next('dispatchResult')).envelope, '{"result":7}')
  conn2.result(r.id, { resultJson: 7 })
  assert.equal((await resumed).result, 7)
  assert.equal(dispatched, 1)

  // A state given as bytes is sent as base64; a state the server refuses is the result's error.
  const again = executor.resume({ state: new Uint8Array([1, 2, 3]), providers })
  const r2 = await conn2.next('resume')
  assert.equal(r2.state, 'AQID')
  conn2.result(r2.id, { error: { code: 'INVALID_REQUEST', message: 'the state was saved with other providers' } })
  assert.equal((await again).errorCode, 'INVALID_REQUEST')
  await assert.rejects(executor.resume({ state: 'not base64!' }), TypeError)
})

test('dispose closes the sessions; runs in flight and later calls fail with SHUTTING_DOWN', async (t) => {
  const { conn, executor } = await setup(t)
  const run = executor.execute({ code: 'x' })
  const settled = run.catch((e) => e)
  await conn.next('execute')
  const disposing = executor.dispose()
  assert.equal(executor.disposed, true)
  const err = await settled
  assert.equal(err.code, 'SHUTTING_DOWN')
  assert.match(err.message, /disposed/)
  await disposing
  assert.deepEqual(await conn.closed, { code: 1000, reason: 'disposed' })
  await rejectsWith(executor.execute({ code: 'y' }), 'SHUTTING_DOWN')
  await rejectsWith(executor.invokeHandle('a', 'b'), 'SHUTTING_DOWN')
  await rejectsWith(executor.closeHandles('a'), 'SHUTTING_DOWN')
  await rejectsWith(executor.resume({ state: 'AAAA' }), 'SHUTTING_DOWN')
  await executor.dispose() // again: nothing more to do
})

test('dispose during a reconnect\'s backoff ends it at once', async (t) => {
  const { server, conn, executor } = await setup(t, { connect: { reconnect: { retries: 3, backoff: 60000 } } })
  server.onUpgrade = 'close'
  await drop(conn, executor)
  const run = executor.execute({ code: 'x' })
  const settled = run.catch((e) => e)
  // Wait for the first attempt; the client then backs off for a minute.
  while ((await server.nextUpgrade()) < 2);
  await executor.dispose()
  assert.equal((await settled).code, 'SHUTTING_DOWN')
})

test('connect then dispose with nothing run', async (t) => {
  const server = await startServer(t)
  const executor = await connect(server.url)
  const conn = await server.nextConnection()
  await executor.dispose()
  assert.equal((await conn.closed).code, 1000)
})

test('a server that closes every session right after its helloAck does not loop the client', async (t) => {
  const { server, conn, executor } = await setup(t, { connect: { reconnect: { retries: 0, backoff: 1 } } })
  await drop(conn, executor)
  server.onHello = (hello, c) => {
    c.acked = true
    c.send({ type: 'helloAck', id: hello.id, version: 1 })
    c.socket.close(1011)
    return true
  }
  const settled = executor.execute({ code: 'x' }).catch((e) => e)
  const err = await settled
  assert.equal(err.code, 'CONNECTION_LOST')
  assert.ok(server.connections.length <= 1 + 3 + 1, `${server.connections.length} connections`)
})
