// execute against the fake server: the request on the wire, dispatches,
// binary, stub fetch, results, errors, cancellation.

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createEnvelopeDispatch, parseDispatchArguments, parseEnvelope } from '../index.js'
import { deferred, rejectsWith, setup } from '../testing/harness.js'

test('execute sends code, providers, modules and options in the protocol\'s form', async (t) => {
  const { conn, executor } = await setup(t)
  const run = executor.execute({
    code: 'import { slugify } from "helpers"\nasync () => 1',
    providers: [
      { name: 'store', tools: ['listUsers', 'getUser'], schemas: { getUser: { type: 'object' } }, descriptions: { listUsers: 'Every user' } },
      { name: 'kv', tools: ['get'], positionalArgs: false },
    ],
    modules: {
      helpers: 'export const slugify = s => s',
      'config.json': { json: { region: 'eu' } },
      legacy: { cjs: 'module.exports = {}' },
      banner: { text: 'hello' },
      esm: { js: 'export default 1' },
    },
    timeout: 5000,
    countHostWaits: true,
    retainHandles: true,
    outbound: 'disabled',
  })
  const msg = await conn.next('execute')
  assert.deepEqual(msg, {
    type: 'execute',
    id: msg.id,
    code: 'import { slugify } from "helpers"\nasync () => 1',
    providers: [
      { name: 'store', tools: ['listUsers', 'getUser'], schemas: { getUser: { type: 'object' } }, descriptions: { listUsers: 'Every user' } },
      { name: 'kv', tools: ['get'], positionalArgs: false },
    ],
    modules: {
      helpers: 'export const slugify = s => s',
      'config.json': { json: { region: 'eu' } },
      legacy: { cjs: 'module.exports = {}' },
      banner: { text: 'hello' },
      esm: { js: 'export default 1' },
    },
    options: { timeout: 5000, countHostWaits: true, retainHandles: true, outbound: 'disabled' },
  })
  conn.result(msg.id, { resultJson: 1 })
  assert.deepEqual(await run, { result: 1, error: undefined, errorCode: undefined, logs: [] })
})

test('a bare request sends code alone', async (t) => {
  const { conn, executor } = await setup(t)
  const run = executor.execute({ code: 'async () => {}' })
  const msg = await conn.next('execute')
  assert.deepEqual(Object.keys(msg).sort(), ['code', 'id', 'type'])
  conn.result(msg.id)
  assert.deepEqual(await run, { result: undefined, error: undefined, errorCode: undefined, logs: [] })
})

test('connection defaults apply, and a request field overrides them', async (t) => {
  const { conn, executor } = await setup(t, {
    connect: { timeout: 5000, countHostWaits: true, modules: new Map([['m', 'export default 1']]), outbound: 'native' },
  })
  const first = executor.execute({ code: 'a' })
  const m1 = await conn.next('execute')
  assert.deepEqual(m1.modules, { m: 'export default 1' })
  assert.deepEqual(m1.options, { timeout: 5000, countHostWaits: true, outbound: 'native' })
  conn.result(m1.id)
  await first

  const second = executor.execute({ code: 'b', timeout: null, countHostWaits: false, modules: { n: { text: 'x' } }, outbound: null })
  const m2 = await conn.next('execute')
  assert.deepEqual(m2.modules, { n: { text: 'x' } })
  assert.deepEqual(m2.options, { timeout: null, outbound: 'disabled' })
  conn.result(m2.id)
  await second

  const third = executor.execute({ code: 'c', timeout: 100, outbound: async () => ({ status: 200 }) })
  const m3 = await conn.next('execute')
  assert.deepEqual(m3.options, { timeout: 100, countHostWaits: true, outbound: 'stub' })
  conn.result(m3.id)
  await third
})

