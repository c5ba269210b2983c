import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import logger from '@adonisjs/core/services/logger'
import { Clock } from '#core/clock'
import { FeedsConfig, type MirrorPollingConfig } from '#feeds/define_config'
import { FeedSnapshots } from '#feeds/feed_snapshots'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { FeedStats } from '#feeds/feed_stats'
import { isPolling, SourceUnavailable } from '#feeds/source_driver'
import Feed from '#models/feed'
import { metrics } from '#metrics/metrics'

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
  /** The run reached `runSeconds` and stopped claiming; the next run polls what is left. */
  outOfTime: boolean
}

/**
 * `mirrors:poll`: polls every feed of a driver that has `poll` that is due
 * when the run starts, owner wallet by owner wallet in turn (docs/hosted-mirror.md#polling).
 * Due feeds are claimed a batch at a time with FOR UPDATE SKIP LOCKED and
 * their next_poll_at bumped by a lease in the same statement, so two
 * schedulers never poll one feed twice in an interval, and no lock is held
 * across the network. At most `concurrency` polls run at once, so a slow
 * source never delays the others; the run claims until nothing due is left
 * or `runSeconds` have passed.
 */
@inject()
export class MirrorPoller {
  constructor(
    private db: Database,
    private sources: FeedSourceManager,
    private snapshots: FeedSnapshots,
    private stats: FeedStats,
    private clock: Clock,
    private config: FeedsConfig
  ) {}

