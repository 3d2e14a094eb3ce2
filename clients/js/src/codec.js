// The dispatch grammar: one JSON text per value, binary tagged as
// {"$binary": "<base64>"} (protocol/binary.go), tool-call arguments
// (protocol.ParseDispatchArguments) and envelopes (protocol.ParseEnvelope,
// protocol.EnvelopeDispatch).

import { BINARY_TAG, EXECUTION_COMPLETED_MESSAGE } from './constants.js'
import { ExecutorError } from './errors.js'

const NodeBuffer = /** @type {any} */ (globalThis).Buffer

// Standard base64 with padding (RFC 4648 section 4). Go's decoder skips
// carriage returns and newlines, and so does decodeBase64.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/**
 * Encodes bytes as standard base64 with padding.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function encodeBase64(bytes) {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
  let s = ''
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode.apply(null, /** @type {any} */ (bytes.subarray(i, i + 0x8000)))
  }
  return btoa(s)
}

/**
 * Decodes standard base64 with padding, or returns null when the text is
 * not that.
 * @param {string} text
 * @returns {Uint8Array | null}
 */
export function decodeBase64(text) {
  if (typeof text !== 'string') return null
  const s = text.includes('\n') || text.includes('\r') ? text.replace(/[\r\n]/g, '') : text
  if (!BASE64.test(s)) return null
  if (NodeBuffer) return new Uint8Array(NodeBuffer.from(s, 'base64'))
  const raw = atob(s)
  const out = new Uint8Array(raw.length)
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i)
  return out
}

const toStringTag = Object.prototype.toString

/**
 * Returns the bytes of a binary value (an ArrayBuffer, a SharedArrayBuffer,
 * a typed array, a DataView or a Buffer) as a Uint8Array view, or null
 * when the value is not binary.
 * @param {unknown} value
 * @returns {Uint8Array | null}
 */
export function bytesOf(value) {
  if (value === null || typeof value !== 'object') return null
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  const tag = toStringTag.call(value)
  if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') {
    return new Uint8Array(/** @type {ArrayBuffer} */ (value))
  }
  return null
}

/**
 * Encodes a value as the one JSON text of the dispatch grammar: JSON.stringify,
 * with every Uint8Array, ArrayBuffer, typed array, DataView and Buffer tagged
 * as {"$binary": "<base64>"}. undefined encodes as null; a value that JSON
 * cannot hold (a function or a symbol at the top, a BigInt, a cycle) throws a
 * TypeError.
 * @param {unknown} value
 * @returns {string}
 */
export function stringifyForDispatch(value) {
  const out = JSON.stringify(value, function replacer(key, v) {
    // `this[key]` is the value before its toJSON (a Buffer's would hide it).
    const bytes = bytesOf(this[key])
    return bytes ? { [BINARY_TAG]: encodeBase64(bytes) } : v
  })
  if (out === undefined) {
    if (value === undefined) return 'null'
    throw new TypeError(`a ${typeof value} cannot cross as JSON`)
  }
  return out
}

/**
 * Returns the bytes of a binary tag: an object whose only key is "$binary"
 * with a string value that decodes as base64. Anything else is not a tag.
 * @param {any} v
 * @returns {Uint8Array | null}
 */
function tagBytes(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null
  let n = 0
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue
    if (++n > 1 || k !== BINARY_TAG) return null
  }
  if (n !== 1) return null
  return decodeBase64(v[BINARY_TAG])
}

/**
 * Walks a parsed JSON value, replacing every binary tag with its bytes, in
 * place. Returns the value (or the bytes, for a tag at the top) and whether
 * a number was not finite (a JSON number beyond the range of a double).
 * @param {unknown} root
 * @param {boolean} [guardCycles] visit each object once (for values that
 *   did not come from JSON.parse and so may be cyclic)
 * @returns {{value: unknown, nonFinite: boolean}}
 */
function walk(root, guardCycles = false) {
  const top = tagBytes(root)
  if (top) return { value: top, nonFinite: false }
  let nonFinite = typeof root === 'number' && !Number.isFinite(root)
  const seen = guardCycles ? new WeakSet() : null
  /** @type {any[]} */
  const stack = [root]
  while (stack.length > 0) {
    const node = stack.pop()
    if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) continue
    if (seen) {
      if (seen.has(node)) continue
      seen.add(node)
    }
    const keys = Array.isArray(node) ? node.keys() : Object.keys(node)
    for (const k of keys) {
      const e = node[k]
      if (typeof e === 'number') {
        if (!Number.isFinite(e)) nonFinite = true
      } else if (e !== null && typeof e === 'object') {
        const b = tagBytes(e)
        if (b) node[k] = b
        else stack.push(e)
      }
    }
  }
  return { value: root, nonFinite }
}

