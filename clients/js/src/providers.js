// Provider descriptors and their validation, as protocol/providers.go has
// them: the same lists, the same order of checks and the same texts.

/**
 * The names no provider may take: the runtime's own globals and bindings.
 * Sorted. Changing it has no effect on validateProviders.
 */
export const RESERVED_PROVIDER_NAMES = Object.freeze([
  'AbortController', 'AbortSignal', 'AggregateError', 'Array',
  'ArrayBuffer', 'Atomics', 'BigInt', 'BigInt64Array', 'BigUint64Array',
  'Boolean', 'Buffer', 'DataView', 'Date', 'Error', 'EvalError',
  'FinalizationRegistry', 'Float32Array', 'Float64Array', 'Function',
  'Headers', 'Infinity', 'Int16Array', 'Int32Array', 'Int8Array', 'Intl',
  'Iterator', 'JSON', 'Map', 'Math', 'NaN', 'Number', 'Object', 'Promise',
  'Proxy', 'RangeError', 'ReferenceError', 'Reflect', 'RegExp', 'Request',
  'Response', 'Set', 'SharedArrayBuffer', 'String', 'Symbol',
  'SyntaxError', 'TextDecoder', 'TextEncoder', 'TypeError', 'URIError',
  'URL', 'URLSearchParams', 'Uint16Array', 'Uint32Array', 'Uint8Array',
  'Uint8ClampedArray', 'WeakMap', 'WeakRef', 'WeakSet', 'arguments',
  'atob', 'btoa', 'clearInterval', 'clearTimeout', 'codemode', 'console',
  'crypto', 'decodeURI', 'decodeURIComponent', 'encodeURI',
  'encodeURIComponent', 'eval', 'exports', 'fetch', 'global',
  'globalThis', 'isFinite', 'isNaN', 'module', 'parseFloat', 'parseInt',
  'performance', 'process', 'queueMicrotask', 'require', 'search',
  'setInterval', 'setTimeout', 'structuredClone', 'tools', 'undefined',
])

/**
 * The words ECMAScript 2023 reserves (strict-mode and module code
 * included) and the literals null, true and false. Sorted. Changing it has
 * no effect on validateProviders.
 */
export const JAVASCRIPT_RESERVED_WORDS = Object.freeze([
  'await', 'break', 'case', 'catch', 'class', 'const', 'continue',
  'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export',
  'extends', 'false', 'finally', 'for', 'function', 'if', 'implements',
  'import', 'in', 'instanceof', 'interface', 'let', 'new', 'null',
  'package', 'private', 'protected', 'public', 'return', 'static',
  'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var',
  'void', 'while', 'with', 'yield',
])

/** The form of a provider or tool name: an ASCII JavaScript identifier. */
export const PROVIDER_NAME_PATTERN = /^[A-Za-z_$][A-Za-z0-9_$]*$/

const reservedNames = new Set(RESERVED_PROVIDER_NAMES)
const reservedWords = new Set(JAVASCRIPT_RESERVED_WORDS)
const namePattern = /^[A-Za-z_$][A-Za-z0-9_$]*$/
const identifierRule = 'letters, digits, _ and $, not starting with a digit'

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u
const shortEscapes = /** @type {Record<string, string>} */ ({
  '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v',
  '"': '\\"', '\\': '\\\\',
})

/**
 * Quotes a string as Go's %q does (strconv.Quote), so that texts built from
 * names read as the Go server's.
 * @param {string} s
 * @returns {string}
 */
export function goQuote(s) {
  let out = '"'
  for (const ch of String(s)) {
    const esc = shortEscapes[ch]
    if (esc !== undefined) {
      out += esc
      continue
    }
    const cp = /** @type {number} */ (ch.codePointAt(0))
    if (cp >= 0xd800 && cp <= 0xdfff) {
      out += '\ufffd' // a lone surrogate: Go holds it as U+FFFD
    } else if (printable.test(ch)) {
      out += ch
    } else if (cp < 0x20 || cp === 0x7f) {
      out += '\\x' + cp.toString(16).padStart(2, '0')
    } else if (cp < 0x10000) {
      out += '\\u' + cp.toString(16).padStart(4, '0')
    } else {
      out += '\\U' + cp.toString(16).padStart(8, '0')
    }
  }
  return out + '"'
}

