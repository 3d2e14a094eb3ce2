// The client against the real daemon: `$CODEMODE_BIN serve`. Without
// CODEMODE_BIN this file fails, so that CI cannot skip it by accident; set
// CODEMODE_SKIP_INTEGRATION=1 to skip it on purpose.
//
//   go build -o /tmp/codemode ./cmd/codemode
//   CODEMODE_BIN=/tmp/codemode npm test

import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { after, before, describe, test } from 'node:test'
import {
  connect,
  createEnvelopeDispatch,
  ExecutorError,
  parseDispatchArguments,
  TIMEOUT_MESSAGE,
} from '../index.js'

const bin = process.env.CODEMODE_BIN
const skipOnPurpose = process.env.CODEMODE_SKIP_INTEGRATION === '1'
const TOKEN = 't'

if (!bin && !skipOnPurpose) {
  test('integration: CODEMODE_BIN names the codemode binary', () => {
    assert.fail('CODEMODE_BIN is not set. Build the daemon (go build -o /tmp/codemode ./cmd/codemode) and run ' +
      'CODEMODE_BIN=/tmp/codemode npm test, or set CODEMODE_SKIP_INTEGRATION=1 to skip the integration tests on purpose.')
  })
}

/**
 * Starts `codemode serve` on a free port and returns the process and the
 * URL from its first line of output, "listening on ws://127.0.0.1:PORT/".
 * @param {string} path
 */
