import Feed from '#models/feed'

export function createFeed(attributes: Partial<Feed> & { slug: string; sourceType: string }) {
  return Feed.create({
    displayName: attributes.slug,
    description: '',
    priceMicrostx: 5_000n,
    sourceSettings: {},
    status: 'active',
    ...attributes,
  })
}
