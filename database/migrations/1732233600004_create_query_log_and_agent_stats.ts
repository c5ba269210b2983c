import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The query log (one row per paid call) and the per-agent rollup the
 * leaderboard reads. Public statistics read rollups and the newest log rows
 * only, so their cost does not grow with the log.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      CREATE TABLE query_log (
        id bigserial PRIMARY KEY,
        feed_id uuid NOT NULL REFERENCES feeds(id),
        txid text NOT NULL UNIQUE,
        payer text NOT NULL,
        agent_name text NULL,
        price_microstx bigint NOT NULL CHECK (price_microstx > 0),
        response_ms integer NOT NULL CHECK (response_ms >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )
    `)
    this.schema.raw(`
      CREATE TABLE agent_stats (
        payer text PRIMARY KEY,
        agent_name text NULL,
        total_queries bigint NOT NULL DEFAULT 0,
        total_spent_microstx bigint NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      )
    `)
    this.schema.raw(
      `CREATE INDEX agent_stats_ranking ON agent_stats (total_spent_microstx DESC, total_queries DESC, payer)`
    )
  }

  async down() {
    this.schema.dropTable('agent_stats')
    this.schema.dropTable('query_log')
  }
}