  /** `options` default to `polling` in config/feeds.ts. */
  async run(options: MirrorPollingConfig = this.config.polling): Promise<PollSummary> {
    const summary: PollSummary = {
      polled: 0,
      updated: 0,
      unchanged: 0,
      failed: 0,
      outOfTime: false,
    }
    const types = await this.sources.polledNames()
    if (types.length === 0) return summary
    const startedAt = this.clock.now()
    await this.#addMissingStates(types, startedAt)
    const dueBy = startedAt + options.earlySeconds * 1_000
    const stopClaimingAt = startedAt + options.runSeconds * 1_000

    const queue: Feed[] = []
    const turnsTaken = new Map<string, number>()
    let drained = false
    let claiming: Promise<void> | undefined
    const nextFeed = async (): Promise<Feed | undefined> => {
      while (queue.length === 0 && !drained) {
        if (this.clock.now() >= stopClaimingAt) {
          summary.outOfTime = true
          drained = true
          break
        }
        claiming ??= this.claim(types, dueBy, options, turnsTaken)
          .then((batch) => {
            queue.push(...batch)
            if (batch.length < options.batchSize) drained = true
          })
          .catch((error) => {
            drained = true
            throw error
          })
          .finally(() => (claiming = undefined))
        await claiming
      }
      return queue.shift()
    }
    const worker = async () => {
      for (let feed = await nextFeed(); feed; feed = await nextFeed()) {
        const outcome = await this.pollOne(feed, startedAt)
        summary.polled++
        summary[outcome]++
        metrics.mirrorPoll(outcome)
      }
    }
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker))
    return summary
  }

  /**
   * A polled feed without a state row is due at once (so is one without a
   * next poll: it received documents before its source changed).
   */
  async #addMissingStates(types: string[], now: number) {
    await this.db.rawQuery(
      `INSERT INTO feed_source_states (feed_id, next_poll_at)
       SELECT f.id, ? FROM feeds f
       WHERE f.source_type IN (${types.map(() => '?').join(', ')}) AND f.deleted_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM feed_source_states s WHERE s.feed_id = f.id)
       ON CONFLICT (feed_id) DO NOTHING`,
      [new Date(now), ...types]
    )
  }

  /**
   * Claims the next batch of feeds due by `dueBy`, in turns: every owner
   * wallet's most overdue feed, then every owner's second, and so on, the
   * turns an owner already had in this run (`turnsTaken`, which it updates)
   * counted. Feeds another poller has claimed are skipped, and a claimed
   * feed is not due again for the lease. Window functions cannot take row
   * locks, so the turns are ranked first and the rows locked (and re-checked) after.
   */
  async claim(
    types: string[],
    dueBy: number,
    options: MirrorPollingConfig,
    turnsTaken = new Map<string, number>()
  ): Promise<Feed[]> {
    const due = new Date(dueBy)
    const now = new Date(this.clock.now())
    const claimed = await this.db.rawQuery(
      `WITH turns AS (
         SELECT s.feed_id, p.owner_wallet,
                COALESCE((?::jsonb ->> p.owner_wallet)::int, 0)
                  + row_number() OVER (PARTITION BY p.owner_wallet ORDER BY s.next_poll_at NULLS FIRST, s.feed_id) AS turn
         FROM feed_source_states s
         JOIN feeds f ON f.id = s.feed_id
         LEFT JOIN providers p ON p.id = f.provider_id
         WHERE (s.next_poll_at IS NULL OR s.next_poll_at <= ?)
           AND f.source_type IN (${types.map(() => '?').join(', ')})
           AND f.status = 'active' AND f.deleted_at IS NULL
       ),
       picked AS (
         SELECT s.feed_id, t.owner_wallet, t.turn, s.next_poll_at AS due_at
         FROM feed_source_states s JOIN turns t ON t.feed_id = s.feed_id
         WHERE s.next_poll_at IS NULL OR s.next_poll_at <= ?
         ORDER BY t.turn, s.next_poll_at NULLS FIRST, s.feed_id
         LIMIT ?
         FOR UPDATE OF s SKIP LOCKED
       )
       UPDATE feed_source_states s
       SET next_poll_at = ?::timestamptz + make_interval(secs => ?), last_polled_at = ?
       FROM picked WHERE s.feed_id = picked.feed_id
       RETURNING s.feed_id, picked.owner_wallet, picked.turn, picked.due_at`,
      [
        JSON.stringify(Object.fromEntries(turnsTaken)),
        due,
        ...types,
        due,
        options.batchSize,
        now,
        options.leaseSeconds,
        now,
      ]
    )
    const rows = claimed.rows as {
      feed_id: string
      owner_wallet: string | null
      turn: string
      due_at: Date | null
    }[]
    if (rows.length === 0) return []
    for (const { owner_wallet: owner } of rows) {
      if (owner !== null) turnsTaken.set(owner, (turnsTaken.get(owner) ?? 0) + 1)
    }
    // RETURNING keeps no order: put the turns back in order.
    const ids = rows
      .sort(
        (a, b) =>
          Number(a.turn) - Number(b.turn) ||
          (a.due_at?.getTime() ?? 0) - (b.due_at?.getTime() ?? 0) ||
          a.feed_id.localeCompare(b.feed_id)
      )
      .map((row) => row.feed_id)
    const feeds = await Feed.query({ client: this.db.connection() }).whereIn('id', ids)
    const byId = new Map(feeds.map((feed) => [feed.id, feed]))
    return ids.flatMap((id) => byId.get(id) ?? [])
  }

  /**
   * Polls one claimed feed and records the outcome: state, back-off, error
   * rate. The next poll is due an interval after `since`: a run passes its
   * start, so a feed polled late in a run keeps to the scheduler's minutes
   * instead of slipping behind the next run.
   */
  async pollOne(feed: Feed, since = this.clock.now()): Promise<'updated' | 'unchanged' | 'failed'> {
    const driver = await this.sources.use(feed.sourceType)
    if (!isPolling(driver)) throw new Error(`the ${feed.sourceType} source does not poll`)
    const intervalMs = driver.pollIntervalMs(feed)
    try {
      const result = await driver.poll(feed)
      await this.snapshots.recordSuccess(feed.id, since + intervalMs)
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
        (failures) => since + backoffMs(intervalMs, failures)
      )
      await this.stats.recordSourceCall(feed.id, false)
      return 'failed'
    }
  }
}

function kindOf(error: SourceUnavailable): string {
  const kind = (error as { kind?: unknown }).kind
  return typeof kind === 'string' ? kind : 'source_unavailable'
}
