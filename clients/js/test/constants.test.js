// The constants and the provider lists, pinned to the Go sources of the
// protocol package so that the two cannot drift apart.

import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import * as client from '../index.js'

const goSource = (/** @type {string} */ name) => readFileSync(new URL(`../../../protocol/${name}`, import.meta.url), 'utf8')

/**
 * The value of `const Name = ...` in a Go source: a number, an expression
 * of numbers and <<, or a string literal.
 * @param {string} src
 * @param {string} name
 */
function goConst(src, name) {
  const m = new RegExp(`^const ${name} = (.+)$`, 'm').exec(src)
  assert.ok(m, `const ${name} in the Go source`)
  const expr = m[1].trim()
  if (expr.startsWith('"') || expr.startsWith('`')) return expr.startsWith('"') ? JSON.parse(expr) : expr.slice(1, -1)
  assert.match(expr, /^[\d\s<*()+]+$/)
  return Function(`return (${expr})`)()
}

test('the constants are protocol/constants.go\'s', () => {
  const src = goSource('constants.go')
  assert.equal(client.PROTOCOL_VERSION, goConst(src, 'Version'))
  assert.equal(client.DEFAULT_TIMEOUT, goConst(src, 'DefaultTimeoutMillis'))
  assert.equal(client.MAX_SUPPORTED_TIMEOUT, goConst(src, 'MaxSupportedTimeoutMillis'))
  assert.equal(client.PAYLOAD_LIMIT, goConst(src, 'PayloadLimit'))
  assert.equal(client.CONSOLE_CAPTURE_LIMIT, goConst(src, 'ConsoleCaptureLimit'))
  assert.equal(client.CONSOLE_CAPTURE_MESSAGE, goConst(src, 'ConsoleCaptureMessage'))
  assert.equal(client.TIMEOUT_MESSAGE, goConst(src, 'TimeoutMessage'))
  assert.equal(client.EXECUTION_COMPLETED_MESSAGE, goConst(src, 'ExecutionCompletedMessage'))
  assert.equal(client.HANDLES_IDLE_TIMEOUT, goConst(src, 'HandlesIdleTimeoutMillis'))
  assert.equal(client.MAX_FRAME_SIZE, goConst(src, 'MaxFrameSize'))
  assert.equal(client.BINARY_TAG, goConst(goSource('binary.go'), 'BinaryTag'))
})

test('the seed\'s numbers', () => {
  assert.equal(client.PROTOCOL_VERSION, 1)
  assert.equal(client.DEFAULT_TIMEOUT, 60000)
  assert.equal(client.MAX_SUPPORTED_TIMEOUT, 2147483647)
  assert.equal(client.PAYLOAD_LIMIT, 8 * 1024 * 1024)
  assert.equal(client.CONSOLE_CAPTURE_LIMIT, 2 * 1024 * 1024)
  assert.equal(client.TIMEOUT_MESSAGE, 'Execution timed out')
  assert.equal(client.EXECUTION_COMPLETED_MESSAGE, 'Execution has already completed.')
})

test('the error codes are protocol/errors.go\'s, and CONNECTION_LOST', () => {
  const src = goSource('errors.go')
  const codes = [...src.matchAll(/^\s*Code\w+ Code = "([A-Z_]+)"$/gm)].map((m) => m[1])
  assert.ok(codes.length >= 13)
  assert.deepEqual(client.ERROR_CODES.filter((c) => c !== 'CONNECTION_LOST'), codes)
})

/**
 * The strings of a Go `var Name = []string{...}`.
 * @param {string} src
 * @param {string} name
 */
function goList(src, name) {
  const m = new RegExp(`var ${name} = \\[\\]string\\{([^}]*)\\}`).exec(src)
  assert.ok(m, `var ${name} in the Go source`)
  return [...m[1].matchAll(/"([^"]*)"/g)].map((x) => x[1])
}

test('the provider lists and pattern are protocol/providers.go\'s', () => {
  const src = goSource('providers.go')
  assert.deepEqual([...client.RESERVED_PROVIDER_NAMES], goList(src, 'ReservedProviderNames'))
  assert.deepEqual([...client.JAVASCRIPT_RESERVED_WORDS], goList(src, 'JavaScriptReservedWords'))
  const pattern = /ProviderNamePattern = regexp\.MustCompile\(`([^`]*)`\)/.exec(src)
  assert.ok(pattern)
  assert.equal(client.PROVIDER_NAME_PATTERN.source, pattern[1])
})

test('ExecutorError carries its code', () => {
  const err = new client.ExecutorError('QUEUE_OVERFLOW', 'too many')
  assert.ok(err instanceof Error)
  assert.equal(err.name, 'ExecutorError')
  assert.equal(err.code, 'QUEUE_OVERFLOW')
  assert.equal(err.message, 'too many')
  const back = client.rehydrateExecutorError({ code: 'TIMEOUT', message: 'Execution timed out after 5ms.' })
  assert.equal(back.code, 'TIMEOUT')
  assert.equal(client.rehydrateExecutorError({ message: 'x' }).code, 'INTERNAL')
})
