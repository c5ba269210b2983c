import { inject } from '@adonisjs/core'
import pMap from 'p-map'
import { FeedSnapshots } from '#feeds/feed_snapshots'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { MirrorPoller } from '#feeds/mirror_poller'
import type Feed from '#models/feed'

/** What the owner is told of a new polled source: its first poll succeeded, or why it did not. */
export type FirstPollVerdict = { result: 'ok' } | { result: 'failed'; error: string }

/**
 * Polls a newly created polled feed once, so it sells at once and its owner
 * learns straight away whether the source works (the feed is created either
 * way; a failure is retried by mirrors:poll with back-off).
 */
@inject()
export class FirstPoll {
  constructor(
    private sources: FeedSourceManager,
    private snapshots: FeedSnapshots,
    private poller: MirrorPoller
  ) {}

  /**
   * The verdicts of several feeds' first polls by slug (those whose source is
   * polled), at most `concurrency` at a time.
   */
  async ofEach(feeds: Feed[], concurrency = 8): Promise<Record<string, FirstPollVerdict>> {
    const verdicts = await pMap(feeds, async (feed) => [feed.slug, await this.of(feed)] as const, {
      concurrency: Math.max(1, concurrency),
    })
    return Object.fromEntries(
      verdicts.filter((entry): entry is [string, FirstPollVerdict] => entry[1] !== undefined)
    )
  }

  /** Undefined when the feed's source is not polled. */
  async of(feed: Feed): Promise<FirstPollVerdict | undefined> {
    const driver = await this.sources.use(feed.sourceType)
    if (!driver.poll) return undefined
    await this.snapshots.dueNow(feed.id)
    if ((await this.poller.pollOne(feed)) !== 'failed') return { result: 'ok' }
    const state = await this.snapshots.state(feed.id)
    return { result: 'failed', error: state?.lastError ?? 'the source failed' }
  }
}
