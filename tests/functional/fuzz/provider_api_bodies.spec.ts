import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import { randomPrivateKey } from '@stacks/transactions'
import { bodyAround, callAtTheEdge, fuzz, useFuzzGroup } from '#tests/support/fuzz'
import { useLoopbackOnlyOutbound } from '#tests/support/outbound'
import { newOwner, registerProvider, registration } from '#tests/support/providers'
import { walletOf } from '#tests/support/sign_in'

const FEED = { slug: 'eth-price', display_name: 'ETH', price_stx: '0.01', source_path: '/v1/eth' }

/**
 * Every JSON body of the provider API, near a valid one, sent by the owner:
 * a declared answer, and a refusal writes nothing. `:id` is the owner's
 * provider (a Partner Bridge provider with the feed btc-price).
 */
const ENDPOINTS: Array<{ method: string; path: string; valid: Record<string, unknown> }> = [
  { method: 'POST', path: '/providers', valid: registration({ handle: 'fuzz-co' }) },
  {
    method: 'PATCH',
    path: '/providers/id/:id',
    valid: {
      display_name: 'Acme',
      description: 'd',
      website: 'https://acme.example',
      x_account: '@a',
    },
  },
  { method: 'POST', path: '/providers/id/:id/feeds', valid: FEED },
  {
    method: 'PATCH',
    path: '/providers/id/:id/feeds/btc-price',
    valid: { display_name: 'BTC', price_stx: 0.02, source_path: '/v2/prices' },
  },
  { method: 'PATCH', path: '/providers/id/:id/feeds/btc-price/state', valid: { active: false } },
  {
    method: 'POST',
    path: '/providers/id/:id/link-wallet/nonce',
    valid: { wallet_address: walletOf(randomPrivateKey()) },
  },
  {
    method: 'POST',
    path: '/providers/id/:id/link-wallet',
    valid: {
      wallet_address: walletOf(randomPrivateKey()),
      nonce: 'a'.repeat(32),
      signature: 'ab'.repeat(65),
      public_key: '02'.padEnd(66, '1'),
      owner_nonce: 'b'.repeat(32),
      owner_signature: 'cd'.repeat(65),
    },
  },
  {
    method: 'POST',
    path: '/providers/id/:id/withdraw',
    valid: {
      amount_microstx: 2_000_000,
      destination_address: walletOf(randomPrivateKey()),
      idempotency_key: randomUUID(),
    },
  },
]

/** `d_i = {allOf: [d_{i-1}, d_{i-1}]}`: 2^links subschemas once expanded, in under 2 KB. */
function doublingChain(links: number) {
  const $defs: Record<string, unknown> = { d0: { type: 'object' } }
  for (let link = 1; link <= links; link++) {
    const previous = { $ref: `#/$defs/d${link - 1}` }
    $defs[`d${link}`] = { allOf: [previous, previous] }
  }
  return { $defs, $ref: `#/$defs/d${links}` }
}

/** `{"a": {"a": … {}}}`, `levels` deep. */
function nestedA(levels: number): unknown {
  return levels === 0 ? {} : { a: nestedA(levels - 1) }
}

/** a_i = {$ref: a_i+1, dependencies: {x: {$ref: a_i+1}}}: each link doubles what a validator runs. */
function dependenciesChain(links: number) {
  const $defs: Record<string, unknown> = { [`a${links}`]: { type: 'object' } }
  for (let i = 0; i < links; i++) {
    const next = { $ref: `#/$defs/a${i + 1}` }
    $defs[`a${i}`] = { ...next, dependencies: { x: next } }
  }
  return { $defs, $ref: '#/$defs/a0' }
}

