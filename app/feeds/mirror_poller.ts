import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import logger from '@adonisjs/core/services/logger'
import pMap from 'p-map'
import { Clock } from '#core/clock'
import type { MirrorPollingConfig } from '#feeds/define_config'
import { FeedSnapshots } from '#feeds/feed_snapshots'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { FeedStats } from '#feeds/feed_stats'
import { type FeedSourceDriver, SourceUnavailable } from '#feeds/source_driver'
import Feed from '#models/feed'

export const DEFAULT_POLLING: MirrorPollingConfig = {
  batchSize: 100,
  concurrency: 8,
  leaseSeconds: 60,
}

/** Back-off after consecutive failures: the interval doubled per failure, up to max(interval, 1 h). */
export function backoffMs(intervalMs: number, failures: number) {
  const ceiling = Math.max(intervalMs, 3_600_000)
  return Math.min(intervalMs * 2 ** Math.min(Math.max(failures - 1, 0), 16), ceiling)
}

export interface PollSummary {
  polled: number
  updated: number
  unchanged: number
  failed: number
}

/**
 * `mirrors:poll`: polls every due feed of a driver that has `poll`. Due
 * feeds are claimed with FOR UPDATE SKIP LOCKED and their next_poll_at
 * bumped by a lease in the same statement, so two schedulers never poll one
 * feed twice in an interval, and no lock is held across the network. At most
 * `concurrency` polls run at once, so a slow source never delays the others.
 */
@inject()
export class MirrorPoller {
  constructor(
    private db: Database,
    private sources: FeedSourceManager,
    private snapshots: FeedSnapshots,
    private stats: FeedStats,
    private clock: Clock
  ) {}

  /** The source types whose driver polls. */
  async polledTypes(): Promise<string[]> {
    const types: string[] = []
    for (const name of this.sources.names()) {
      const driver = await this.sources.use(name)
      if (driver.poll) types.push(name)
    }
    return types
  }

  async run(options: MirrorPollingConfig = DEFAULT_POLLING): Promise<PollSummary> {
    const summary: PollSummary = { polled: 0, updated: 0, unchanged: 0, failed: 0 }
    const types = await this.polledTypes()
    if (types.length === 0) return summary
    const feeds = await this.claim(types, options)
    const outcomes = await pMap(feeds, (feed) => this.pollOne(feed), {
      concurrency: Math.max(1, options.concurrency),
    })
    for (const outcome of outcomes) {
      summary.polled++
      summary[outcome]++
    }
    return summary
  }

  /**
   * Claims the due feeds. A polled feed without a state row, or without a
   * next poll (it received documents before its source changed), is due at once.
   */
  async claim(types: string[], options: MirrorPollingConfig): Promise<Feed[]> {
    const now = new Date(this.clock.now())
    const placeholders = types.map(() => '?').join(', ')
    await this.db.rawQuery(
      `INSERT INTO feed_source_states (feed_id, next_poll_at)
       SELECT f.id, ? FROM feeds f
       WHERE f.source_type IN (${placeholders}) AND f.deleted_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM feed_source_states s WHERE s.feed_id = f.id)
       ON CONFLICT (feed_id) DO NOTHING`,
      [now, ...types]
    )
    const claimed = await this.db.rawQuery(
      `WITH due AS (
         SELECT s.feed_id FROM feed_source_states s
         JOIN feeds f ON f.id = s.feed_id
         WHERE (s.next_poll_at IS NULL OR s.next_poll_at <= ?) AND f.source_type IN (${placeholders})
           AND f.status = 'active' AND f.deleted_at IS NULL
         ORDER BY s.next_poll_at NULLS FIRST
         LIMIT ?
         FOR UPDATE OF s SKIP LOCKED
       )
       UPDATE feed_source_states s
       SET next_poll_at = ?::timestamptz + make_interval(secs => ?), last_polled_at = ?
       FROM due WHERE s.feed_id = due.feed_id
       RETURNING s.feed_id`,
      [now, ...types, options.batchSize, now, options.leaseSeconds, now]
    )
    const ids = (claimed.rows as { feed_id: string }[]).map((row) => row.feed_id)
    if (ids.length === 0) return []
    return Feed.query({ client: this.db.connection() }).whereIn('id', ids)
  }

  /** Polls one claimed feed and records the outcome: state, back-off, error rate. */
  async pollOne(feed: Feed): Promise<'updated' | 'unchanged' | 'failed'> {
    const driver = await this.sources.use(feed.sourceType)
    const intervalMs = intervalOf(driver, feed)
    const started = this.clock.now()
    try {
      const result = await driver.poll!(feed)
      await this.snapshots.recordSuccess(feed.id, started + intervalMs)
      await this.stats.recordSourceCall(feed.id, true)
      return result.outcome
    } catch (error) {
      const failure =
        error instanceof SourceUnavailable
          ? { kind: kindOf(error), message: error.message }
          : { kind: 'internal_error', message: 'the poll failed on our side' }
      if (!(error instanceof SourceUnavailable)) {
        logger.error({ err: error, feed: feed.id }, 'mirror poll failed')
      }
      await this.snapshots.recordFailure(
        feed.id,
        failure,
        (failures) => this.clock.now() + backoffMs(intervalMs, failures)
      )
      await this.stats.recordSourceCall(feed.id, false)
      return 'failed'
    }
  }
}

function intervalOf(driver: FeedSourceDriver, feed: Feed) {
  return driver.pollIntervalMs?.(feed) ?? 300_000
}

function kindOf(error: SourceUnavailable): string {
  const kind = (error as { kind?: unknown }).kind
  return typeof kind === 'string' ? kind : 'source_unavailable'
}
