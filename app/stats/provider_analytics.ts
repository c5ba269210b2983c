import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { Clock } from '#core/clock'
import { type Microstx, parseMicrostx } from '#ledger/money'
import type Feed from '#models/feed'
import type Provider from '#models/provider'
import type { AnalyticsView, Figures } from '#stats/analytics_api'
import { utcDaysEndingAt, utcHourStart, utcHoursStart } from '#stats/utc_periods'

/** The analytics window: today (UTC) and the 6 days before it. */
const ANALYTICS_DAYS = 7
/** "24h": the current UTC hour and the 23 before it. */
const LAST_24H_HOURS = 24

/** The feed ids are bound as one comma-separated string: knex would expand an array binding. */
const OF_FEEDS = `feed_id = ANY (string_to_array(?, ',')::uuid[])`

/** GROUPING(feed_id, day): a bit is set for each column the row is not grouped by. */
const GROUPED_BY_FEED = 1
const GROUPED_BY_DAY = 2

interface Counters {
  queries: number
  gross: Microstx
  revenue: Microstx
  responseMs: number
  sourceCalls: number
  sourceFailures: number
}

interface DailyRow {
  feed_id: string
  day: string
  queries: string
  gross_microstx: string
  provider_share_microstx: string
  total_response_ms: string
  source_calls: string
  source_failures: string
}

interface BuyersRow {
  feed_id: string | null
  day: string | null
  grouping: number
  buyers: string
}

/**
 * GET /providers/id/:id/analytics. Reads only the rollups maintained on
 * write — per feed and UTC day (feed_daily_stats), per feed and UTC hour
 * (feed_hourly_stats), distinct payers per feed and UTC day
 * (feed_daily_buyers) — bounded by the provider's feeds and the window, so
 * the cost grows with feeds, days and buyers, never with the query log.
 * Revenue is the provider's 97 % share; `gross_microstx` is what buyers paid.
 */
@inject()
export class ProviderAnalytics {
  constructor(
    private db: Database,
    private clock: Clock
  ) {}

  async of(provider: Provider): Promise<AnalyticsView> {
    const now = this.clock.now()
    const days = utcDaysEndingAt(now, ANALYTICS_DAYS)
    const window = { from: days[0], to: days[days.length - 1] }
    const hours = { from: utcHoursStart(now, LAST_24H_HOURS), to: utcHourStart(now) }

    const feeds = await this.db
      .from('feeds')
      .where('provider_id', provider.id)
      .orderBy('created_at')
      .orderBy('slug')
      .select('id', 'slug', 'status', 'deleted_at')
    const feedIds = feeds.map((feed) => feed.id as string)
    const daily = await this.#daily(feedIds, window)
    const last24h = await this.#last24h(feedIds, hours)
    const buyers = await this.#buyers(feedIds, window)

    const total = zero()
    const perFeed = new Map<string, Counters>()
    const perDay = new Map(days.map((day) => [day, zero()]))
    for (const row of daily) {
      add(total, row)
      add(getOrZero(perFeed, row.feed_id), row)
      add(perDay.get(row.day)!, row)
    }
    const buyersOfFeed = new Map<string, number>()
    const buyersOfDay = new Map<string, number>()
    let uniqueBuyers = 0
    for (const row of buyers) {
      if (row.grouping === GROUPED_BY_FEED) buyersOfFeed.set(row.feed_id!, Number(row.buyers))
      else if (row.grouping === GROUPED_BY_DAY) buyersOfDay.set(row.day!, Number(row.buyers))
      else uniqueBuyers = Number(row.buyers)
    }

    const overall = summary(total, uniqueBuyers)
    return {
      as_of: new Date(now).toISOString(),
      last_24h_since: hours.from.toISOString(),
      last_7d_since: `${window.from}T00:00:00.000Z`,
      queries_24h: last24h.queries,
      queries_7d: overall.queries,
      revenue_24h_microstx: Number(last24h.revenue),
      revenue_7d_microstx: overall.revenue_microstx,
      unique_buyers_7d: uniqueBuyers,
      avg_response_ms: overall.avg_response_ms,
      error_rate: overall.error_rate,
      pending_revenue: Number(provider.pendingRevenueMicrostx),
      lifetime_earned: Number(provider.lifetimeEarnedMicrostx),
      total_withdrawn: Number(provider.totalWithdrawnMicrostx),
      // A deleted feed stays listed while it has activity in the window: its revenue is in the totals.
      feed_breakdown: feeds
        .filter((feed) => feed.deleted_at === null || perFeed.has(feed.id))
        .map((feed) => ({
          slug: feed.slug as string,
          status: feed.deleted_at === null ? (feed.status as Feed['status']) : 'deleted',
          ...summary(perFeed.get(feed.id) ?? zero(), buyersOfFeed.get(feed.id) ?? 0),
        })),
      day_breakdown: days.map((day) => ({
        day,
        ...summary(perDay.get(day)!, buyersOfDay.get(day) ?? 0),
      })),
    }
  }

