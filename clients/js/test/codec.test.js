// The dispatch grammar: the tables of protocol/dispatch_test.go, in
// JavaScript's values.

import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  createEnvelopeDispatch,
  decodeDispatchValue,
  ExecutorError,
  parseDispatchArguments,
  parseEnvelope,
  parseForDispatch,
  resultEnvelope,
  errorEnvelope,
  stringifyForDispatch,
} from '../index.js'

const bytes = (/** @type {number[]} */ ...b) => new Uint8Array(b)
const utf8 = (/** @type {string} */ s) => new TextEncoder().encode(s)

test('parseDispatchArguments reads the arguments text', () => {
  /** @type {[string, unknown[]][]} */
  const cases = [
    ['', []],
    ['  \t\r\n', []],
    ['[]', []],
    [' [ ] ', []],
    ['[1,"a",null,true]', [1, 'a', null, true]],
    ['[[1,2]]', [[1, 2]]],
    ['{"id":7}', [{ id: 7 }]],
    ['"text"', ['text']],
    ['42', [42]],
    ['null', [null]],
    ['false', [false]],
    ['[{"$binary":"aGk="}]', [utf8('hi')]],
    ['{"$binary":"aGk="}', [utf8('hi')]],
    ['[{"$binary":"aGk=","x":1}]', [{ $binary: 'aGk=', x: 1 }]],
    ['[{"$binary":"not base64!"}]', [{ $binary: 'not base64!' }]],
    ['[{"$binary":5}]', [{ $binary: 5 }]],
    ['[{"$binary":""}]', [new Uint8Array(0)]],
    ['[9007199254740993]', [9007199254740992]],
    ['[{"a":{"b":[{"$binary":"/w=="}]}}]', [{ a: { b: [bytes(255)] } }]],
  ]
  for (const [input, want] of cases) {
    assert.deepEqual(parseDispatchArguments(input), want, JSON.stringify(input))
  }
  assert.deepEqual(parseDispatchArguments(undefined), [])
})

test('parseDispatchArguments refuses what is not one JSON value', () => {
  for (const bad of ['[', '{', '1 2', '[1] [2]', '[1,]', 'undefined', "'a'", '\u00a0', 'nul', '{"a":1}x']) {
    assert.throws(() => parseDispatchArguments(bad), (err) => {
      assert.ok(err instanceof ExecutorError)
      assert.equal(err.code, 'MALFORMED_MESSAGE')
      assert.match(err.message, /^tool arguments are not valid JSON: /)
      return true
    }, JSON.stringify(bad))
  }
  assert.throws(() => parseDispatchArguments('[1e1000]'), (err) => {
    assert.equal(/** @type {any} */ (err).code, 'MALFORMED_MESSAGE')
    assert.match(/** @type {Error} */ (err).message, /^tool arguments cannot be decoded: /)
    return true
  })
})

test('stringifyForDispatch tags binary', () => {
  /** @type {[unknown, string][]} */
  const cases = [
    [null, 'null'],
    [undefined, 'null'],
    [1, '1'],
    ['<&>', '"<&>"'],
    [utf8('hi'), '{"$binary":"aGk="}'],
    [new Uint8Array(0), '{"$binary":""}'],
    [[1, bytes(1, 2), 'x'], '[1,{"$binary":"AQI="},"x"]'],
    [{ a: { b: [bytes(255)] } }, '{"a":{"b":[{"$binary":"/w=="}]}}'],
    [{ k: bytes(0) }, '{"k":{"$binary":"AA=="}}'],
    [[bytes(1), null], '[{"$binary":"AQ=="},null]'],
    [bytes(1, 2).buffer, '{"$binary":"AQI="}'],
    [new Uint16Array([0x0201]), '{"$binary":"AQI="}'],
    [new Uint8Array([9, 1, 2, 9]).subarray(1, 3), '{"$binary":"AQI="}'],
    [new DataView(bytes(1, 2).buffer), '{"$binary":"AQI="}'],
    [Buffer.from('hi'), '{"$binary":"aGk="}'],
    [{ file: Buffer.from([7]) }, '{"file":{"$binary":"Bw=="}}'],
    [{ $binary: 'aGk=', x: 1 }, '{"$binary":"aGk=","x":1}'],
    [new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), '"2024-01-02T03:04:05.000Z"'],
  ]
  for (const [value, want] of cases) assert.equal(stringifyForDispatch(value), want)
  const cyclic = /** @type {any} */ ({})
  cyclic.self = cyclic
  assert.throws(() => stringifyForDispatch(cyclic), TypeError)
  assert.throws(() => stringifyForDispatch(() => 1), TypeError)
  assert.throws(() => stringifyForDispatch(10n), TypeError)
})

test('the codec round-trips', () => {
  const values = [
    null, true, 1.5, 's', new Uint8Array(0), bytes(0, 1, 2, 254, 255),
    [utf8('a'), [utf8('b'), { c: utf8('c') }]],
    { file: { name: 'x', data: utf8('body') }, n: 2 },
    { $binary: 'aGk=', other: true },
  ]
  for (const v of values) assert.deepEqual(parseForDispatch(stringifyForDispatch(v)), v)
  assert.throws(() => parseForDispatch(''), SyntaxError)
})

