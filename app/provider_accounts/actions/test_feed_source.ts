import { inject } from '@adonisjs/core'
import { E_SOURCE_NOT_FETCHED } from '#feeds/exceptions'
import { FeedSnapshots } from '#feeds/feed_snapshots'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import type { SourceProbe } from '#feeds/source_driver'
import type Provider from '#models/provider'
import { liveFeedOf } from '#provider_accounts/provider_access'

/**
 * `POST …/feeds/:slug/source/test`: fetches the feed's source once now, as a
 * poll would, and answers a verdict; nothing is stored. A source that was
 * failing and now answers is polled at the next mirrors:poll instead of
 * waiting out its back-off.
 */
@inject()
export class TestFeedSource {
  constructor(
    private sources: FeedSourceManager,
    private snapshots: FeedSnapshots
  ) {}

  async execute(provider: Provider, slug: string): Promise<SourceProbe> {
    const feed = await liveFeedOf(provider, slug)
    const driver = await this.sources.use(feed.sourceType)
    if (!driver.probe) throw new E_SOURCE_NOT_FETCHED([feed.sourceType])
    const probe = await driver.probe(feed)
    const state = driver.poll && probe.result === 'ok' ? await this.snapshots.state(feed.id) : null
    if (state?.failures) await this.snapshots.dueNow(feed.id)
    return probe
  }
}