  async #daily(feedIds: string[], window: { from: string; to: string }): Promise<DailyRow[]> {
    const result = await this.db.rawQuery(
      `SELECT feed_id, day::text AS day, queries, gross_microstx, provider_share_microstx,
              total_response_ms, source_calls, source_failures
         FROM feed_daily_stats
        WHERE ${OF_FEEDS} AND day BETWEEN ? AND ?`,
      [feedIds.join(','), window.from, window.to]
    )
    return result.rows
  }

  async #last24h(feedIds: string[], hours: { from: Date; to: Date }) {
    const result = await this.db.rawQuery(
      `SELECT coalesce(sum(queries), 0) AS queries,
              coalesce(sum(provider_share_microstx), 0) AS revenue
         FROM feed_hourly_stats
        WHERE ${OF_FEEDS} AND hour BETWEEN ? AND ?`,
      [feedIds.join(','), hours.from, hours.to]
    )
    const row = result.rows[0]
    return { queries: Number(row.queries), revenue: parseMicrostx(row.revenue) }
  }

  /**
   * Distinct payers per feed, per day and over the window, in one pass over
   * the buyer sets. Addresses are ASCII: compared bytewise ("C"), the same
   * sets are counted about 7 times faster than under the database's
   * linguistic collation.
   */
  async #buyers(feedIds: string[], window: { from: string; to: string }): Promise<BuyersRow[]> {
    const result = await this.db.rawQuery(
      `SELECT feed_id, day::text AS day, GROUPING(feed_id, day) AS grouping,
              count(DISTINCT payer COLLATE "C") AS buyers
         FROM feed_daily_buyers
        WHERE ${OF_FEEDS} AND day BETWEEN ? AND ?
        GROUP BY GROUPING SETS ((feed_id), (day), ())`,
      [feedIds.join(','), window.from, window.to]
    )
    return result.rows
  }
}

function zero(): Counters {
  return { queries: 0, gross: 0n, revenue: 0n, responseMs: 0, sourceCalls: 0, sourceFailures: 0 }
}

function getOrZero(map: Map<string, Counters>, key: string) {
  let counters = map.get(key)
  if (!counters) map.set(key, (counters = zero()))
  return counters
}

function add(counters: Counters, row: DailyRow) {
  counters.queries += Number(row.queries)
  counters.gross += parseMicrostx(row.gross_microstx)
  counters.revenue += parseMicrostx(row.provider_share_microstx)
  counters.responseMs += Number(row.total_response_ms)
  counters.sourceCalls += Number(row.source_calls)
  counters.sourceFailures += Number(row.source_failures)
}

/** Averages and rates over paid calls and source calls: 0 when there were none. */
function summary(counters: Counters, uniqueBuyers: number): Figures {
  const { queries, sourceCalls, sourceFailures } = counters
  return {
    queries,
    revenue_microstx: Number(counters.revenue),
    gross_microstx: Number(counters.gross),
    unique_buyers: uniqueBuyers,
    avg_response_ms: queries === 0 ? 0 : Math.round(counters.responseMs / queries),
    errors: sourceFailures,
    error_rate:
      sourceCalls === 0 ? 0 : Math.round((sourceFailures / sourceCalls) * 10_000) / 10_000,
  }
}
