// Turning the JavaScript request objects into the wire's fields, checking
// what the server's strict decoder would refuse so that a bad request is
// the run's INVALID_REQUEST error and never a malformed frame.

import { stringifyForDispatch } from './codec.js'
import { ExecutorError } from './errors.js'

const MODULE_KINDS = 'js, cjs, json or text'
const PROVIDER_FIELDS = new Set(['name', 'tools', 'positionalArgs', 'schemas', 'descriptions'])

/** A request the executor refuses before sending it. */
export class InvalidRequest {
  /** @param {string} message */
  constructor(message) {
    this.message = message
  }
}

/**
 * @param {unknown} v
 * @returns {v is Record<string, any>}
 */
export function isRecord(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** @param {unknown} v */
function kindOf(v) {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  switch (typeof v) {
    case 'string':
      return 'a string'
    case 'number':
      return 'a number'
    case 'boolean':
      return 'a boolean'
    case 'object':
      return 'an object'
    default:
      return `a ${typeof v}`
  }
}

/**
 * Returns the wire form of a provider list.
 * @param {unknown} providers
 * @returns {object[] | undefined}
 */
export function wireProviders(providers) {
  if (providers === undefined || providers === null) return undefined
  if (!Array.isArray(providers)) throw new InvalidRequest(`providers must be an array, not ${kindOf(providers)}`)
  return providers.map((p, i) => {
    if (!isRecord(p)) throw new InvalidRequest(`providers[${i}] must be an object {name, tools}, not ${kindOf(p)}`)
    const label = typeof p.name === 'string' ? JSON.stringify(p.name) : `providers[${i}]`
    for (const k of Object.keys(p)) {
      if (!PROVIDER_FIELDS.has(k) && p[k] !== undefined) {
        throw new InvalidRequest(`provider ${label}: field ${JSON.stringify(k)} is not part of the codemode protocol (a provider has name, tools, positionalArgs, schemas and descriptions)`)
      }
    }
    if (typeof p.name !== 'string') throw new InvalidRequest(`providers[${i}].name must be a string, not ${kindOf(p.name)}`)
    /** @type {Record<string, unknown>} */
    const out = { name: p.name, tools: [] }
    if (p.tools !== undefined && p.tools !== null) {
      if (!Array.isArray(p.tools) || p.tools.some((t) => typeof t !== 'string')) {
        throw new InvalidRequest(`provider ${label}: tools must be an array of strings`)
      }
      out.tools = [...p.tools]
    }
    if (p.positionalArgs !== undefined && p.positionalArgs !== null) {
      if (typeof p.positionalArgs !== 'boolean') {
        throw new InvalidRequest(`provider ${label}: positionalArgs must be a boolean, not ${kindOf(p.positionalArgs)}`)
      }
      out.positionalArgs = p.positionalArgs
    }
    if (p.schemas !== undefined && p.schemas !== null) {
      if (!isRecord(p.schemas)) throw new InvalidRequest(`provider ${label}: schemas must be an object, not ${kindOf(p.schemas)}`)
      /** @type {Record<string, unknown>} */
      const schemas = {}
      for (const [tool, schema] of Object.entries(p.schemas)) {
        let json
        try {
          json = JSON.stringify(schema)
        } catch {
          json = undefined
        }
        if (json === undefined) throw new InvalidRequest(`provider ${label}: the schema of tool ${JSON.stringify(tool)} is not valid JSON`)
        schemas[tool] = JSON.parse(json)
      }
      out.schemas = schemas
    }
    if (p.descriptions !== undefined && p.descriptions !== null) {
      if (!isRecord(p.descriptions) || Object.values(p.descriptions).some((d) => typeof d !== 'string')) {
        throw new InvalidRequest(`provider ${label}: descriptions must be an object of strings by tool name`)
      }
      out.descriptions = { ...p.descriptions }
    }
    return out
  })
}

/**
 * Returns the wire form of a module map: a plain object or a Map of names to
 * a source string or {js|cjs|json|text: ...}. The texts are
 * protocol/modules.go's.
 * @param {unknown} modules
 * @returns {Record<string, unknown> | undefined}
 */
export function wireModules(modules) {
  if (modules === undefined || modules === null) return undefined
  /** @type {Iterable<[unknown, unknown]>} */
  let entries
  if (modules instanceof Map) entries = modules.entries()
  else if (isRecord(modules)) entries = Object.entries(modules)
  else throw new InvalidRequest(`modules must be an object of module sources by name, not ${kindOf(modules)}`)
  /** @type {Record<string, unknown>} */
  const out = {}
  for (const [name, source] of entries) {
    if (typeof name !== 'string') throw new InvalidRequest('module map has a name that is not a string')
    if (name === '') throw new InvalidRequest('module map has an empty module name')
    const q = JSON.stringify(name)
    if (typeof source === 'string') {
      Object.defineProperty(out, name, { value: source, enumerable: true, writable: true, configurable: true })
      continue
    }
    if (!isRecord(source)) {
      throw new InvalidRequest(`module ${q}: module source must be a string or an object keyed ${MODULE_KINDS}, not ${kindOf(source)}`)
    }
    const keys = Object.keys(source).filter((k) => source[k] !== undefined).sort()
    for (const k of keys) {
      if (!['js', 'cjs', 'json', 'text'].includes(k)) {
        throw new InvalidRequest(`module ${q}: module source has unknown kind ${JSON.stringify(k)} (the kinds are ${MODULE_KINDS})`)
      }
    }
    if (keys.length === 0) throw new InvalidRequest(`module ${q}: module source is an empty object; name one kind: ${MODULE_KINDS}`)
    if (keys.length > 1) {
      throw new InvalidRequest(`module ${q}: module source names ${keys.length} kinds (${JSON.stringify(keys[0])} and ${JSON.stringify(keys[1])}); name exactly one`)
    }
    const kind = keys[0]
    const value = source[kind]
    let wire
    if (kind === 'json') {
      let json
      try {
        json = JSON.stringify(value)
      } catch {
        json = undefined
      }
      if (json === undefined) throw new InvalidRequest(`module ${q}: module source "json" is not valid JSON`)
      wire = { json: JSON.parse(json) }
    } else {
      if (typeof value !== 'string') throw new InvalidRequest(`module ${q}: module source ${JSON.stringify(kind)} must be a string, not ${kindOf(value)}`)
      wire = { [kind]: value }
    }
    Object.defineProperty(out, name, { value: wire, enumerable: true, writable: true, configurable: true })
  }
  return out
}

/**
 * Resolves the outbound setting: a mode for the wire and the function that
 * performs requests in the stub mode.
 * @param {unknown} outbound
 * @returns {{mode: string | undefined, fetch: Function | undefined}}
 */
export function resolveOutbound(outbound) {
  if (outbound === undefined) return { mode: undefined, fetch: undefined }
  if (outbound === null) return { mode: 'disabled', fetch: undefined }
  if (typeof outbound === 'function') return { mode: 'stub', fetch: outbound }
  if (outbound === 'native' || outbound === 'disabled') return { mode: outbound, fetch: undefined }
  if (outbound === 'stub') {
    throw new ExecutorError('PROTOCOL_MISMATCH', 'the outbound mode stub needs its function: pass outbound as (request) => Promise<response>')
  }
  throw new InvalidRequest(`outbound is ${typeof outbound === 'string' ? JSON.stringify(outbound) : kindOf(outbound)}; the outbound modes are native, stub and disabled (or a function, or null)`)
}

/**
 * Returns the wire timeout: undefined (absent), null or a positive whole
 * number of milliseconds.
 * @param {unknown} timeout
 */
export function wireTimeout(timeout) {
  if (timeout === undefined || timeout === null) return timeout
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout <= 0) {
    throw new InvalidRequest('timeout must be a positive whole number of milliseconds, or null')
  }
  return timeout
}

