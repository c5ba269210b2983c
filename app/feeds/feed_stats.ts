import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { Clock } from '#core/clock'
import { utcDay } from '#stats/utc_periods'

/**
 * Rollup counters per feed (and per feed and UTC day, for provider
 * analytics), maintained on write so that the registry and statistics read
 * one row per feed, whatever the size of the query log.
 */
@inject()
export class FeedStats {
  constructor(
    private db: Database,
    private clock: Clock
  ) {}

  /**
   * One real call to the feed's source (cache hits are not calls). The feed's
   * row first, then its day's — the order the query log's rollup trigger
   * locks them in (migration 080), so the two never wait on each other in a
   * cycle: the day's insert reads the feed's, which therefore runs first.
   */
  async recordSourceCall(feedId: string, succeeded: boolean) {
    await this.db.rawQuery(
      `WITH total AS (
         INSERT INTO feed_stats (feed_id, source_calls, source_failures)
         VALUES (:feed, 1, :failures)
         ON CONFLICT (feed_id) DO UPDATE SET
           source_calls = feed_stats.source_calls + 1,
           source_failures = feed_stats.source_failures + EXCLUDED.source_failures
         RETURNING feed_id
       )
       INSERT INTO feed_daily_stats (feed_id, day, source_calls, source_failures)
       SELECT feed_id, :day, 1, :failures FROM total
       ON CONFLICT (feed_id, day) DO UPDATE SET
         source_calls = feed_daily_stats.source_calls + 1,
         source_failures = feed_daily_stats.source_failures + EXCLUDED.source_failures`,
      { feed: feedId, day: utcDay(this.clock.now()), failures: succeeded ? 0 : 1 }
    )
  }
}

/** The feed_stats columns summariseStats reads, for queries joining feed_stats. */
export const FEED_STATS_COLUMNS = [
  'feed_stats.total_queries',
  'feed_stats.total_response_ms',
  'feed_stats.source_calls',
  'feed_stats.source_failures',
]

export interface FeedStatsRow {
  total_queries: string | number
  total_response_ms: string | number
  source_calls: string | number
  source_failures: string | number
}

/** The registry's stats object from a feed_stats row (or none yet). */
export function summariseStats(row: Partial<FeedStatsRow> | null) {
  const queries = Number(row?.total_queries ?? 0)
  const calls = Number(row?.source_calls ?? 0)
  const failures = Number(row?.source_failures ?? 0)
  return {
    total_queries: queries,
    avg_response_ms: queries === 0 ? 0 : Math.round(Number(row?.total_response_ms ?? 0) / queries),
    /** 100 until a source call fails: uptime counts only the source's own failures. */
    uptime_percent: calls === 0 ? 100 : Math.round(((calls - failures) / calls) * 10_000) / 100,
  }
}
