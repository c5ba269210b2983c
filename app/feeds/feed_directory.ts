import type { LRUCache } from 'lru-cache'
import type { Clock } from '#core/clock'
import { clockedLruCache } from '#core/clocked_lru_cache'
import db from '@adonisjs/lucid/services/db'
import Feed from '#models/feed'
import { liveFeeds } from '#feeds/live_feeds'
import { closestName } from '#feeds/closest_name'

type LookUp = () => Promise<Feed | null>
type SlugsLookUp = () => Promise<string[]>

/**
 * Looks feeds up by slug for the paid routes, keeping each answer (found or
 * not) for `ttlMs`, a second by default: every request of a busy feed would
 * otherwise cost a database round-trip before the 402 is even built.
 * Concurrent requests share one query; a failed one is not kept. A paused or
 * repriced feed is seen within the TTL; payments are always checked against
 * the price of the feed row that built the requirements.
 */
export class FeedDirectory {
  #answers: LRUCache<string, { feed: Feed | null }, LookUp>
  #slugs: LRUCache<string, { slugs: string[] }, SlugsLookUp>
  #withData: LRUCache<string, true>

  constructor(clock: Clock, options: { ttlMs: number; maxEntries: number }) {
    this.#answers = clockedLruCache(clock, {
      ttlMs: options.ttlMs,
      max: options.maxEntries,
      fetchMethod: async (_key, _previous, { context: lookUp }) => ({ feed: await lookUp() }),
    })
    this.#slugs = clockedLruCache(clock, {
      ttlMs: options.ttlMs,
      max: options.maxEntries,
      fetchMethod: async (_key, _previous, { context: lookUp }) => ({ slugs: await lookUp() }),
    })
    this.#withData = clockedLruCache(clock, { ttlMs: options.ttlMs, max: options.maxEntries })
  }

  /**
   * Whether a feed served from stored documents was lately seen with one
   * (FeedAvailability). Only "yes" is kept: a stored snapshot stays until the
   * feed's source is switched, which forget()s here; another instance's
   * switch is seen within the TTL, and until then a paid call finds no
   * document, answers 503 and releases its claim, charging nothing.
   */
  hasData(feedId: string): boolean {
    return this.#withData.has(feedId)
  }

  rememberData(feedIds: Iterable<string>) {
    for (const feedId of feedIds) this.#withData.set(feedId, true)
  }

  builtin(slug: string): Promise<Feed | null> {
    return this.#find(slug, () => Feed.query().where('slug', slug).whereNull('provider_id').first())
  }

  /** A live feed of an active provider, by handle and slug. */
  ofProvider(handle: string, slug: string): Promise<Feed | null> {
    return this.#find(`p/${handle}/${slug}`, () =>
      Feed.query()
        .where('slug', slug)
        .whereNull('deleted_at')
        .whereHas('provider', (provider) => provider.where('handle', handle))
        .first()
    )
  }

  /**
   * The slugs of the live feeds of a provider, or the built-in ones (null):
   * those the marketplace shows (liveFeeds), so a "did you mean" never names
   * a page that 404s.
   */
  async liveSlugsOf(handle: string | null): Promise<string[]> {
    const lookUp = async () => {
      const query = liveFeeds(db).select('feeds.slug')
      if (handle === null) query.whereNull('feeds.provider_id')
      else query.where('providers.handle', handle)
      const rows: { slug: string }[] = await query
      return rows.map((row) => row.slug)
    }
    // No handle contains a slash.
    const { slugs } = await this.#slugs.forceFetch(handle ?? '/', { context: lookUp })
    return slugs
  }

  /**
   * The live feed a mistyped name (`whale-alertz`, `acme-data/btc-prise`) most
   * likely meant, named the same way: the "did you mean" of a 404, for the
   * API and the pages alike.
   */
  async closestTo(name: string): Promise<string | undefined> {
    if (!name.includes('/')) return closestName(name, await this.liveSlugsOf(null))
    const [handle, slug] = name.split('/', 2)
    const closest = closestName(slug, await this.liveSlugsOf(handle))
    return closest && `${handle}/${closest}`
  }

  /** Drops cached answers after a feed changes (other instances see it within the TTL). */
  forget() {
    this.#answers.clear()
    this.#slugs.clear()
    this.#withData.clear()
  }

  async #find(key: string, lookUp: LookUp) {
    const { feed } = await this.#answers.forceFetch(key, { context: lookUp })
    return feed
  }
}