test('dispatches run concurrently and are answered in any order', async (t) => {
  const { conn, executor } = await setup(t)
  /** @type {Map<string, ReturnType<typeof deferred<unknown>>>} */
  const held = new Map()
  const allArrived = deferred()
  const state = { active: true }
  const run = executor.execute({
    code: 'async () => Promise.all([store.get(1), store.get(2), store.get(3)])',
    providers: [{ name: 'store', tools: ['get'] }],
    dispatch: createEnvelopeDispatch(state, (provider, tool, argsJson) => {
      const [n] = parseDispatchArguments(argsJson)
      const d = deferred()
      held.set(String(n), d)
      if (held.size === 3) allArrived.resolve(undefined)
      return d.promise
    }),
  })
  const msg = await conn.next('execute')
  conn.dispatch(msg.id, 'c1', 'store', 'get', '[1]')
  conn.dispatch(msg.id, 'c2', 'store', 'get', '[2]')
  conn.dispatch(msg.id, 'c3', 'store', 'get', '[3]')
  await allArrived.promise // three calls in flight at once
  held.get('3')?.resolve({ n: 3 })
  const a = await conn.next('dispatchResult')
  held.get('1')?.resolve({ n: 1 })
  const b = await conn.next('dispatchResult')
  held.get('2')?.resolve({ n: 2 })
  const c = await conn.next('dispatchResult')
  assert.deepEqual([a, b, c].map((m) => [m.id, m.callId, m.envelope]), [
    [msg.id, 'c3', '{"result":{"n":3}}'],
    [msg.id, 'c1', '{"result":{"n":1}}'],
    [msg.id, 'c2', '{"result":{"n":2}}'],
  ])
  conn.result(msg.id, { resultJson: [{ n: 1 }, { n: 2 }, { n: 3 }] })
  const out = await run
  state.active = false
  assert.deepEqual(out.result, [{ n: 1 }, { n: 2 }, { n: 3 }])
})

test('binary crosses as {"$binary"} both ways', async (t) => {
  const { conn, executor } = await setup(t)
  /** @type {unknown[]} */
  let seen = []
  const run = executor.execute({
    code: 'async () => files.put(new Uint8Array([1, 2]))',
    providers: [{ name: 'files', tools: ['put'] }],
    dispatch: createEnvelopeDispatch({ active: true }, (provider, tool, argsJson) => {
      seen = parseDispatchArguments(argsJson)
      return { stored: Buffer.from('body'), size: new Uint8Array([1, 2]).buffer }
    }),
  })
  const msg = await conn.next('execute')
  conn.dispatch(msg.id, 'c1', 'files', 'put', '[{"$binary":"AQI="},{"name":"a","data":{"$binary":""}}]')
  const answer = await conn.next('dispatchResult')
  assert.deepEqual(seen, [new Uint8Array([1, 2]), { name: 'a', data: new Uint8Array(0) }])
  assert.equal(answer.envelope, '{"result":{"stored":{"$binary":"Ym9keQ=="},"size":{"$binary":"AQI="}}}')
  assert.deepEqual(parseEnvelope(answer.envelope), { result: { stored: new TextEncoder().encode('body'), size: new Uint8Array([1, 2]) } })
  conn.result(msg.id, { resultJson: null })
  assert.equal((await run).result, null)
})

test('a dispatch that throws, returns a non-string or a malformed envelope answers {"error"}', async (t) => {
  const { conn, executor } = await setup(t)
  const run = executor.execute({
    code: 'x',
    providers: [{ name: 's', tools: ['a', 'b', 'c', 'd', 'e'] }],
    dispatch: async (provider, tool) => {
      switch (tool) {
        case 'a':
          throw new Error('no such user')
        case 'b':
          return /** @type {any} */ ({ result: 1 })
        case 'c':
          return '{"result":1,"extra":2}'
        case 'd':
          return '{"result":{"ok":true}}'
        default:
          throw new Error('')
      }
    },
  })
  const msg = await conn.next('execute')
  const want = {
    a: '{"error":"no such user"}',
    b: '{"error":"tool s.b: the dispatch function returned an object, not an envelope string"}',
    c: '{"error":"tool s.c: the dispatch function returned a malformed envelope: unknown field \\"extra\\""}',
    d: '{"result":{"ok":true}}',
    e: '{"error":"tool s.e failed"}',
  }
  for (const tool of Object.keys(want)) {
    conn.dispatch(msg.id, `c-${tool}`, 's', tool, '[]')
    const answer = await conn.next('dispatchResult')
    assert.equal(answer.callId, `c-${tool}`)
    assert.equal(answer.envelope, want[/** @type {keyof typeof want} */ (tool)])
  }
  conn.result(msg.id, { error: { message: 'Error: no such user' } })
  const out = await run
  assert.equal(out.error, 'Error: no such user')
  assert.equal(out.errorCode, undefined)
})

test('without a dispatch function every tool call is not found', async (t) => {
  const { conn, executor } = await setup(t)
  const run = executor.execute({ code: 'x', providers: [{ name: 'store', tools: ['get'] }] })
  const msg = await conn.next('execute')
  conn.dispatch(msg.id, 'c1', 'store', 'get', '[]')
  assert.equal((await conn.next('dispatchResult')).envelope, '{"error":"Tool \\"store.get\\" not found"}')
  conn.result(msg.id)
  await run
})