/**
 * Rebuilds binary inside a value that already crossed as data: every object
 * that is a binary tag becomes a Uint8Array, at any depth, in place. The
 * result is returned (the bytes themselves for a tag at the top).
 * @param {unknown} value
 * @returns {unknown}
 */
export function decodeDispatchValue(value) {
  return walk(value, true).value
}

/**
 * Decodes one JSON text of the dispatch grammar, rebuilding every binary
 * tag as a Uint8Array. Throws a SyntaxError for text that is not one JSON
 * value.
 * @param {string} json
 * @returns {unknown}
 */
export function parseForDispatch(json) {
  if (typeof json !== 'string') throw new TypeError('parseForDispatch takes a JSON string')
  return walk(JSON.parse(json)).value
}

const BLANK = /^[ \t\r\n]*$/

/**
 * Turns the arguments text of a tool call into the argument list: the empty
 * string (or JSON whitespace alone) is no arguments, a JSON array is the list
 * itself, any other JSON value is one argument. Binary tags become
 * Uint8Arrays. Text that is not one JSON value, or a number beyond the range
 * of a double, throws an ExecutorError of code MALFORMED_MESSAGE.
 * @param {string} argsJson
 * @returns {unknown[]}
 */
export function parseDispatchArguments(argsJson) {
  if (argsJson === undefined || argsJson === null) return []
  if (typeof argsJson !== 'string') throw new TypeError('parseDispatchArguments takes a JSON string')
  if (BLANK.test(argsJson)) return []
  let parsed
  try {
    parsed = JSON.parse(argsJson)
  } catch (err) {
    throw new ExecutorError('MALFORMED_MESSAGE', `tool arguments are not valid JSON: ${messageOf(err)}`)
  }
  const { value, nonFinite } = walk(parsed)
  if (nonFinite) {
    throw new ExecutorError('MALFORMED_MESSAGE', 'tool arguments cannot be decoded: a number is out of the range of a double')
  }
  return Array.isArray(value) ? value : [value]
}

/**
 * Returns the envelope {"error": "<message>"}.
 * @param {string} message
 * @returns {string}
 */
export function errorEnvelope(message) {
  return `{"error":${JSON.stringify(String(message))}}`
}

/**
 * Returns the envelope {"result": <value>}, the value encoded by
 * stringifyForDispatch.
 * @param {unknown} value
 * @returns {string}
 */
export function resultEnvelope(value) {
  return `{"result":${stringifyForDispatch(value)}}`
}

/** The exact answer of a dispatch after its execution completed. */
export const EXECUTION_COMPLETED_ENVELOPE = errorEnvelope(EXECUTION_COMPLETED_MESSAGE)

/**
 * The keys of the top-level object of a JSON text, in order, duplicates
 * included. The text must be valid JSON whose value is an object.
 * @param {string} text
 * @returns {string[]}
 */
function topLevelKeys(text) {
  const keys = []
  const n = text.length
  let depth = 0
  let expectKey = false
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      let j = i + 1
      while (j < n) {
        const d = text.charCodeAt(j)
        if (d === 0x5c) j += 2
        else if (d === 0x22) break
        else j++
      }
      if (depth === 1 && expectKey) {
        keys.push(JSON.parse(text.slice(i, j + 1)))
        expectKey = false
      }
      i = j
    } else if (c === 0x7b || c === 0x5b) {
      depth++
      if (depth === 1) expectKey = true
    } else if (c === 0x7d || c === 0x5d) {
      depth--
    } else if (c === 0x2c && depth === 1) {
      expectKey = true
    }
  }
  return keys
}

/**
 * The end (exclusive) of the first JSON object or array in text from start,
 * found by balancing brackets outside strings, or -1.
 * @param {string} text
 * @param {number} start
 */
function containerEnd(text, start) {
  let depth = 0
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      i++
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1
    } else if (c === 0x7b || c === 0x5b) {
      depth++
    } else if (c === 0x7d || c === 0x5d) {
      if (--depth === 0) return i + 1
    }
  }
  return -1
}

