import { BaseSchema } from '@adonisjs/lucid/schema'
import { PLATFORM_FEE_PERCENT } from '#ledger/split'

/** The provider's share of a query-log row's price, as splitPayment computes it (0 for built-in feeds). */
const PROVIDER_SHARE = `CASE WHEN f.provider_id IS NULL THEN 0
  ELSE q.price_microstx - q.price_microstx * ${PLATFORM_FEE_PERCENT} / 100 END`

/**
 * The rollups provider analytics read, maintained on write (the paid call's
 * confirming transaction, each real source call), keyed by the app clock's
 * UTC day or hour:
 *
 * - `feed_daily_stats`: per feed and UTC day — paid calls, gross µSTX, the
 *   provider's share, summed response time, source calls and failures;
 * - `feed_hourly_stats`: per feed and UTC hour — paid calls and the
 *   provider's share, for the last-24-hours figures;
 * - `feed_daily_buyers`: the distinct payers per feed and UTC day, so unique
 *   buyers over days cost rows per buyer and day, not per paid call.
 *
 * Paid calls already in the query log are rolled up once here, by their
 * `created_at`; source calls before this migration were not dated, so they
 * stay out of the daily error counts.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      CREATE TABLE feed_daily_stats (
        feed_id uuid NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
        day date NOT NULL,
        queries bigint NOT NULL DEFAULT 0,
        gross_microstx bigint NOT NULL DEFAULT 0,
        provider_share_microstx bigint NOT NULL DEFAULT 0,
        total_response_ms bigint NOT NULL DEFAULT 0,
        source_calls bigint NOT NULL DEFAULT 0,
        source_failures bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (feed_id, day)
      )
    `)
    this.schema.raw(`
      CREATE TABLE feed_hourly_stats (
        feed_id uuid NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
        hour timestamptz NOT NULL CHECK (extract(epoch FROM hour)::bigint % 3600 = 0),
        queries bigint NOT NULL DEFAULT 0,
        provider_share_microstx bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (feed_id, hour)
      )
    `)
    this.schema.raw(`
      CREATE TABLE feed_daily_buyers (
        feed_id uuid NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
        day date NOT NULL,
        payer text NOT NULL,
        PRIMARY KEY (feed_id, day, payer)
      )
    `)
    this.schema.raw(`
      INSERT INTO feed_daily_stats
        (feed_id, day, queries, gross_microstx, provider_share_microstx, total_response_ms)
      SELECT q.feed_id, (q.created_at AT TIME ZONE 'UTC')::date, count(*), sum(q.price_microstx),
             sum(${PROVIDER_SHARE}), sum(q.response_ms)
        FROM query_log q JOIN feeds f ON f.id = q.feed_id
       GROUP BY 1, 2
    `)
    this.schema.raw(`
      INSERT INTO feed_hourly_stats (feed_id, hour, queries, provider_share_microstx)
      SELECT q.feed_id, date_trunc('hour', q.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
             count(*), sum(${PROVIDER_SHARE})
        FROM query_log q JOIN feeds f ON f.id = q.feed_id
       GROUP BY 1, 2
    `)
    this.schema.raw(`
      INSERT INTO feed_daily_buyers (feed_id, day, payer)
      SELECT DISTINCT feed_id, (created_at AT TIME ZONE 'UTC')::date, payer FROM query_log
    `)
  }

  async down() {
    this.schema.raw(`DROP TABLE feed_daily_buyers`)
    this.schema.raw(`DROP TABLE feed_hourly_stats`)
    this.schema.raw(`DROP TABLE feed_daily_stats`)
  }
}