test('decodeDispatchValue rebuilds binary in place', () => {
  const v = [{ $binary: 'AQ==' }, 'x']
  assert.deepEqual(decodeDispatchValue(v), [bytes(1), 'x'])
  assert.deepEqual(v[0], bytes(1))
  assert.deepEqual(decodeDispatchValue({ $binary: 'AQ==' }), bytes(1))
  const cyclic = /** @type {any} */ ({ data: { $binary: 'AQ==' } })
  cyclic.self = cyclic
  assert.deepEqual(decodeDispatchValue(cyclic).data, bytes(1))
})

test('envelopes', () => {
  assert.equal(resultEnvelope({ a: bytes(1), b: [1, null] }), '{"result":{"a":{"$binary":"AQ=="},"b":[1,null]}}')
  assert.equal(resultEnvelope(undefined), '{"result":null}')
  assert.equal(errorEnvelope('bad "thing" <here>'), '{"error":"bad \\"thing\\" <here>"}')

  assert.deepEqual(parseEnvelope('{"result":null}'), { result: null })
  assert.deepEqual(parseEnvelope('{"result":[1,{"$binary":"AQ=="}]}'), { result: [1, bytes(1)] })
  assert.deepEqual(parseEnvelope(' { "result" : 5 } '), { result: 5 })
  assert.deepEqual(parseEnvelope('{"error":"boom"}'), { error: 'boom' })
  assert.deepEqual(parseEnvelope('{"error":""}'), { error: '' })

  /** @type {[string, string][]} */
  const bad = [
    ['', 'malformed envelope: not valid JSON: unexpected end of input'],
    ['{}', 'malformed envelope: it has neither a result nor an error'],
    ['{"result":1,"error":"x"}', 'malformed envelope: it has both a result and an error'],
    ['{"error":5}', 'malformed envelope: "error" must be a string'],
    ['{"error":null}', 'malformed envelope: "error" must be a string'],
    ['{"result":1,"extra":2}', 'malformed envelope: unknown field "extra"'],
    ['{"result":1,"result":2}', 'malformed envelope: key "result" appears twice'],
    ['{"result":{"a":1,"a":2}}', ''],
    ['[1]', 'malformed envelope: not a JSON object'],
    ['{"result":1} {}', 'malformed envelope: trailing data after the JSON value'],
    ['{"Result":1}', 'malformed envelope: unknown field "Result"'],
    ['{"result":}', ''],
    ['null', 'malformed envelope: not a JSON object'],
  ]
  for (const [input, want] of bad) {
    if (input === '{"result":{"a":1,"a":2}}') {
      // Go keeps a result's JSON opaque: a nested key twice is not the envelope's.
      assert.doesNotThrow(() => parseEnvelope(input))
      continue
    }
    assert.throws(() => parseEnvelope(input), (err) => {
      assert.equal(/** @type {any} */ (err).code, 'MALFORMED_MESSAGE')
      if (want) assert.equal(/** @type {Error} */ (err).message, want)
      else assert.match(/** @type {Error} */ (err).message, /^malformed envelope: /)
      return true
    }, input)
  }
})

test('createEnvelopeDispatch answers from the responder, then closes', async () => {
  const state = { active: true }
  /** @type {string[]} */
  const calls = []
  const dispatch = createEnvelopeDispatch(state, async (provider, tool, argsJson) => {
    calls.push(`${provider}.${tool}`)
    const args = parseDispatchArguments(argsJson)
    switch (tool) {
      case 'echo':
        return args
      case 'bytes':
        return { data: utf8('body') }
      case 'fail':
        throw new Error('not found: user 7')
      case 'empty':
        throw new Error('')
      case 'string':
        throw 'plain text' // eslint-disable-line no-throw-literal
      case 'bigint':
        return 10n
      case 'nothing':
        return undefined
    }
    return null
  })
  assert.equal(await dispatch('s', 'echo', '[1,{"$binary":"AQ=="}]'), '{"result":[1,{"$binary":"AQ=="}]}')
  assert.equal(await dispatch('s', 'echo', ''), '{"result":[]}')
  assert.equal(await dispatch('s', 'bytes', '[]'), '{"result":{"data":{"$binary":"Ym9keQ=="}}}')
  assert.equal(await dispatch('s', 'fail', '[]'), '{"error":"not found: user 7"}')
  assert.equal(await dispatch('s', 'empty', '[]'), '{"error":"tool s.empty failed"}')
  assert.equal(await dispatch('s', 'string', '[]'), '{"error":"plain text"}')
  assert.match(await dispatch('s', 'bigint', '[]'), /^\{"error":"tool s\.bigint returned a value that cannot cross as JSON: /)
  assert.equal(await dispatch('s', 'nothing', '[]'), '{"result":null}')
  assert.equal(await dispatch('s', 'echo', '[1,'), '{"error":' + JSON.stringify(messageOfBadArgs('[1,')) + '}')
  const before = calls.length
  state.active = false
  assert.equal(await dispatch('s', 'echo', '[1]'), '{"error":"Execution has already completed."}')
  assert.equal(calls.length, before, 'the responder is not called once the execution completed')
})

/** @param {string} text */
function messageOfBadArgs(text) {
  try {
    parseDispatchArguments(text)
  } catch (err) {
    return /** @type {Error} */ (err).message
  }
  return ''
}

test('createEnvelopeDispatch: a call in flight when the run ends still answers', async () => {
  const state = { active: true }
  /** @type {(v: unknown) => void} */
  let release = () => {}
  const dispatch = createEnvelopeDispatch(state, () => new Promise((resolve) => { release = resolve }))
  const answer = dispatch('s', 'slow', '[]')
  await new Promise(setImmediate)
  state.active = false
  release('late')
  assert.equal(await answer, '{"result":"late"}')
})
