import { type Clock } from '#core/clock'
import Feed from '#models/feed'

/**
 * Looks feeds up by slug for the paid routes, keeping each answer for a
 * second: every request of a busy feed would otherwise cost a database
 * round-trip before the 402 is even built. A paused or repriced feed is seen
 * within that second; payments are always checked against the price of the
 * feed row that built the requirements.
 */
export class FeedDirectory {
  #entries = new Map<string, { at: number; feed: Promise<Feed | null> }>()

  constructor(
    private clock: Clock,
    private ttlMs = 1_000
  ) {}

  builtin(slug: string): Promise<Feed | null> {
    const now = this.clock.now()
    const cached = this.#entries.get(slug)
    if (cached && now - cached.at < this.ttlMs) return cached.feed
    const feed = Feed.query().where('slug', slug).whereNull('provider_id').first()
    this.#entries.set(slug, { at: now, feed })
    feed.catch(() => this.#entries.delete(slug))
    if (this.#entries.size > 10_000) this.#entries.delete(this.#entries.keys().next().value!)
    return feed
  }

  forget() {
    this.#entries.clear()
  }
}
