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
