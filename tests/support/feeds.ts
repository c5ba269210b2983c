import Feed from '#models/feed'

const LIVE_FEED = {
  description: '',
  priceMicrostx: 5_000n,
  sourceSettings: {},
  status: 'active' as const,
}

export function createFeed(attributes: Partial<Feed> & { slug: string; sourceType: string }) {
  return Feed.create({ displayName: attributes.slug, ...LIVE_FEED, ...attributes })
}

/**
 * `count` live manual-upload feeds of a provider in one insert, numbered from
 * 1 (`feed(n)` names and describes each); the marketplace lists them in that
 * order when their slugs sort the same way.
 */
export function createFeeds(
  providerId: string,
  count: number,
  feed: (n: number) => Partial<Feed> & { slug: string }
) {
  return Feed.createMany(
    Array.from({ length: count }, (_, index) => {
      const attributes = feed(index + 1)
      return {
        providerId,
        sourceType: 'manual_upload',
        displayName: attributes.slug,
        ...LIVE_FEED,
        ...attributes,
      }
    })
  )
}

/** An output declaration: prices, each a symbol and a USD price (a `$ref` into its `$defs`), and its example. */
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
