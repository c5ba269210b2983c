import type { LRUCache } from 'lru-cache'
import type { Clock } from '#core/clock'
import { clockedLruCache } from '#core/clocked_lru_cache'
import type { FeedPayload } from '#feeds/source_driver'

export interface CachedPayload {
  payload: FeedPayload
  fetchedAt: number
}

/**
 * The last good payload per feed and query, in process memory, bounded
 * (least recently used entries go first), each dropped once too old to be
 * served at all. Each app instance keeps its own: upstream load grows with
 * instances × 1/TTL, never with buyers.
 */
export class FeedCache {
  #entries: LRUCache<string, CachedPayload>

  constructor(
    private clock: Clock,
    options: { maxEntries: number }
  ) {
    this.#entries = clockedLruCache(clock, { max: options.maxEntries })
  }

  get(key: string): CachedPayload | undefined {
    return this.#entries.get(key)
  }

  /** Keeps the payload, fetched now, for `keepMs`. */
  set(key: string, payload: FeedPayload, keepMs: number) {
    this.#entries.set(key, { payload, fetchedAt: this.clock.now() }, { ttl: keepMs })
  }

  /** Drops every cached payload of one feed (its source settings changed). */
  forgetFeed(feedId: string) {
    for (const key of [...this.#entries.keys()]) {
      if (key.startsWith(`${feedId}?`)) this.#entries.delete(key)
    }
  }

  clear() {
    this.#entries.clear()
  }
}

/** Feed id + query parameters sorted by name: one cache entry per distinct request. */
export function cacheKey(feedId: string, query: Record<string, unknown>) {
  const sorted = Object.keys(query)
    .sort()
    .map((name) => [name, query[name]])
  return `${feedId}?${JSON.stringify(sorted)}`
}
