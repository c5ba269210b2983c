import { inject } from '@adonisjs/core'
import { FeedSnapshots } from '#feeds/feed_snapshots'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import type Feed from '#models/feed'
import type Provider from '#models/provider'
import {
  type FeedSourceFacts,
  privateFeedView,
  privateProviderView,
} from '#provider_accounts/provider_views'

/**
 * The owner's views of providers and feeds, with what only the database and
 * the drivers know: whether a feed's source is mirrored (polled or
 * receiving), how it receives documents, and its source health. Every owner
 * answer goes through here, so each shows the same facts.
 */
@inject()
export class OwnerViews {
  constructor(
    private sources: FeedSourceManager,
    private snapshots: FeedSnapshots
  ) {}

  async provider(provider: Provider, feeds: Feed[] = []) {
    return privateProviderView(provider, feeds, await this.#facts(feeds))
  }

  async feed(provider: Provider, feed: Feed) {
    const facts = await this.#facts([feed])
    return privateFeedView(provider, feed, facts.get(feed.id))
  }

  async #facts(feeds: Feed[]): Promise<Map<string, FeedSourceFacts>> {
    const health = await this.snapshots.healthOf(feeds.map((feed) => feed.id))
    const facts = new Map<string, FeedSourceFacts>()
    const registered = new Set(this.sources.names())
    for (const feed of feeds) {
      // A feed whose driver is no longer configured still shows, without source facts.
      if (!registered.has(feed.sourceType)) continue
      const driver = await this.sources.use(feed.sourceType)
      facts.set(feed.id, {
        mirrored: Boolean(driver.poll || driver.receives),
        receives: driver.receives,
        health: health.get(feed.id),
      })
    }
    return facts
  }
}
