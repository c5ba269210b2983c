import { isObject } from './x402.ts'

export interface FeedFilter {
  /** Words every matching feed contains (the discovery search). */
  query?: string
  /** A built-in category (`crypto`, …) or `provider`. */
  category?: string
  maxPriceMicrostx?: bigint | number
  /** At most this many feeds (default 200). */
  limit?: number
}

/** A live feed as the discovery API lists it (an x402 discovery resource). */
export interface Feed {
  /** What `get()` takes: the feed's absolute URL (with its example query). */
  resource: string
  description?: string
  tags: string[]
  priceMicrostx: bigint
  /** The resource as the service gave it: accepts, extensions (bazaar input/output), … */
  raw: Record<string, unknown>
}

const PAGE = 50
/** Bounds the paging whatever the service answers. */
const MAX_PAGES = 100

/** Pages through /facilitator/discovery/search (with a query) or /resources, filtered. */
export async function discoverFeeds(
  baseUrl: string,
  networkId: string,
  filter: FeedFilter,
  read: (url: string) => Promise<unknown>
): Promise<Feed[]> {
  const limit = filter.limit ?? 200
  const maxPrice = filter.maxPriceMicrostx === undefined ? null : BigInt(filter.maxPriceMicrostx)
  const feeds: Feed[] = []
  let cursor: string | null = null
  for (let page = 0; page < MAX_PAGES && feeds.length < limit; page++) {
    const url = new URL(
      `${baseUrl}/facilitator/discovery/${filter.query === undefined ? 'resources' : 'search'}`
    )
    url.searchParams.set('limit', String(PAGE))
    url.searchParams.set('network', networkId)
    if (filter.query === undefined) url.searchParams.set('offset', String(page * PAGE))
    else {
      url.searchParams.set('query', filter.query)
      if (cursor) url.searchParams.set('cursor', cursor)
    }
    const answer = await read(url.toString())
    // `items` on /resources, `resources` on /search (the shapes of @x402/extensions).
    const listed = isObject(answer) ? (answer.items ?? answer.resources) : undefined
    const items = Array.isArray(listed) ? listed : []
    for (const item of items) {
      const feed = toFeed(item, networkId)
      if (!feed) continue
      if (filter.category !== undefined && !feed.tags.includes(filter.category)) continue
      if (maxPrice !== null && feed.priceMicrostx > maxPrice) continue
      if (feeds.length < limit) feeds.push(feed)
    }
    const pagination = isObject(answer) && isObject(answer.pagination) ? answer.pagination : {}
    if (filter.query === undefined) {
      const total = typeof pagination.total === 'number' ? pagination.total : 0
      if (items.length === 0 || (page + 1) * PAGE >= total) break
    } else {
      cursor = typeof pagination.cursor === 'string' ? pagination.cursor : null
      if (!cursor) break
    }
  }
  return feeds
}

function toFeed(item: unknown, networkId: string): Feed | null {
  if (!isObject(item) || typeof item.resource !== 'string' || !Array.isArray(item.accepts))
    return null
  const offer = item.accepts.find(
    (accept) =>
      isObject(accept) &&
      accept.scheme === 'exact' &&
      accept.asset === 'STX' &&
      accept.network === networkId &&
      typeof accept.amount === 'string' &&
      /^\d{1,19}$/.test(accept.amount)
  )
  if (!isObject(offer)) return null
  return {
    resource: item.resource,
    description: typeof item.description === 'string' ? item.description : undefined,
    tags: Array.isArray(item.tags) ? item.tags.filter((tag) => typeof tag === 'string') : [],
    priceMicrostx: BigInt(offer.amount as string),
    raw: item,
  }
}
