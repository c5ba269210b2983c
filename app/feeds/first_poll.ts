import { inject } from '@adonisjs/core'
import pMap from 'p-map'
import { FeedsConfig } from '#feeds/define_config'
import { FeedSnapshots } from '#feeds/feed_snapshots'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { MirrorPoller } from '#feeds/mirror_poller'
import type Feed from '#models/feed'

/**
 * What the owner is told of a new polled source: its first poll succeeded,
 * or why it did not, or (beyond the polls one request makes) that
 * mirrors:poll polls it at its next run.
 */
export type FirstPollVerdict =
  { result: 'ok' } | { result: 'failed'; error: string } | { result: 'scheduled' }

/** At most this many sources are polled within one request (a mode switch); the rest are scheduled. */
export const FIRST_POLLS_PER_REQUEST = 16

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
    private poller: MirrorPoller,
    private config: FeedsConfig
  ) {}

  /**
   * The verdicts of several feeds' first polls by slug (those whose source is
   * polled), at most `concurrency` at a time; past FIRST_POLLS_PER_REQUEST
   * polled feeds, the rest are left to mirrors:poll (they are due already).
   */
  async ofEach(feeds: Feed[], concurrency = 8): Promise<Record<string, FirstPollVerdict>> {
    const polled: Feed[] = []
    for (const feed of feeds) {
      if (await this.#isPolled(feed)) polled.push(feed)
    }
    const now = polled.slice(0, FIRST_POLLS_PER_REQUEST)
    const later = polled.slice(FIRST_POLLS_PER_REQUEST)
    const verdicts = await pMap(now, async (feed) => [feed.slug, await this.#poll(feed)] as const, {
      concurrency: Math.max(1, concurrency),
    })
    return Object.fromEntries([
      ...verdicts,
      ...later.map((feed) => [feed.slug, { result: 'scheduled' } as const] as const),
    ])
  }

  /** Undefined when the feed's source is not polled. */
  async of(feed: Feed): Promise<FirstPollVerdict | undefined> {
    return (await this.#isPolled(feed)) ? this.#poll(feed) : undefined
  }

  async #isPolled(feed: Feed) {
    const driver = await this.sources.use(feed.sourceType)
    return Boolean(driver.poll)
  }

  async #poll(feed: Feed): Promise<FirstPollVerdict> {
    await this.snapshots.lease(feed.id, this.config.polling.leaseSeconds)
    if ((await this.poller.pollOne(feed)) !== 'failed') return { result: 'ok' }
    const state = await this.snapshots.state(feed.id)
    return { result: 'failed', error: state?.lastError ?? 'the source failed' }
  }
}
