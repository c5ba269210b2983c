import type { ApiClient } from '@japa/api-client'
import { newOwner, registerProvider } from '#tests/support/providers'

export const PRICES_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { prices: { type: 'array', items: { $ref: '#/$defs/price' } } },
  required: ['prices'],
  $defs: {
    price: {
      type: 'object',
      properties: { symbol: { type: 'string' }, usd: { type: 'number' } },
      required: ['symbol', 'usd'],
    },
  },
}
export const PRICES_EXAMPLE = { prices: [{ symbol: 'BTC', usd: 97_000.5 }] }

/**
 * A Partner Bridge provider (acme-data) with two live feeds: `btc-price`,
 * declaring no output, and `eth-price`, forwarding `symbol` and declaring
 * PRICES_SCHEMA with PRICES_EXAMPLE.
 */
export async function providerWithDeclaredFeed(client: ApiClient) {
  const owner = await newOwner(client)
  const { provider } = await registerProvider(client, owner.token)
  const created = await client
    .post(`/providers/id/${provider.id}/feeds`)
    .bearerToken(owner.token)
    .json({
      slug: 'eth-price',
      display_name: 'ETH price',
      description: 'Ether spot price from our matching engine',
      price_stx: '0.007',
      source_path: '/v1/eth',
      forward_query: ['symbol'],
      output_schema: PRICES_SCHEMA,
      output_example: PRICES_EXAMPLE,
    })
  if (created.status() !== 201) throw new Error(`feed create answered ${created.text()}`)
  return { owner, provider }
}
