import type { MarketFeed } from '#web/market_catalog'

/** The categories present among the feeds, each with its count, in catalog order. */
export function categoriesOf(feeds: MarketFeed[]) {
  const counts = new Map<string, number>()
  for (const feed of feeds) counts.set(feed.category, (counts.get(feed.category) ?? 0) + 1)
  return [...counts].map(([name, count]) => ({ name, count }))
}
