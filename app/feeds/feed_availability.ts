import { inject } from '@adonisjs/core'
import { E_FEED_UNAVAILABLE, E_NO_DATA_YET } from '#feeds/exceptions'
import { FeedDirectory } from '#feeds/feed_directory'
import { FeedSnapshots } from '#feeds/feed_snapshots'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { servesStoredDocuments } from '#feeds/source_driver'
import type Feed from '#models/feed'

/** What the availability check needs of a feed (a model, or a listing's row). */
export interface FeedToCheck {
  id: string
  sourceType: string
}

/**
 * Whether a feed can serve a paid call now, known before any payment is
 * asked: the one rule the paywall (ServeFeed) and the pages (the marketplace,
 * feed and provider pages) share. A paused feed cannot; nor can a feed served
 * from stored documents (Hosted Mirror: polled, pushed or uploaded) that has
 * none yet. A feed whose source is called on each paid call (built-in,
 * Partner Bridge) can, and learns only then whether its source answers.
 */
@inject()
export class FeedAvailability {
  constructor(
    private sources: FeedSourceManager,
    private snapshots: FeedSnapshots,
    private directory: FeedDirectory
  ) {}

  /** Throws the 503 a paid call would end with (feed_unavailable, source_unavailable). */
  async assertServable(feed: Feed): Promise<void> {
    if (feed.status !== 'active') throw new E_FEED_UNAVAILABLE([feed.slug])
    const missing = await this.withoutData([feed])
    if (missing.has(feed.id)) throw new E_NO_DATA_YET([feed.slug])
  }

  /**
   * The ids of the feeds among `feeds` with no data to serve yet: one query at
   * most, none when each was lately seen with data (FeedDirectory.hasData),
   * so a busy feed's unpaid 402 costs no database round-trip.
   */
  async withoutData(feeds: FeedToCheck[]): Promise<Set<string>> {
    const configured = new Set(this.sources.names())
    const unknown: string[] = []
    for (const feed of feeds) {
      if (!configured.has(feed.sourceType) || this.directory.hasData(feed.id)) continue
      if (servesStoredDocuments(await this.sources.use(feed.sourceType))) unknown.push(feed.id)
    }
    const served = await this.snapshots.withSnapshot(unknown)
    this.directory.rememberData(served)
    return new Set(unknown.filter((id) => !served.has(id)))
  }
}
