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
})