async function startDaemon(path) {
  const child = spawn(path, ['serve', '--addr', '127.0.0.1:0', '--token', TOKEN], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (d) => { stderr += d })
  const lines = createInterface({ input: child.stdout })
  const first = new Promise((resolve, reject) => {
    lines.once('line', resolve)
    child.once('error', reject)
    child.once('exit', (code, signal) => reject(new Error(`${path} serve exited (${code ?? signal}) before it printed its address:\n${stderr}`)))
  })
  /** @type {any} */
  let timer
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${path} serve printed nothing within 20 s:\n${stderr}`)), 20000)
  })
  try {
    const line = /** @type {string} */ (await Promise.race([first, deadline]))
    const m = /^listening on (ws:\/\/127\.0\.0\.1:\d+\/)$/.exec(line.trim())
    if (!m) throw new Error(`the first line of ${path} serve is ${JSON.stringify(line)}, not "listening on ws://127.0.0.1:PORT/"`)
    // Keep draining stdout so that the daemon never blocks on it.
    child.stdout.resume()
    return { child, url: m[1], stderr: () => stderr }
  } catch (err) {
    child.kill('SIGKILL')
    throw err
  } finally {
    clearTimeout(timer)
  }
}

describe('integration: the client against codemode serve', { skip: bin ? false : 'CODEMODE_SKIP_INTEGRATION=1 and no CODEMODE_BIN' }, () => {
  /** @type {Awaited<ReturnType<typeof startDaemon>>} */
  let daemon
  /** @type {import('../index.js').RemoteExecutor} */
  let executor

  before(async () => {
    daemon = await startDaemon(/** @type {string} */ (bin))
    executor = await connect(daemon.url, { token: TOKEN, timeout: 10000 })
  })

  after(async () => {
    await executor?.dispose()
    if (daemon && daemon.child.exitCode === null) {
      const exited = once(daemon.child, 'exit')
      daemon.child.kill('SIGTERM')
      const killer = setTimeout(() => daemon.child.kill('SIGKILL'), 10000)
      await exited
      clearTimeout(killer)
    }
  })

  const users = new Map([[1, { id: 1, name: 'Ada Lovelace' }], [2, { id: 2, name: 'Alan Turing' }], [3, { id: 3, name: 'Grace Hopper' }]])

  /**
   * A dispatch over the users above, recording every call.
   * @param {unknown[][]} calls
   */
  function storeDispatch(calls) {
    return createEnvelopeDispatch({ active: true }, async (provider, tool, argsJson) => {
      const args = parseDispatchArguments(argsJson)
      calls.push([provider, tool, args])
      if (provider !== 'store') throw new Error(`unknown provider ${provider}`)
      switch (tool) {
        case 'listUsers':
          return [...users.values()]
        case 'getUser': {
          const id = typeof args[0] === 'object' && args[0] !== null ? /** @type {any} */ (args[0]).id : args[0]
          // Later ids answer sooner: the answers arrive out of order.
          await new Promise((resolve) => setTimeout(resolve, 30 - 10 * Number(id)))
          const user = users.get(Number(id))
          if (!user) throw new Error(`no user ${id}`)
          return user
        }
        case 'avatar':
          return new Uint8Array([137, 80, 78, 71])
        case 'base':
          return 100
      }
      throw new Error(`unknown tool ${tool}`)
    })
  }

  const store = { name: 'store', tools: ['listUsers', 'getUser', 'avatar', 'base'] }

  /**
   * A test with a bound, so that a daemon that never answers fails the test
   * instead of hanging it.
   * @param {string} name
   * @param {() => Promise<void>} fn
   */
  const it = (name, fn) => test(name, { timeout: 30000 }, fn)

  it('a program with no tools', async () => {
    const out = await executor.execute({ code: 'async () => 6 * 7' })
    assert.equal(out.error, undefined)
    assert.equal(out.result, 42)
  })

  it('a program calls tools concurrently and logs', async () => {
    /** @type {unknown[][]} */
    const calls = []
    const out = await executor.execute({
      code: 'async () => { const all = await Promise.all([store.getUser(1), store.getUser(2), store.getUser(3)]); console.log(all.length + " users"); return all.map(u => u.name) }',
      providers: [store],
      dispatch: storeDispatch(calls),
    })
    assert.equal(out.error, undefined, out.error)
    assert.deepEqual(out.result, ['Ada Lovelace', 'Alan Turing', 'Grace Hopper'])
    assert.deepEqual(out.logs, [{ level: 'log', text: '3 users' }])
    assert.deepEqual(calls.map((c) => c[2]).sort(), [[1], [2], [3]])
  })

  it('positionalArgs false sends the first argument alone', async () => {
    /** @type {unknown[][]} */
    const calls = []
    const out = await executor.execute({
      code: 'async () => (await store.getUser({ id: 2 })).name',
      providers: [{ ...store, positionalArgs: false }],
      dispatch: storeDispatch(calls),
    })
    assert.equal(out.result, 'Alan Turing')
    assert.deepEqual(calls, [['store', 'getUser', [{ id: 2 }]]])
  })

  it('binary from a tool arrives as a Uint8Array', async () => {
    const out = await executor.execute({
      code: 'async () => { const b = await store.avatar(); return [b instanceof Uint8Array, b.length, b[1]] }',
      providers: [store],
      dispatch: storeDispatch([]),
    })
    assert.equal(out.error, undefined, out.error)
    assert.deepEqual(out.result, [true, 4, 80])
  })

  it('a tool error rejects in the program', async () => {
    const out = await executor.execute({
      code: 'async () => { try { await store.getUser(9) } catch (e) { return "caught: " + e.message } }',
      providers: [store],
      dispatch: storeDispatch([]),
    })
    assert.equal(out.result, 'caught: no user 9')
  })

  it('the program\'s failures are the result\'s error', async () => {
    const thrown = await executor.execute({ code: 'async () => { throw new Error("boom") }' })
    assert.equal(thrown.result, undefined)
    assert.match(/** @type {string} */ (thrown.error), /boom/)
    assert.equal(thrown.errorCode, undefined)

    const syntax = await executor.execute({ code: 'async () => { return ( }' })
    assert.ok(syntax.error, 'a syntax error is an error')
    assert.equal(syntax.errorCode, undefined)

    const timedOut = await executor.execute({ code: 'async () => { while (true) {} }', timeout: 200 })
    assert.equal(timedOut.errorCode, 'TIMEOUT')
    assert.ok(timedOut.error?.startsWith(TIMEOUT_MESSAGE), timedOut.error)

    const badProviders = await executor.execute({ code: 'async () => 1', providers: [{ name: 'class', tools: [] }] })
    assert.equal(badProviders.errorCode, 'INVALID_REQUEST')
    assert.equal(badProviders.error, 'Provider name "class" is a JavaScript reserved word')
  })

  it('modules: ES, JSON, text and CommonJS', async () => {
    const out = await executor.execute({
      code: [
        'import { slugify } from "helpers"',
        'import config from "config.json"',
        'import banner from "banner"',
        'import legacy from "legacy"',
        'async () => [slugify("Ada Lovelace"), config.region, banner, legacy.twice(21)]',
      ].join('\n'),
      modules: {
        helpers: 'export const slugify = s => s.toLowerCase().replace(/\\s+/g, "-")',
        'config.json': { json: { region: 'eu' } },
        banner: { text: 'hello' },
        legacy: { cjs: 'module.exports = { twice: x => 2 * x }' },
      },
    })
    assert.equal(out.error, undefined, out.error)
    assert.deepEqual(out.result, ['ada-lovelace', 'eu', 'hello', 42])
  })

  it('a retained handle is invoked, calls tools, and is closed', async () => {
    const out = await executor.execute({
      code: 'async () => { let n = 0; return { increment: (by) => (n += by), bump: async () => (n += await store.base()), read: () => n } }',
      providers: [store],
      dispatch: storeDispatch([]),
      retainHandles: true,
    })
    assert.equal(out.error, undefined, out.error)
    assert.ok(out.executionId, 'the run was retained')
    assert.deepEqual([...(out.handles ?? [])].sort(), ['bump', 'increment', 'read'])
    const id = /** @type {string} */ (out.executionId)
    assert.equal((await executor.invokeHandle(id, 'increment', '[5]')).result, 5)
    assert.equal((await executor.invokeHandle(id, 'increment', [2])).result, 7)
    assert.equal((await executor.invokeHandle(id, 'bump')).result, 107)
    assert.equal((await executor.invokeHandle(id, 'read')).result, 107)
    await executor.closeHandles(id)
    await assert.rejects(executor.invokeHandle(id, 'read'), (err) => err instanceof ExecutorError && err.code === 'UNKNOWN_EXECUTION')
  })

  it('stub outbound: the client performs the program\'s fetch', async () => {
    /** @type {any[]} */
    const requests = []
    const out = await executor.execute({
      code: 'async () => { const r = await fetch("https://api.example/v1/echo", { method: "POST", body: "hi" }); return [r.status, await r.text()] }',
      outbound: async (request) => {
        requests.push(request)
        return { status: 201, headers: [['content-type', 'text/plain']], body: `got ${new TextDecoder().decode(request.body)}` }
      },
    })
    assert.equal(out.error, undefined, out.error)
    assert.deepEqual(out.result, [201, 'got hi'])
    assert.equal(requests[0].method, 'POST')
    assert.equal(requests[0].url, 'https://api.example/v1/echo')
  })

  it('an AbortSignal cancels a run waiting on a tool', async () => {
    const controller = new AbortController()
    let waiting = () => {}
    const started = new Promise((resolve) => { waiting = () => resolve(undefined) })
    const run = executor.execute({
      code: 'async () => await store.listUsers()',
      providers: [store],
      signal: controller.signal,
      dispatch: () => {
        waiting()
        return new Promise(() => {}) // never answers
      },
    })
    const settled = run.catch((e) => e)
    await started
    controller.abort()
    const err = await settled
    assert.ok(err instanceof ExecutorError)
    assert.equal(err.code, 'CANCELLED')
    // The session still works.
    assert.equal((await executor.execute({ code: 'async () => "still here"' })).result, 'still here')
  })

  it('a wrong token is CONNECTION_REJECTED', async () => {
    await assert.rejects(connect(daemon.url, { token: 'wrong' }), (err) => err instanceof ExecutorError && err.code === 'CONNECTION_REJECTED')
  })
})