/** d0 → d1 → … → d(n-1), whose items go back to d0: n references at each level of the data. */
function refChainIntoItems(links: number) {
  const $defs: Record<string, unknown> = {}
  for (let i = 0; i < links - 1; i++) $defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` }
  $defs[`d${links - 1}`] = { items: { $ref: '#/$defs/d0' } }
  return { $defs, $ref: '#/$defs/d0' }
}

function nestedArray(levels: number): unknown {
  return levels === 0 ? [] : [nestedArray(levels - 1)]
}

/** Crafted declarations, each with the code it is refused with and words of its message. */
const CRAFTED_DECLARATIONS: Array<{
  body: string
  code: string
  words: string
  /** The body parser may refuse it first (invalid_json): it nests too deeply to be read. */
  unreadable?: true
}> = [
  ...[2_000, 5_000, 10_000, 20_000, 100_000].map((levels) => ({
    // The body parser reads these (or refuses the deepest as invalid_json), but JSON.stringify
    // of them would overflow the stack.
    body: `{"output_schema":{"enum":${'['.repeat(levels)}${']'.repeat(levels)}}}`,
    code: 'invalid_output_schema',
    words: 'deeper than 32 levels',
    unreadable: true as const,
  })),
  {
    // draft-07's dependencies applies its schema in place, as allOf does.
    body: JSON.stringify({
      output_schema: { dependencies: { a: { $ref: '#' } } },
      output_example: { a: 1 },
    }),
    code: 'invalid_output_schema',
    words: 'refers to itself without going into the data',
  },
  {
    body: JSON.stringify({ output_schema: dependenciesChain(30), output_example: { x: 1 } }),
    code: 'invalid_output_schema',
    words: 'expands into more than',
  },
  {
    // "#/$defs/" names the key "" (RFC 6901), not $defs itself.
    body: JSON.stringify({
      output_schema: { $ref: '#/$defs/', $defs: { '': { allOf: [{ $ref: '#/$defs/' }] } } },
      output_example: 1,
    }),
    code: 'invalid_output_schema',
    words: 'refers to itself without going into the data',
  },
  {
    // uniqueItems compares every pair of items, in each of the 40 branches.
    body: JSON.stringify({
      output_schema: {
        allOf: Array.from({ length: 40 }, () => ({ $ref: '#/$defs/u' })),
        $defs: { u: { uniqueItems: true } },
      },
      output_example: Array.from({ length: 2_000 }, (_, i) => i),
    }),
    code: 'output_example_mismatch',
    words: 'subschema checks',
  },
  {
    // 900 references chained at every level of a 30-deep example.
    body: JSON.stringify({
      output_schema: refChainIntoItems(900),
      output_example: nestedArray(30),
    }),
    code: 'output_example_mismatch',
    words: 'subschema checks',
  },
  {
    body: JSON.stringify({ output_schema: { allOf: [{ $ref: '#' }] }, output_example: 1 }),
    code: 'invalid_output_schema',
    words: 'refers to itself without going into the data',
  },
  {
    body: JSON.stringify({ output_schema: { allOf: [{ $dynamicRef: '#' }] }, output_example: 1 }),
    code: 'invalid_output_schema',
    words: 'refers to itself without going into the data',
  },
  {
    body: JSON.stringify({ output_schema: doublingChain(26), output_example: {} }),
    code: 'invalid_output_schema',
    words: 'expands into more than',
  },
  {
    // Small once expanded, but each level of the example doubles the work: 2^22 checks.
    body: JSON.stringify({
      output_schema: {
        $defs: {
          d: {
            allOf: [
              { properties: { a: { $ref: '#/$defs/d' } } },
              { properties: { a: { $ref: '#/$defs/d' } } },
            ],
          },
        },
        $ref: '#/$defs/d',
      },
      output_example: nestedA(22),
    }),
    code: 'output_example_mismatch',
    words: 'subschema checks',
  },
  {
    body: JSON.stringify({ output_schema: { $ref: '#/$defs/%E0' } }),
    code: 'invalid_output_schema',
    words: 'output_schema',
  },
  {
    body: JSON.stringify({
      output_schema: { $defs: { usd: { $anchor: 'usd', type: 'number' } }, $ref: '#usd' },
    }),
    code: 'invalid_output_schema',
    words: 'JSON Pointer',
  },
]

test.group('Fuzzing | provider API bodies', (group) => {
  useFuzzGroup(group)
  group.each.setup(() => useLoopbackOnlyOutbound())

  for (const { method, path, valid } of ENDPOINTS) {
    test(`${method} ${path}`, async ({ client }) => {
      const owner = await newOwner(client)
      const { provider } = await registerProvider(client, owner.token)
      const url = path.replace(':id', provider.id)

      await fuzz(bodyAround(valid), async (body) => {
        await callAtTheEdge(method, url, { body, token: owner.token }, body)
      })
    })
  }

  test('a crafted output declaration is refused with its code, on create and edit', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const feedFields = JSON.stringify(FEED).slice(1, -1)
    for (const { body, code, words, unreadable } of CRAFTED_DECLARATIONS) {
      for (const [method, url, sent] of [
        ['POST', `/providers/id/${provider.id}/feeds`, `{${feedFields},${body.slice(1)}`],
        ['PATCH', `/providers/id/${provider.id}/feeds/btc-price`, body],
      ]) {
        const answer = await callAtTheEdge(
          method,
          url,
          { body: sent, token: owner.token },
          `${method} ${words}`
        )
        if (unreadable && answer.json.error.code === 'invalid_json') continue
        assert.equal(answer.status, 422, `${method} ${words} ${answer.text.slice(0, 300)}`)
        assert.equal(answer.json.error.code, code, `${method} ${words}`)
        assert.include(answer.json.error.message, words)
      }
    }
  })
})
