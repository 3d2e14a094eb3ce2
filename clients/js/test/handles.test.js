// Retained executions: invokeHandle and closeHandles, and the session that
// holds them.

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createEnvelopeDispatch, parseDispatchArguments } from '../index.js'
import { rejectsWith, setup } from '../testing/harness.js'

/**
 * Runs one execute that the fake server answers as retained.
 * @param {any} conn
 * @param {any} executor
 * @param {Record<string, unknown>} [request]
 * @param {string} [executionId]
 */
async function retainedRun(conn, executor, request = {}, executionId = 'x-3f9a') {
  const run = executor.execute({ code: 'async () => ({ increment, nested: { reset } })', retainHandles: true, ...request })
  const msg = await conn.next('execute')
  assert.equal(msg.options.retainHandles, true)
  conn.result(msg.id, { resultJson: { ok: true }, executionId, handles: ['increment', 'nested.reset'] })
  return run
}

test('a retained run gives executionId and handles; invokeHandle and closeHandles use them', async (t) => {
  const { conn, executor } = await setup(t)
  /** @type {unknown[][]} */
  const toolCalls = []
  const dispatch = createEnvelopeDispatch({ active: true }, (provider, tool, argsJson) => {
    toolCalls.push([provider, tool, parseDispatchArguments(argsJson)])
    return 41
  })
  const out = await retainedRun(conn, executor, { providers: [{ name: 'counter', tools: ['base'] }], dispatch })
  assert.deepEqual(out, {
    result: { ok: true }, error: undefined, errorCode: undefined, logs: [], executionId: 'x-3f9a', handles: ['increment', 'nested.reset'],
  })

  const call = executor.invokeHandle('x-3f9a', 'increment', '[5]')
  const inv = await conn.next('invokeHandle')
  assert.deepEqual(inv, { type: 'invokeHandle', id: inv.id, executionId: 'x-3f9a', handle: 'increment', args: '[5]' })
  // The invocation's tool calls go to the original request's dispatch.
  conn.dispatch(inv.id, 'c9', 'counter', 'base', '[]')
  assert.equal((await conn.next('dispatchResult')).envelope, '{"result":41}')
  assert.deepEqual(toolCalls, [['counter', 'base', []]])
  conn.result(inv.id, { resultJson: 46, logs: [{ level: 'log', text: 'inc' }] })
  assert.deepEqual(await call, { result: 46, error: undefined, errorCode: undefined, logs: [{ level: 'log', text: 'inc' }] })

  const noArgs = executor.invokeHandle('x-3f9a', 'nested.reset')
  const inv2 = await conn.next('invokeHandle')
  assert.equal('args' in inv2, false)
  conn.result(inv2.id, { error: { message: 'Error: cannot reset' } })
  assert.equal((await noArgs).error, 'Error: cannot reset')

  const valueArgs = executor.invokeHandle('x-3f9a', 'increment', [1, new Uint8Array([7])])
  const inv3 = await conn.next('invokeHandle')
  assert.equal(inv3.args, '[1,{"$binary":"Bw=="}]')
  conn.result(inv3.id, { resultJson: 1 })
  await valueArgs

  const closing = executor.closeHandles('x-3f9a')
  const close = await conn.next('closeHandles')
  assert.deepEqual(close, { type: 'closeHandles', id: close.id, executionId: 'x-3f9a' })
  conn.result(close.id)
  await closing
  await rejectsWith(executor.invokeHandle('x-3f9a', 'increment'), 'UNKNOWN_EXECUTION')
  await rejectsWith(executor.closeHandles('x-3f9a'), 'UNKNOWN_EXECUTION')
  assert.equal(conn.queued, 0, 'nothing was sent for an execution the executor no longer holds')
})

test('the server\'s UNKNOWN_EXECUTION rejects, and the executor forgets the execution', async (t) => {
  const { conn, executor } = await setup(t)
  await retainedRun(conn, executor)
  const call = executor.invokeHandle('x-3f9a', 'increment')
  const inv = await conn.next('invokeHandle')
  conn.error(inv.id, 'UNKNOWN_EXECUTION', 'execution x-3f9a is not retained (idle for 5 minutes)')
  await rejectsWith(call, 'UNKNOWN_EXECUTION', /idle/)
  await rejectsWith(executor.closeHandles('x-3f9a'), 'UNKNOWN_EXECUTION')
})

test('an execution this executor never retained is UNKNOWN_EXECUTION without a frame', async (t) => {
  const { conn, executor } = await setup(t)
  await rejectsWith(executor.invokeHandle('nope', 'f'), 'UNKNOWN_EXECUTION')
  await rejectsWith(executor.closeHandles('nope'), 'UNKNOWN_EXECUTION')
  assert.equal(conn.queued, 0)
})

test('a retained execution is lost with its connection', async (t) => {
  const { conn, executor } = await setup(t)
  await retainedRun(conn, executor)
  const call = executor.invokeHandle('x-3f9a', 'increment')
  await conn.next('invokeHandle')
  conn.terminate()
  await rejectsWith(call, 'CONNECTION_LOST')
  await rejectsWith(executor.invokeHandle('x-3f9a', 'increment'), 'UNKNOWN_EXECUTION')
  await rejectsWith(executor.closeHandles('x-3f9a'), 'UNKNOWN_EXECUTION')
})

test('rotation keeps a session that holds retained executions until they are closed', async (t) => {
  const { server, conn, executor } = await setup(t, { connect: { rotateAfterExecutions: 1 } })
  await retainedRun(conn, executor)
  // The session is retired (one execution) but stays open for its handles.
  const second = executor.execute({ code: 'second' })
  const conn2 = await server.nextConnection()
  const m2 = await conn2.next('execute')
  conn2.result(m2.id, { resultJson: 2 })
  assert.equal((await second).result, 2)
  assert.equal(conn.socket.readyState, conn.socket.OPEN)

  const call = executor.invokeHandle('x-3f9a', 'increment', '[1]')
  const inv = await conn.next('invokeHandle')
  conn.result(inv.id, { resultJson: 1 })
  assert.equal((await call).result, 1)

  const closing = executor.closeHandles('x-3f9a')
  const close = await conn.next('closeHandles')
  conn.result(close.id)
  await closing
  assert.equal((await conn.closed).code, 1000, 'the retired session closes once its handles are closed')
  // The second session ran its one execution and retained nothing: it closed.
  assert.equal((await conn2.closed).code, 1000)
})

test('a retired session forgets an idle retained execution and closes', async (t) => {
  const { conn, executor } = await setup(t, { connect: { rotateAfterExecutions: 1, handlesIdleTimeout: 30 } })
  await retainedRun(conn, executor)
  assert.equal((await conn.closed).code, 1000)
  await rejectsWith(executor.invokeHandle('x-3f9a', 'increment'), 'UNKNOWN_EXECUTION')
})

test('invokeHandle can be cancelled', async (t) => {
  const { conn, executor } = await setup(t)
  await retainedRun(conn, executor)
  const controller = new AbortController()
  const call = executor.invokeHandle('x-3f9a', 'increment', '[]', { signal: controller.signal })
  const settled = call.catch((e) => e)
  const inv = await conn.next('invokeHandle')
  controller.abort()
  assert.deepEqual(await conn.next('cancel'), { type: 'cancel', id: inv.id })
  assert.equal((await settled).code, 'CANCELLED')
})