test('a dispatch for a run that is no longer in flight answers that the execution completed', async (t) => {
  const { conn, executor } = await setup(t)
  let called = 0
  const run = executor.execute({ code: 'x', dispatch: async () => { called++; return '{"result":1}' } })
  const msg = await conn.next('execute')
  conn.result(msg.id, { resultJson: 1 })
  await run
  conn.dispatch(msg.id, 'late', 'store', 'get', '[]')
  assert.equal((await conn.next('dispatchResult')).envelope, '{"error":"Execution has already completed."}')
  assert.equal(called, 0)
})

test('stub fetch: the outbound function performs the request', async (t) => {
  const { conn, executor } = await setup(t)
  /** @type {any[]} */
  const requests = []
  const run = executor.execute({
    code: 'x',
    outbound: async (request) => {
      requests.push(request)
      if (request.url.endsWith('/fail')) throw new Error('connection refused')
      if (request.url.endsWith('/teapot')) return { status: 418, headers: [['x-a', '1']] }
      if (request.url.endsWith('/response')) {
        return new Response('{"ok":true}', { status: 201, statusText: 'Created', headers: { 'content-type': 'application/json' } })
      }
      if (request.url.endsWith('/bad')) return { status: 99 }
      return { status: 200, statusText: 'OK', headers: { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] }, body: 'héllo', url: 'https://api.example/final' }
    },
  })
  const msg = await conn.next('execute')
  assert.equal(msg.options.outbound, 'stub')
  conn.fetch(msg.id, 'f1', { method: 'POST', url: 'https://api.example/v1/x', headers: [['content-type', 'application/json']], body: 'eyJhIjoxfQ==' })
  const r1 = await conn.next('fetchResult')
  assert.deepEqual(requests[0], {
    method: 'POST', url: 'https://api.example/v1/x', headers: [['content-type', 'application/json']], body: new TextEncoder().encode('{"a":1}'),
  })
  assert.deepEqual(r1, {
    type: 'fetchResult', id: msg.id, callId: 'f1',
    response: {
      status: 200, statusText: 'OK',
      headers: [['content-type', 'text/plain'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2']],
      body: Buffer.from('héllo').toString('base64'), url: 'https://api.example/final',
    },
  })

  conn.fetch(msg.id, 'f2', { method: 'GET', url: 'https://api.example/fail' })
  assert.deepEqual(await conn.next('fetchResult'), { type: 'fetchResult', id: msg.id, callId: 'f2', error: 'connection refused' })
  assert.deepEqual(requests[1], { method: 'GET', url: 'https://api.example/fail', headers: [], body: undefined })

  conn.fetch(msg.id, 'f3', { method: 'GET', url: 'https://api.example/teapot', body: '' })
  assert.deepEqual((await conn.next('fetchResult')).response, { status: 418, headers: [['x-a', '1']] })
  assert.deepEqual(requests[2].body, new Uint8Array(0))

  conn.fetch(msg.id, 'f4', { method: 'GET', url: 'https://api.example/response' })
  const r4 = await conn.next('fetchResult')
  assert.deepEqual(r4.response, {
    status: 201, statusText: 'Created', headers: [['content-type', 'application/json']], body: Buffer.from('{"ok":true}').toString('base64'),
  })

  conn.fetch(msg.id, 'f5', { method: 'GET', url: 'https://api.example/bad' })
  assert.match((await conn.next('fetchResult')).error, /status 99; an HTTP status is 200 to 599/)

  conn.result(msg.id, { resultJson: 'done' })
  assert.equal((await run).result, 'done')
})

test('a fetch for a run without an outbound function answers an error', async (t) => {
  const { conn, executor } = await setup(t)
  const run = executor.execute({ code: 'x', outbound: 'native' })
  const msg = await conn.next('execute')
  conn.fetch(msg.id, 'f1', { method: 'GET', url: 'https://a.example/' })
  assert.match((await conn.next('fetchResult')).error, /no outbound function/)
  conn.result(msg.id)
  await run
})

test('results: value, logs, and the program\'s failures resolve', async (t) => {
  const { conn, executor } = await setup(t)
  const cases = [
    [{ resultJson: ['ada-lovelace'], logs: [{ level: 'log', text: '2 users' }] },
      { result: ['ada-lovelace'], error: undefined, errorCode: undefined, logs: [{ level: 'log', text: '2 users' }] }],
    [{ error: { message: "TypeError: Cannot read properties of undefined (reading 'x'). (line 1, col 20)" }, logs: [] },
      { result: undefined, error: "TypeError: Cannot read properties of undefined (reading 'x'). (line 1, col 20)", errorCode: undefined, logs: [] }],
    [{ error: { code: 'TIMEOUT', message: 'Execution timed out after 5000ms.' } },
      { result: undefined, error: 'Execution timed out after 5000ms.', errorCode: 'TIMEOUT', logs: [] }],
    [{ error: { code: 'INVALID_REQUEST', message: 'Provider name "class" is a JavaScript reserved word' } },
      { result: undefined, error: 'Provider name "class" is a JavaScript reserved word', errorCode: 'INVALID_REQUEST', logs: [] }],
    [{ error: { code: 'PAYLOAD_TOO_LARGE', message: 'the result exceeds 8388608 characters' }, logs: [{ level: 'warn', text: 'w' }] },
      { result: undefined, error: 'the result exceeds 8388608 characters', errorCode: 'PAYLOAD_TOO_LARGE', logs: [{ level: 'warn', text: 'w' }] }],
    [{ resultJson: { ok: false } }, { result: { ok: false }, error: undefined, errorCode: undefined, logs: [] }],
    [{ resultJson: 0 }, { result: 0, error: undefined, errorCode: undefined, logs: [] }],
  ]
  for (const [frame, want] of cases) {
    const run = executor.execute({ code: 'x' })
    const msg = await conn.next('execute')
    conn.result(msg.id, frame)
    assert.deepEqual(await run, want)
  }
})

test('the executor\'s failures reject with their code', async (t) => {
  const { conn, executor } = await setup(t)
  /** @type {[(id: string) => void, string, RegExp][]} */
  const cases = [
    [(id) => conn.result(id, { error: { code: 'WORKER_CRASHED', message: 'the worker died' }, logs: [{ level: 'log', text: 'before' }] }), 'WORKER_CRASHED', /worker died/],
    [(id) => conn.result(id, { error: { code: 'INTERNAL', message: 'bug' } }), 'INTERNAL', /bug/],
    [(id) => conn.error(id, 'QUEUE_OVERFLOW', 'queue is full'), 'QUEUE_OVERFLOW', /queue is full/],
    [(id) => conn.error(id, 'PAYLOAD_TOO_LARGE', 'message of 70000000 bytes exceeds the limit of 67108864 bytes'), 'PAYLOAD_TOO_LARGE', /exceeds/],
    [(id) => conn.error(id, 'MALFORMED_MESSAGE', 'malformed message: unknown field "x"'), 'MALFORMED_MESSAGE', /unknown field/],
  ]
  for (const [answer, code, message] of cases) {
    const run = executor.execute({ code: 'x' })
    const msg = await conn.next('execute')
    answer(msg.id)
    await rejectsWith(run, code, message)
  }
  const run = executor.execute({ code: 'x' })
  const msg = await conn.next('execute')
  conn.result(msg.id, { error: { code: 'WORKER_CRASHED', message: 'died' }, logs: [{ level: 'log', text: 'before' }] })
  const err = await run.catch((e) => e)
  assert.deepEqual(err.logs, [{ level: 'log', text: 'before' }])
})

test('a request the protocol cannot carry is refused before it is sent', async (t) => {
  const { conn, executor } = await setup(t)
  const invalid = async (/** @type {any} */ request, /** @type {RegExp} */ message) => {
    const out = await executor.execute({ code: 'x', ...request })
    assert.equal(out.errorCode, 'INVALID_REQUEST')
    assert.match(/** @type {string} */ (out.error), message)
  }
  await invalid({ providers: [{ name: 'store', tools: ['get'], prelude: 'x' }] }, /field "prelude" is not part of the codemode protocol/)
  await invalid({ providers: [{ name: 'store', tools: 'get' }] }, /tools must be an array of strings/)
  await invalid({ providers: [{ tools: [] }] }, /name must be a string/)
  await invalid({ providers: {} }, /providers must be an array/)
  await invalid({ modules: { m: { data: 'x' } } }, /^module "m": module source has unknown kind "data" \(the kinds are js, cjs, json or text\)$/)
  await invalid({ modules: { m: {} } }, /module source is an empty object/)
  await invalid({ modules: { m: { js: 'a', text: 'b' } } }, /names 2 kinds \("js" and "text"\); name exactly one/)
  await invalid({ modules: { m: { js: 1 } } }, /module source "js" must be a string, not a number/)
  await invalid({ modules: { '': 'x' } }, /empty module name/)
  await invalid({ timeout: 1.5 }, /timeout must be a positive whole number of milliseconds, or null/)
  await invalid({ timeout: 0 }, /timeout must be a positive whole number/)
  await invalid({ outbound: 'sometimes' }, /the outbound modes are native, stub and disabled/)
  await rejectsWith(executor.execute({ code: 'x', outbound: 'stub' }), 'PROTOCOL_MISMATCH', /needs its function/)
  await assert.rejects(executor.execute(/** @type {any} */ ({ code: 1 })), TypeError)
  await assert.rejects(executor.execute(/** @type {any} */ ({ code: 'x', dispatch: 'no' })), TypeError)
  // Nothing of the above reached the server: the next frame is this execute.
  const run = executor.execute({ code: 'ok' })
  const msg = await conn.next('execute')
  assert.equal(msg.code, 'ok')
  conn.result(msg.id, { resultJson: true })
  assert.equal((await run).result, true)
})

test('a frame over maxFrameSize is PAYLOAD_TOO_LARGE, and the session goes on', async (t) => {
  const { conn, executor } = await setup(t, { connect: { maxFrameSize: 1000 } })
  await rejectsWith(executor.execute({ code: 'x'.repeat(1000) }), 'PAYLOAD_TOO_LARGE', /exceeds the limit of 1000 bytes/)
  await rejectsWith(executor.execute({ code: 'é'.repeat(490) }), 'PAYLOAD_TOO_LARGE')
  const run = executor.execute({ code: 'small', dispatch: async () => `{"result":"${'y'.repeat(2000)}"}` })
  const msg = await conn.next('execute')
  conn.dispatch(msg.id, 'c1', 's', 't', '[]')
  assert.match((await conn.next('dispatchResult')).envelope, /^\{"error":"tool s\.t: its answer exceeds the frame limit/)
  conn.result(msg.id)
  await run
})

test('an AbortSignal cancels: the server gets cancel and the call rejects with CANCELLED', async (t) => {
  const { conn, executor } = await setup(t)
  const controller = new AbortController()
  let calls = 0
  const run = executor.execute({ code: 'x', signal: controller.signal, dispatch: async () => { calls++; return '{"result":1}' } })
  const settled = run.catch((e) => e)
  const msg = await conn.next('execute')
  controller.abort(new Error('user left'))
  assert.deepEqual(await conn.next('cancel'), { type: 'cancel', id: msg.id })
  await rejectsWith(run, 'CANCELLED')
  const err = await settled
  assert.equal(err.cause.message, 'user left')
  // The server's late traffic for the cancelled run is handled.
  conn.dispatch(msg.id, 'c1', 's', 't', '[]')
  assert.equal((await conn.next('dispatchResult')).envelope, '{"error":"Execution has already completed."}')
  assert.equal(calls, 0)
  conn.result(msg.id, { error: { code: 'CANCELLED', message: 'cancelled' } })
  // The session is still good.
  const next = executor.execute({ code: 'y' })
  const m2 = await conn.next('execute')
  conn.result(m2.id, { resultJson: 2 })
  assert.equal((await next).result, 2)
})

test('a signal aborted before the call sends nothing', async (t) => {
  const { conn, executor } = await setup(t)
  await rejectsWith(executor.execute({ code: 'x', signal: AbortSignal.abort() }), 'CANCELLED')
  const run = executor.execute({ code: 'y' })
  assert.equal((await conn.next('execute')).code, 'y')
  conn.result(conn.received.at(-1)?.id)
  await run
})

test('a CANCELLED result rejects with CANCELLED', async (t) => {
  const { conn, executor } = await setup(t)
  const run = executor.execute({ code: 'x' })
  const msg = await conn.next('execute')
  conn.result(msg.id, { error: { code: 'CANCELLED', message: 'the run was cancelled' } })
  await rejectsWith(run, 'CANCELLED', /cancelled/)
})

test('an error frame without an id leaves the session working', async (t) => {
  const { conn, executor } = await setup(t)
  conn.send({ type: 'error', code: 'MALFORMED_MESSAGE', message: 'malformed message: not valid JSON' })
  conn.send({ type: 'someLaterType', id: 'z' })
  const run = executor.execute({ code: 'x' })
  const msg = await conn.next('execute')
  conn.result(msg.id, { resultJson: 1 })
  assert.equal((await run).result, 1)
})

test('a frame that is not JSON fails the session\'s requests with MALFORMED_MESSAGE', async (t) => {
  const { conn, executor } = await setup(t)
  const run = executor.execute({ code: 'x' })
  await conn.next('execute')
  conn.send('this is not json')
  await rejectsWith(run, 'MALFORMED_MESSAGE', /not JSON/)
  assert.equal((await conn.closed).code, 1002)
})