/**
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
function isRecord(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/**
 * @param {unknown} name
 * @param {Set<string>} seen
 */
function providerNameProblem(name, seen) {
  const s = typeof name === 'string' ? name : ''
  const q = goQuote(s)
  if (reservedNames.has(s)) return `Provider name ${q} is reserved`
  if (!namePattern.test(s)) return `Provider name ${q} is not a valid JavaScript identifier`
  if (reservedWords.has(s)) return `Provider name ${q} is a JavaScript reserved word`
  if (seen.has(s)) return `Duplicate provider name ${q}`
  return null
}

/**
 * @param {string} name
 * @param {any} p
 */
function toolsProblem(name, p) {
  const pq = goQuote(name)
  const tools = new Set()
  const list = p.tools ?? []
  if (!Array.isArray(list)) return `provider ${pq}: "tools" must be an array of tool names`
  for (const t of list) {
    if (typeof t !== 'string') return `provider ${pq}: a tool name is not a string`
    if (t === '') return `provider ${pq}: a tool name is empty`
    if (!namePattern.test(t)) {
      return `provider ${pq}: tool name ${goQuote(t)} is not a JavaScript identifier (${identifierRule})`
    }
    if (tools.has(t)) return `provider ${pq}: tool ${goQuote(t)} is declared twice`
    tools.add(t)
  }
  if (p.schemas !== undefined && p.schemas !== null) {
    if (!isRecord(p.schemas)) return `provider ${pq}: "schemas" must be an object of schemas by tool name`
    for (const t of Object.keys(p.schemas).sort()) {
      if (!tools.has(t)) return `provider ${pq}: a schema names tool ${goQuote(t)}, which the provider does not declare`
      let json
      try {
        json = JSON.stringify(p.schemas[t])
      } catch {
        json = undefined
      }
      if (json === undefined) return `provider ${pq}: the schema of tool ${goQuote(t)} is not valid JSON`
    }
  }
  if (p.descriptions !== undefined && p.descriptions !== null) {
    if (!isRecord(p.descriptions)) return `provider ${pq}: "descriptions" must be an object of texts by tool name`
    for (const t of Object.keys(p.descriptions).sort()) {
      if (!tools.has(t)) {
        return `provider ${pq}: a description names tool ${goQuote(t)}, which the provider does not declare`
      }
      if (typeof p.descriptions[t] !== 'string') return `provider ${pq}: the description of tool ${goQuote(t)} is not a string`
    }
  }
  return null
}

/**
 * Checks a provider list and returns the text of the first failure, or null
 * when every provider is acceptable. Providers are checked in order: each
 * name against RESERVED_PROVIDER_NAMES, then PROVIDER_NAME_PATTERN, then
 * JAVASCRIPT_RESERVED_WORDS, then the names already seen; then each of its
 * tools must be a non-empty identifier declared once, and every schema and
 * description must name a declared tool.
 * @param {ReadonlyArray<{name: string, tools?: readonly string[] | null, positionalArgs?: boolean, schemas?: Record<string, unknown> | null, descriptions?: Record<string, string> | null}> | null | undefined} providers
 * @returns {string | null}
 */
export function validateProviders(providers) {
  if (providers === undefined || providers === null) return null
  if (!Array.isArray(providers)) return 'providers must be an array'
  const seen = new Set()
  for (const p of providers) {
    if (!isRecord(p)) return 'a provider must be an object {name, tools}'
    const nameProblem = providerNameProblem(p.name, seen)
    if (nameProblem) return nameProblem
    const name = /** @type {string} */ (p.name)
    seen.add(name)
    const toolProblem = toolsProblem(name, p)
    if (toolProblem) return toolProblem
  }
  return null
}
