// A strict decoder of the client's frames for the fake server of the tests,
// written apart from the client's code: it refuses what protocol.Decode
// refuses (an unknown field, a key twice, a wrong JSON type, a missing
// required field, trailing data) for the fields of the messages a client
// sends, and a little more (a [name, value] header pair must have exactly
// two strings).

/**
 * Parses one JSON text, refusing a key given twice in any object and
 * trailing data. Objects come back as plain objects.
 * @param {string} text
 */
export function parseStrict(text) {
  let i = 0
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++
  }
  const fail = (/** @type {string} */ what) => {
    throw new Error(`${what} at offset ${i}`)
  }
  /** @returns {any} */
  const value = () => {
    ws()
    const c = text[i]
    if (c === '{') {
      i++
      /** @type {Record<string, any>} */
      const obj = {}
      const keys = new Set()
      ws()
      if (text[i] === '}') {
        i++
        return obj
      }
      for (;;) {
        ws()
        if (text[i] !== '"') fail('expected a key')
        const key = string()
        if (keys.has(key)) fail(`key ${JSON.stringify(key)} appears twice`)
        keys.add(key)
        ws()
        if (text[i] !== ':') fail('expected ":"')
        i++
        Object.defineProperty(obj, key, { value: value(), enumerable: true, writable: true, configurable: true })
        ws()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === '}') {
          i++
          return obj
        }
        fail('expected "," or "}"')
      }
    }
    if (c === '[') {
      i++
      const arr = []
      ws()
      if (text[i] === ']') {
        i++
        return arr
      }
      for (;;) {
        arr.push(value())
        ws()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === ']') {
          i++
          return arr
        }
        fail('expected "," or "]"')
      }
    }
    if (c === '"') return string()
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400))
    if (!m) fail('not valid JSON')
    i += /** @type {RegExpExecArray} */ (m)[0].length
    return JSON.parse(/** @type {RegExpExecArray} */ (m)[0])
  }
  const string = () => {
    const start = i
    i++
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail('a control character in a string')
      i += text[i] === '\\' ? 2 : 1
    }
    if (i >= text.length) fail('unterminated string')
    i++
    return JSON.parse(text.slice(start, i))
  }
  const v = value()
  ws()
  if (i !== text.length) fail('trailing data after the JSON value')
  return v
}

const isObject = (/** @type {unknown} */ v) => v !== null && typeof v === 'object' && !Array.isArray(v)
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

// Field types. Each checks a value at a path and throws on a mismatch.
/** @typedef {(v: any, path: string) => void} Check */

/** @type {Check} */
const str = (v, p) => {
  if (typeof v !== 'string') throw new Error(`${p} must be a string, not ${JSON.stringify(v)}`)
}
/** @type {Check} */
const nonempty = (v, p) => {
  str(v, p)
  if (v === '') throw new Error(`${p} must not be empty`)
}
/** @type {Check} */
const int = (v, p) => {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new Error(`${p} must be an integer`)
}
/** @type {Check} */
const bool = (v, p) => {
  if (typeof v !== 'boolean') throw new Error(`${p} must be a boolean`)
}
/** @type {Check} */
const anyJSON = () => {}
/** @type {Check} */
const base64 = (v, p) => {
  if (v === null) return
  str(v, p)
  if (!BASE64.test(v)) throw new Error(`${p} is not standard base64`)
}
/** @param {Check} c @returns {Check} */
const nullable = (c) => (v, p) => {
  if (v !== null) c(v, p)
}
/** @param {Check} c @returns {Check} */
const arrayOf = (c) => (v, p) => {
  if (v === null) return
  if (!Array.isArray(v)) throw new Error(`${p} must be an array`)
  v.forEach((e, i) => c(e, `${p}[${i}]`))
}
/** @param {Check} c @returns {Check} */
const mapOf = (c) => (v, p) => {
  if (v === null) return
  if (!isObject(v)) throw new Error(`${p} must be an object`)
  for (const [k, e] of Object.entries(v)) c(e, `${p}[${JSON.stringify(k)}]`)
}
/** @type {Check} */
const pair = (v, p) => {
  if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'string' || typeof v[1] !== 'string') {
    throw new Error(`${p} must be a [name, value] pair of strings`)
  }
}

/**
 * A struct: its fields, each [check, required], and an optional check of
 * the whole.
 * @param {Record<string, [Check, boolean?]>} fields
 * @param {(v: any, path: string) => void} [after]
 * @returns {Check}
 */
const struct = (fields, after) => (v, p) => {
  if (!isObject(v)) throw new Error(`${p || 'the message'} must be an object`)
  for (const k of Object.keys(v)) {
    if (!(k in fields)) throw new Error(`${p ? p + ' has ' : ''}unknown field ${JSON.stringify(k)}`)
  }
  for (const [k, [check, required]] of Object.entries(fields)) {
    const path = p ? `${p}.${k}` : k
    if (!(k in v)) {
      if (required) throw new Error(`${path} is missing`)
      continue
    }
    check(v[k], path)
  }
  after?.(v, p)
}

