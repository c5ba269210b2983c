import { type Clock } from '#core/clock'
import { ExpiringCache } from '#core/expiring_cache'
import { BUILTIN_FEEDS } from '#feeds/builtin/catalog'
import { closestName } from '#feeds/closest_name'
import { E_FEED_NOT_FOUND } from '#feeds/exceptions'
import Feed from '#models/feed'

const BUILTIN_IDS = BUILTIN_FEEDS.map((feed) => feed.id)

/**
 * Looks feeds up by slug for the paid routes, keeping each answer for a
 * second: every request of a busy feed would otherwise cost a database
 * round-trip before the 402 is even built. A paused or repriced feed is seen
 * within that second; payments are always checked against the price of the
 * feed row that built the requirements. An unknown feed is answered with the
 * one its name is a likely typo of, if any.
 */
export class FeedDirectory {
  #cache: ExpiringCache<Feed | null>
  #providerSlugs: ExpiringCache<string[]>

  constructor(clock: Clock, ttlMs = 1_000) {
    this.#cache = new ExpiringCache({ ttlMs, maxEntries: 10_000, now: () => clock.now() })
    this.#providerSlugs = new ExpiringCache({ ttlMs, maxEntries: 1_000, now: () => clock.now() })
  }

  async builtinOrFail(slug: string): Promise<Feed> {
    const feed = await this.#cache.get(slug, () =>
      Feed.query().where('slug', slug).whereNull('provider_id').first()
    )
    if (!feed) throw new E_FEED_NOT_FOUND(slug, closestName(slug, BUILTIN_IDS))
    return feed
  }

  /** A live feed of an active provider, by handle and slug. */
  async ofProviderOrFail(handle: string, slug: string): Promise<Feed> {
    const feed = await this.#cache.get(`p/${handle}/${slug}`, () =>
      Feed.query()
        .where('slug', slug)
        .whereNull('deleted_at')
        .whereHas('provider', (provider) => provider.where('handle', handle))
        .first()
    )
    if (!feed) {
      const closest = closestName(slug, await this.#liveSlugsOf(handle))
      throw new E_FEED_NOT_FOUND(`${handle}/${slug}`, closest && `${handle}/${closest}`)
    }
    return feed
  }

  /** Drops cached answers after a feed changes (other instances see it within the TTL). */
  forget() {
    this.#cache.clear()
    this.#providerSlugs.clear()
  }

  #liveSlugsOf(handle: string) {
    return this.#providerSlugs.get(handle, async () => {
      const feeds = await Feed.query()
        .select('slug')
        .whereNull('deleted_at')
        .whereHas('provider', (provider) => provider.where('handle', handle))
      return feeds.map((feed) => feed.slug)
    })
  }
}
