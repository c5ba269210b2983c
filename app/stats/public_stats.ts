import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { Clock } from '#core/clock'
import { FEED_STATS_COLUMNS, summariseStats } from '#feeds/feed_stats'
import { parseMicrostx, stxNumber } from '#ledger/money'
import { shortAddress } from '#stats/agent_name'
import { reputation } from '#stats/reputation'
import { timeAgo } from '#stats/time_ago'

export const LEADERBOARD_SIZE = 50

/**
 * GET /stats, /activity and /leaderboard. Each reads rollup rows (one per
 * feed, one per agent) or the newest log rows by primary key: the cost does
 * not grow with the query log.
 */
/** A built-in feed by its id, a provider's as `<handle>/<slug>` (its path under /feeds/p/). */
const FEED_NAME = `CASE WHEN providers.handle IS NULL THEN feeds.slug
  ELSE providers.handle || '/' || feeds.slug END AS feed_name`

@inject()
export class PublicStats {
  constructor(
    private db: Database,
    private clock: Clock
  ) {}

  async stats() {
    const [rows, overall] = await Promise.all([
      this.#activeFeeds()
        .leftJoin('providers', 'providers.id', 'feeds.provider_id')
        .orderByRaw('providers.handle NULLS FIRST')
        .orderBy('feeds.slug')
        .select(this.db.raw(FEED_NAME), ...FEED_STATS_COLUMNS),
      this.totals(),
    ])
    const queries = overall.total_queries
    const { score, tier } = reputation(queries, overall.avg_response_ms, overall.uptime_percent)
    return {
      total_queries_served: queries,
      reputation_score: score,
      tier,
      uptime_percent: overall.uptime_percent,
      feed_breakdown: rows.map((row) => {
        const summary = summariseStats(row)
        return {
          feed_id: row.feed_name as string,
          queries: summary.total_queries,
          avg_response_ms: summary.avg_response_ms,
          error_rate:
            Number(row.source_calls) === 0
              ? 0
              : round4(Number(row.source_failures) / Number(row.source_calls)),
        }
      }),
    }
  }

  /**
   * The marketplace's figures of /stats (paid calls served, average response
   * time, uptime), summed by PostgreSQL over the feeds' rollups without
   * reading a row per feed: what the home page shows.
   */
  async totals() {
    const sums = await this.#activeFeeds()
      .select(
        ...FEED_STATS_COLUMNS.map((column) =>
          this.db.raw(`coalesce(sum(${column}), 0)::bigint AS ${column.split('.')[1]}`)
        )
      )
      .first()
    return summariseStats(sums)
  }

  /**
   * The newest paid calls, of every feed (backwards along the primary key)
   * or of one (`feed`: a built-in id or `<handle>/<slug>`): the newest
   * `limit` of each feed that name has named, through the query log's
   * per-feed index, then the newest of those. Either way at most `limit`
   * log rows per feed are read, however large the log. The totals are
   * always the marketplace's.
   */
  async activity(limit: number, feed?: string) {
    const log =
      feed === undefined
        ? this.db.from('query_log')
        : this.db.from(this.#feedIdsNamed(feed).as('named')).joinRaw(
            `CROSS JOIN LATERAL (SELECT * FROM query_log WHERE query_log.feed_id = named.id
                 ORDER BY query_log.id DESC LIMIT ?) AS query_log`,
            [limit]
          )
    const calls = log
      .join('feeds', 'feeds.id', 'query_log.feed_id')
      .leftJoin('providers', 'providers.id', 'feeds.provider_id')
      .orderBy('query_log.id', 'desc')
      .limit(limit)
      .select('query_log.*', this.db.raw(FEED_NAME))
    const [totals, rows] = await Promise.all([
      this.db
        .from('agent_stats')
        .select(
          this.db.raw('count(*) AS agents'),
          this.db.raw('coalesce(sum(total_spent_microstx), 0) AS spent')
        )
        .first(),
      calls,
    ])
    const now = this.clock.now()
    return {
      total_revenue_stx: stxNumber(parseMicrostx(totals?.spent ?? '0')),
      unique_agents: Number(totals?.agents ?? 0),
      activity: rows.map((row) => ({
        id: Number(row.id),
        feed: row.feed_name as string,
        agent_name: (row.agent_name as string | null) ?? shortAddress(row.payer),
        agent_short: shortAddress(row.payer),
        price_stx: stxNumber(parseMicrostx(row.price_microstx)),
        response_ms: row.response_ms as number,
        // A call paid from credit has no transaction of its own (docs/credit.md).
        is_onchain: row.txid !== null,
        tx_hash: row.txid === null ? null : `0x${row.txid}`,
        time_ago: timeAgo(new Date(row.created_at).getTime(), now),
      })),
    }
  }

  /** The feeds /stats counts, with their rollups. */
  #activeFeeds() {
    return this.db
      .from('feeds')
      .leftJoin('feed_stats', 'feed_stats.feed_id', 'feeds.id')
      .where('feeds.status', 'active')
  }

  /** The feeds (a deleted one's slug may have been reused) a feed name has named. */
  #feedIdsNamed(name: string) {
    const [handle, slug] = name.includes('/') ? name.split('/', 2) : [null, name]
    const ids = this.db.from('feeds').where('feeds.slug', slug).select('feeds.id')
    if (handle === null) return ids.whereNull('feeds.provider_id')
    return ids
      .join('providers', 'providers.id', 'feeds.provider_id')
      .where('providers.handle', handle)
  }

  async leaderboard() {
    const rows = await this.db
      .from('agent_stats')
      .orderBy([
        { column: 'total_spent_microstx', order: 'desc' },
        { column: 'total_queries', order: 'desc' },
        { column: 'payer', order: 'asc' },
      ])
      .limit(LEADERBOARD_SIZE)
    return {
      agents: rows.map((row, index) => ({
        rank: index + 1,
        agent_name: (row.agent_name as string | null) ?? shortAddress(row.payer),
        address_short: shortAddress(row.payer),
        total_queries: Number(row.total_queries),
        total_spent_stx: stxNumber(parseMicrostx(row.total_spent_microstx)),
      })),
    }
  }
}

function round4(value: number) {
  return Math.round(value * 10_000) / 10_000
}
