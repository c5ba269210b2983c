/** A built-in feed by id, or a provider's feed by handle and slug. */
export type FeedRef = { id: string } | { handle: string; slug: string }

/**
 * The routes that serve a paid feed: app/payments/routes.ts registers them
 * from here, and every path to a feed is filled in from the same pattern. A
 * feed's path is also the paid resource's identity stored with every payment,
 * which a replay must match (`resourceIdentity`), so nothing names it by hand.
 * No router import: the pages' scripts share this module.
 */
export const PAID_FEED_ROUTES = {
  builtin: { name: 'feeds.builtin', pattern: '/feeds/:id' },
  provider: { name: 'feeds.provider', pattern: '/feeds/p/:handle/:slug' },
} as const

function fill(pattern: string, params: Record<string, string>) {
  return pattern.replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(params[name]))
}

/** A feed's paid API path. */
export function paidFeedPath(feed: FeedRef) {
  return 'id' in feed
    ? fill(PAID_FEED_ROUTES.builtin.pattern, feed)
    : fill(PAID_FEED_ROUTES.provider.pattern, feed)
}

/** A feed's name: a built-in feed's id, or `handle/slug` for a provider's (the inverse of feedPaths). */
export function feedName(feed: FeedRef) {
  return 'id' in feed ? feed.id : `${feed.handle}/${feed.slug}`
}

/**
 * A feed's paid API path and the marketplace page about it, from its name
 * (`whale-alerts`, or `acme-data/btc-price` for a provider's feed). The pages
 * live under /market so they never shadow an API path.
 */
export function feedPaths(name: string) {
  const [handle, slug] = name.split('/')
  const endpoint = slug === undefined ? paidFeedPath({ id: name }) : paidFeedPath({ handle, slug })
  return { endpoint, page: `/market${endpoint}` }
}
