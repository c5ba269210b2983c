import type { FeedPayload } from '#feeds/source_driver'

interface Entry {
  payload: FeedPayload
  fetchedAt: number
}

/**
 * The last good payload per feed and query, in process memory, bounded
 * (least recently used entries go first). Each app instance keeps its own:
 * upstream load grows with instances × 1/TTL, never with buyers.
 */
export class FeedCache {
  #entries = new Map<string, Entry>()

  constructor(private maxEntries: number) {}

  get(key: string): Entry | undefined {
    const entry = this.#entries.get(key)
    if (entry) {
      this.#entries.delete(key)
      this.#entries.set(key, entry)
    }
    return entry
  }

  set(key: string, payload: FeedPayload, fetchedAt: number) {
    this.#entries.delete(key)
    this.#entries.set(key, { payload, fetchedAt })
    while (this.#entries.size > this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!)
    }
  }

  /** Drops every cached payload of one feed (its source settings changed). */
  forgetFeed(feedId: string) {
    for (const key of this.#entries.keys()) {
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
