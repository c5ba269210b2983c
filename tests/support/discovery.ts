import type { ApiClient } from '@japa/api-client'
import { PRICES_EXAMPLE, PRICES_SCHEMA } from '#tests/support/feeds'
import { newOwner, registerProvider } from '#tests/support/providers'

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