/**
 * Says why text that JSON.parse refused is not one JSON object, in the words
 * of the Go decoder where it can.
 * @param {string} text
 * @param {unknown} err
 */
function objectSyntaxProblem(text, err) {
  const start = text.search(/[^ \t\r\n]/)
  if (start < 0) return 'not valid JSON: unexpected end of input'
  const c = text[start]
  if (c === '[') return 'not a JSON object'
  if (c === '{') {
    const end = containerEnd(text, start)
    if (end > 0 && !BLANK.test(text.slice(end))) {
      try {
        JSON.parse(text.slice(0, end))
        return 'trailing data after the JSON value'
      } catch {
        // the object itself is malformed
      }
    }
  }
  return `not valid JSON: ${messageOf(err)}`
}

/**
 * Reads a dispatch envelope as strictly as protocol.ParseEnvelope: exactly
 * one JSON object with exactly one of "result" (any JSON value) and "error"
 * (a string), no other key and no key twice. Returns {result} (binary
 * tags rebuilt) or {error}; anything else throws an ExecutorError of code
 * MALFORMED_MESSAGE whose message starts "malformed envelope: ".
 * @param {string} text
 * @returns {{result: unknown} | {error: string}}
 */
export function parseEnvelope(text) {
  const fail = (/** @type {string} */ why) => new ExecutorError('MALFORMED_MESSAGE', `malformed envelope: ${why}`)
  if (typeof text !== 'string') throw fail('not a JSON object')
  let value
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw fail(objectSyntaxProblem(text, err))
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw fail('not a JSON object')
  const seen = new Set()
  for (const k of topLevelKeys(text)) {
    if (seen.has(k)) throw fail(`key ${JSON.stringify(k)} appears twice`)
    seen.add(k)
  }
  for (const k of seen) {
    if (k !== 'result' && k !== 'error') throw fail(`unknown field ${JSON.stringify(k)}`)
  }
  const hasResult = seen.has('result')
  const hasError = seen.has('error')
  if (hasResult && hasError) throw fail('it has both a result and an error')
  if (hasError) {
    if (typeof value.error !== 'string') throw fail('"error" must be a string')
    return { error: value.error }
  }
  if (hasResult) return { result: walk(value.result).value }
  throw fail('it has neither a result nor an error')
}

/**
 * The text of a thrown value: an Error's message, a string itself, or its
 * String form.
 * @param {unknown} err
 * @returns {string}
 */
export function messageOf(err) {
  if (err instanceof Error) return err.message
  if (typeof err === 'string') return err
  if (err !== null && typeof err === 'object' && typeof (/** @type {any} */ (err).message) === 'string') {
    return /** @type {any} */ (err).message
  }
  try {
    return String(err)
  } catch {
    return Object.prototype.toString.call(err)
  }
}

/**
 * @callback ToolDispatchFn
 * @param {string} provider
 * @param {string} tool
 * @param {string} argsJson
 * @returns {Promise<string> | string}
 */

/**
 * Wraps a plain responder into a ToolDispatchFn that speaks the envelope
 * grammar. The responder receives (provider, tool, argsJson), as the seed's
 * example has it (parse the arguments with parseDispatchArguments); what it
 * returns (or resolves to) becomes {"result"}, what it throws {"error"}.
 * Once `state.active` is false every call returns
 * {"error":"Execution has already completed."} without calling the
 * responder; a call already in flight still answers with what its responder
 * returns.
 * @param {{active: boolean}} state
 * @param {(provider: string, tool: string, argsJson: string) => unknown} respond
 * @returns {ToolDispatchFn}
 */
export function createEnvelopeDispatch(state, respond) {
  if (state === null || typeof state !== 'object') throw new TypeError('createEnvelopeDispatch needs a state object {active}')
  if (typeof respond !== 'function') throw new TypeError('createEnvelopeDispatch needs a responder function')
  return async function envelopeDispatch(provider, tool, argsJson) {
    if (!state.active) return EXECUTION_COMPLETED_ENVELOPE
    let value
    try {
      value = await respond(provider, tool, argsJson)
    } catch (err) {
      const text = messageOf(err)
      return errorEnvelope(text === '' ? `tool ${provider}.${tool} failed` : text)
    }
    try {
      return resultEnvelope(value)
    } catch (err) {
      return errorEnvelope(`tool ${provider}.${tool} returned a value that cannot cross as JSON: ${messageOf(err)}`)
    }
  }
}