/**
 * The first of values that is not undefined.
 * @param {...unknown} values
 */
export function pick(...values) {
  for (const v of values) if (v !== undefined) return v
  return undefined
}

/**
 * Returns the wire options of a request, or undefined when every option is
 * the server's default.
 * @param {{timeout?: unknown, countHostWaits?: unknown, retainHandles?: unknown, outbound?: string}} o
 */
export function wireOptions(o) {
  /** @type {Record<string, unknown>} */
  const out = {}
  const timeout = wireTimeout(o.timeout)
  if (timeout !== undefined) out.timeout = timeout
  if (o.countHostWaits !== undefined && o.countHostWaits !== null && typeof o.countHostWaits !== 'boolean') {
    throw new InvalidRequest('countHostWaits must be a boolean')
  }
  if (o.countHostWaits === true) out.countHostWaits = true
  if (o.retainHandles !== undefined && o.retainHandles !== null && typeof o.retainHandles !== 'boolean') {
    throw new InvalidRequest('retainHandles must be a boolean')
  }
  if (o.retainHandles === true) out.retainHandles = true
  if (o.outbound !== undefined) out.outbound = o.outbound
  return Object.keys(out).length > 0 ? out : undefined
}

/**
 * Returns the args text of an invokeHandle: a string is the JSON text
 * itself, undefined is no arguments, anything else is encoded by
 * stringifyForDispatch.
 * @param {unknown} args
 * @returns {string | undefined}
 */
export function wireArgs(args) {
  if (args === undefined || args === '') return undefined
  if (typeof args === 'string') return args
  return stringifyForDispatch(args)
}
