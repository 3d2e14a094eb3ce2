// validateProviders: the table of protocol/providers_test.go, text for text.

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { validateProviders } from '../index.js'
import { goQuote } from '../src/providers.js'

const p = (/** @type {string} */ name, /** @type {string[]} */ ...tools) => ({ name, tools })

const cases = [
  ['none', undefined, null],
  ['empty list', [], null],
  ['good', [p('store', 'listUsers', 'get_user'), p('$db'), {
    name: 'kv', tools: ['get'], positionalArgs: true,
    schemas: { get: { type: 'object' } }, descriptions: { get: 'Reads a key.' },
  }], null],
  ['reserved', [p('tools')], 'Provider name "tools" is reserved'],
  ['reserved global', [p('store'), p('JSON')], 'Provider name "JSON" is reserved'],
  ['empty', [p('')], 'Provider name "" is not a valid JavaScript identifier'],
  ['not an identifier', [p('my-store')], 'Provider name "my-store" is not a valid JavaScript identifier'],
  ['leading digit', [p('1store')], 'Provider name "1store" is not a valid JavaScript identifier'],
  ['reserved word', [p('class')], 'Provider name "class" is a JavaScript reserved word'],
  ['strict reserved word', [p('let')], 'Provider name "let" is a JavaScript reserved word'],
  ['literal', [p('null')], 'Provider name "null" is a JavaScript reserved word'],
  ['twice', [p('store'), p('kv'), p('store')], 'Duplicate provider name "store"'],
  ['first failure wins', [p('class'), p('tools')], 'Provider name "class" is a JavaScript reserved word'],
  ['empty tool', [p('store', 'a', '')], 'provider "store": a tool name is empty'],
  ['tool not an identifier', [p('store', 'list-users')],
    'provider "store": tool name "list-users" is not a JavaScript identifier (letters, digits, _ and $, not starting with a digit)'],
  ['tool twice', [p('store', 'get', 'put', 'get')], 'provider "store": tool "get" is declared twice'],
  ['tool named as a reserved word is fine', [p('store', 'delete', 'tools')], null],
  ['same tool in two providers is fine', [p('a', 'get'), p('b', 'get')], null],
  ['schema of an undeclared tool', [{ name: 'store', tools: ['get'], schemas: { put: {} } }],
    'provider "store": a schema names tool "put", which the provider does not declare'],
  ['schema not JSON', [{ name: 'store', tools: ['get'], schemas: { get: 10n } }],
    'provider "store": the schema of tool "get" is not valid JSON'],
  ['description of an undeclared tool', [{ name: 'store', tools: ['get'], descriptions: { put: 'x' } }],
    'provider "store": a description names tool "put", which the provider does not declare'],
  ['name checks before tool checks of a later provider', [p('store', 'a-b'), p('class')],
    'provider "store": tool name "a-b" is not a JavaScript identifier (letters, digits, _ and $, not starting with a digit)'],
  ['a name quoted as Go quotes it', [p('a\tb"\u2028')], 'Provider name "a\\tb\\"\\u2028" is not a valid JavaScript identifier'],
]

for (const [name, providers, want] of cases) {
  test(`validateProviders: ${name}`, () => {
    assert.equal(validateProviders(/** @type {any} */ (providers)), want)
  })
}

test('goQuote quotes as strconv.Quote', () => {
  assert.equal(goQuote('plain'), '"plain"')
  assert.equal(goQuote('é ü 日本'), '"é ü 日本"')
  assert.equal(goQuote('\x00\x7f\n'), '"\\x00\\x7f\\n"')
  assert.equal(goQuote('\u00a0\ufeff'), '"\\u00a0\\ufeff"')
  assert.equal(goQuote('\\'), '"\\\\"')
})