/** @type {Check} */
const timeout = (v, p) => {
  if (v === null) return
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) {
    throw new Error(`${p}: timeout must be a positive whole number of milliseconds, or null`)
  }
}

/** @type {Check} */
const outboundMode = (v, p) => {
  str(v, p)
  if (!['', 'native', 'stub', 'disabled'].includes(v)) throw new Error(`${p} is ${JSON.stringify(v)}; the outbound modes are native, stub and disabled`)
}

const options = struct({
  timeout: [timeout],
  countHostWaits: [bool],
  retainHandles: [bool],
  outbound: [outboundMode],
})

const provider = struct({
  name: [str, true],
  tools: [arrayOf(str)],
  positionalArgs: [nullable(bool)],
  schemas: [mapOf(anyJSON)],
  descriptions: [mapOf(str)],
})

/** @type {Check} */
const moduleSource = (v, p) => {
  if (typeof v === 'string') return
  if (!isObject(v)) throw new Error(`${p}: module source must be a string or an object`)
  const keys = Object.keys(v)
  if (keys.length !== 1) throw new Error(`${p}: module source must name exactly one kind`)
  const [k] = keys
  if (!['js', 'cjs', 'json', 'text'].includes(k)) throw new Error(`${p}: module source has unknown kind ${JSON.stringify(k)}`)
  if (k !== 'json') str(v[k], `${p}.${k}`)
}

/** @type {Check} */
const envelope = (v, p) => {
  str(v, p)
  let e
  try {
    e = parseStrict(v)
  } catch (err) {
    throw new Error(`${p} is not an envelope: ${/** @type {Error} */ (err).message}`)
  }
  if (!isObject(e)) throw new Error(`${p} is not an envelope: not a JSON object`)
  const keys = Object.keys(e)
  if (keys.length !== 1 || !['result', 'error'].includes(keys[0])) throw new Error(`${p} is not an envelope: keys ${JSON.stringify(keys)}`)
  if (keys[0] === 'error' && typeof e.error !== 'string') throw new Error(`${p} is not an envelope: "error" must be a string`)
}

const response = struct({
  status: [int, true],
  statusText: [str],
  headers: [arrayOf(pair)],
  body: [base64],
  url: [str],
}, (v, p) => {
  if (v.status < 200 || v.status > 599) throw new Error(`${p}.status is ${v.status}; an HTTP status is 200 to 599`)
})

/** The messages a client sends, by type. */
export const CLIENT_MESSAGES = {
  hello: struct({ type: [str, true], id: [nonempty, true], version: [int, true], token: [str] }),
  execute: struct({
    type: [str, true],
    id: [nonempty, true],
    code: [str, true],
    providers: [arrayOf(provider)],
    modules: [mapOf(moduleSource)],
    options: [options],
  }, (v) => {
    if (v.modules && Object.keys(v.modules).includes('')) throw new Error('modules has an empty module name')
  }),
  dispatchResult: struct({ type: [str, true], id: [nonempty, true], callId: [nonempty, true], envelope: [envelope, true] }),
  fetchResult: struct({
    type: [str, true],
    id: [nonempty, true],
    callId: [nonempty, true],
    response: [nullable(response)],
    error: [str],
  }, (v) => {
    const hasResponse = v.response !== undefined && v.response !== null
    const hasError = v.error !== undefined && v.error !== ''
    if (hasResponse === hasError) throw new Error('a fetch result has exactly one of "response" and "error"')
  }),
  invokeHandle: struct({ type: [str, true], id: [nonempty, true], executionId: [nonempty, true], handle: [nonempty, true], args: [str] }),
  closeHandles: struct({ type: [str, true], id: [nonempty, true], executionId: [nonempty, true] }),
  cancel: struct({ type: [str, true], id: [nonempty, true] }),
  resume: struct({
    type: [str, true],
    id: [nonempty, true],
    state: [base64, true],
    providers: [arrayOf(provider)],
    options: [options],
  }),
}

/**
 * Decodes one client frame as protocol.Decode would, throwing an Error that
 * says what is wrong.
 * @param {unknown} data
 * @returns {Record<string, any>}
 */
export function decodeClientFrame(data) {
  if (typeof data !== 'string') throw new Error('a binary frame')
  const msg = parseStrict(data)
  if (!isObject(msg)) throw new Error('not a JSON object')
  if (typeof msg.type !== 'string') throw new Error('"type" is missing or not a string')
  const check = /** @type {Record<string, Check>} */ (CLIENT_MESSAGES)[msg.type]
  if (!check) throw new Error(`unknown or server-only message type ${JSON.stringify(msg.type)}`)
  check(msg, '')
  return msg
}
