import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The statistics rollups of a paid call (feed_stats, the daily and hourly
 * analytics, the daily buyer sets, agent_stats) are added by the database
 * when the call's transaction commits, from its query-log row, instead of by
 * a statement in the middle of that transaction. A feed's rollup rows are
 * the same few rows for every buyer of the feed: written mid-transaction,
 * each paid call held their locks across its remaining round trips and every
 * concurrent call of the feed queued behind it (docs/performance.md#hot-rows).
 * At commit they are locked only while the commit runs.
 *
 * The provider's share is recorded on the row, as the app split the price
 * (app/ledger/split.ts); rows logged before this migration were rolled up when
 * they were written and do not carry it (the check is NOT VALID for them).
 * Hours are UTC hours whatever the session's time zone; days UTC days.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      ALTER TABLE query_log ADD COLUMN provider_share_microstx bigint NULL;
      ALTER TABLE query_log ADD CONSTRAINT query_log_provider_share_recorded
        CHECK (provider_share_microstx IS NOT NULL
               AND provider_share_microstx BETWEEN 0 AND price_microstx) NOT VALID;
    `)
    this.schema.raw(`
      CREATE FUNCTION query_log_roll_up() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        call_day date := (NEW.created_at AT TIME ZONE 'UTC')::date;
        call_hour timestamptz := to_timestamp(floor(extract(epoch FROM NEW.created_at) / 3600) * 3600);
      BEGIN
        INSERT INTO feed_stats (feed_id, total_queries, total_response_ms)
        VALUES (NEW.feed_id, 1, NEW.response_ms)
        ON CONFLICT (feed_id) DO UPDATE SET
          total_queries = feed_stats.total_queries + 1,
          total_response_ms = feed_stats.total_response_ms + EXCLUDED.total_response_ms;

        INSERT INTO feed_daily_stats
          (feed_id, day, queries, gross_microstx, provider_share_microstx, total_response_ms)
        VALUES (NEW.feed_id, call_day, 1, NEW.price_microstx, NEW.provider_share_microstx, NEW.response_ms)
        ON CONFLICT (feed_id, day) DO UPDATE SET
          queries = feed_daily_stats.queries + 1,
          gross_microstx = feed_daily_stats.gross_microstx + EXCLUDED.gross_microstx,
          provider_share_microstx =
            feed_daily_stats.provider_share_microstx + EXCLUDED.provider_share_microstx,
          total_response_ms = feed_daily_stats.total_response_ms + EXCLUDED.total_response_ms;

        INSERT INTO feed_hourly_stats (feed_id, hour, queries, provider_share_microstx)
        VALUES (NEW.feed_id, call_hour, 1, NEW.provider_share_microstx)
        ON CONFLICT (feed_id, hour) DO UPDATE SET
          queries = feed_hourly_stats.queries + 1,
          provider_share_microstx =
            feed_hourly_stats.provider_share_microstx + EXCLUDED.provider_share_microstx;

        INSERT INTO feed_daily_buyers (feed_id, day, payer) VALUES (NEW.feed_id, call_day, NEW.payer)
        ON CONFLICT DO NOTHING;

        -- The last valid agent name wins.
        INSERT INTO agent_stats (payer, agent_name, total_queries, total_spent_microstx, updated_at)
        VALUES (NEW.payer, NEW.agent_name, 1, NEW.price_microstx, NEW.created_at)
        ON CONFLICT (payer) DO UPDATE SET
          agent_name = COALESCE(EXCLUDED.agent_name, agent_stats.agent_name),
          total_queries = agent_stats.total_queries + 1,
          total_spent_microstx = agent_stats.total_spent_microstx + EXCLUDED.total_spent_microstx,
          updated_at = EXCLUDED.updated_at;
        RETURN NULL;
      END
      $$
    `)
    this.schema.raw(`
      CREATE CONSTRAINT TRIGGER query_log_roll_up
        AFTER INSERT ON query_log
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION query_log_roll_up()
    `)
  }

  async down() {
    this.schema.raw(`
      DROP TRIGGER query_log_roll_up ON query_log;
      DROP FUNCTION query_log_roll_up();
      ALTER TABLE query_log DROP COLUMN provider_share_microstx;
    `)
  }
}
