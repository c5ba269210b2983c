import { type Clock } from '#core/clock'
import { ExpiringCache } from '#core/expiring_cache'
import Feed from '#models/feed'

/**
 * Looks feeds up by slug for the paid routes, keeping each answer for a
 * second: every request of a busy feed would otherwise cost a database
 * round-trip before the 402 is even built. A paused or repriced feed is seen
 * within that second; payments are always checked against the price of the
 * feed row that built the requirements.
 */
export class FeedDirectory {
  #cache: ExpiringCache<Feed | null>

  constructor(clock: Clock, ttlMs = 1_000) {
    this.#cache = new ExpiringCache({ ttlMs, maxEntries: 10_000, now: () => clock.now() })
  }

  builtin(slug: string): Promise<Feed | null> {
    return this.#cache.get(slug, () =>
      Feed.query().where('slug', slug).whereNull('provider_id').first()
    )
  }

  /** A live feed of an active provider, by handle and slug. */
  ofProvider(handle: string, slug: string): Promise<Feed | null> {
    return this.#cache.get(`p/${handle}/${slug}`, () =>
      Feed.query()
        .where('slug', slug)
        .whereNull('deleted_at')
        .whereHas('provider', (provider) => provider.where('handle', handle))
        .first()
    )
  }

  /** Drops cached answers after a feed changes (other instances see it within the TTL). */
  forget() {
    this.#cache.clear()
  }
}
