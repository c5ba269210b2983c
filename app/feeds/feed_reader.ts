import { inject } from '@adonisjs/core'
import { Clock } from '#core/clock'
import { E_SOURCE_UNAVAILABLE } from '#feeds/exceptions'
import { cacheKey, FeedCache } from '#feeds/feed_cache'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { FeedStats } from '#feeds/feed_stats'
import { type FeedPayload, SourceUnavailable, servesStoredDocuments } from '#feeds/source_driver'
import type Feed from '#models/feed'

export type ServedPayload = FeedPayload & { stale?: true }

/**
 * Reads a feed through its source driver: validates the buyer's query,
 * serves a cached payload while it is fresh (the driver's TTL), fetches
 * otherwise — once for concurrent identical requests — and, when the source
 * fails, serves the last good payload while younger than 2 × TTL, flagged
 * `stale`, or fails with source_unavailable. A driver serving stored
 * documents (polled, pushed or uploaded) serves its snapshot on every call
 * instead: the source is not called, so the feed's stats count nothing.
 */
@inject()
export class FeedReader {
  #inFlight = new Map<string, Promise<ServedPayload>>()

  constructor(
    private sources: FeedSourceManager,
    private cache: FeedCache,
    private stats: FeedStats,
    private clock: Clock
  ) {}

  async validateQuery(feed: Feed, query: Record<string, unknown>) {
    const driver = await this.sources.use(feed.sourceType)
    return driver.validateQuery ? driver.validateQuery(feed, query) : {}
  }

  async read(feed: Feed, query: Record<string, unknown>): Promise<ServedPayload> {
    const driver = await this.sources.use(feed.sourceType)
    if (servesStoredDocuments(driver)) {
      // Its stored snapshot: not a source call, nothing to cache.
      try {
        return await driver.fetch(feed, { query })
      } catch (error) {
        if (!(error instanceof SourceUnavailable)) throw error
        throw new E_SOURCE_UNAVAILABLE([feed.slug], { cause: error })
      }
    }
    const ttl = driver.cacheTtlMs(feed)
    const key = cacheKey(feed.id, query)
    const cached = ttl === null ? undefined : this.cache.get(key)
    if (ttl !== null && cached && this.clock.now() - cached.fetchedAt < ttl) return cached.payload

    const running = this.#inFlight.get(key)
    if (running) return running

    const fetching = (async (): Promise<ServedPayload> => {
      try {
        const payload = await driver.fetch(feed, { query })
        await this.stats.recordSourceCall(feed.id, true)
        if (ttl !== null) this.cache.set(key, payload, 2 * ttl)
        return payload
      } catch (error) {
        if (!(error instanceof SourceUnavailable)) throw error
        await this.stats.recordSourceCall(feed.id, false)
        if (ttl !== null && cached && this.clock.now() - cached.fetchedAt < 2 * ttl) {
          return { ...cached.payload, stale: true }
        }
        throw new E_SOURCE_UNAVAILABLE([feed.slug], { cause: error })
      }
    })()
    this.#inFlight.set(key, fetching)
    try {
      return await fetching
    } finally {
      this.#inFlight.delete(key)
    }
  }
}
