import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Hosted Mirror snapshots: every app instance serves a mirrored feed from
 * here (the current snapshot is the highest version; the last N are kept),
 * and per feed the polling state: when it is due, the last success, the last
 * error in words and the consecutive failures the back-off counts.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      CREATE TABLE feed_snapshots (
        feed_id uuid NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
        version integer NOT NULL,
        data jsonb NOT NULL,
        content_hash text NOT NULL,
        size_bytes integer NOT NULL,
        last_updated bigint NOT NULL,
        fetched_at timestamptz NOT NULL,
        etag text NULL,
        last_modified text NULL,
        PRIMARY KEY (feed_id, version)
      )
    `)
    this.schema.raw(`
      CREATE TABLE feed_source_states (
        feed_id uuid PRIMARY KEY REFERENCES feeds (id) ON DELETE CASCADE,
        next_poll_at timestamptz NOT NULL,
        last_polled_at timestamptz NULL,
        last_success_at timestamptz NULL,
        last_error text NULL,
        last_error_kind text NULL,
        failures integer NOT NULL DEFAULT 0
      )
    `)
    this.schema.raw(`CREATE INDEX feed_source_states_due ON feed_source_states (next_poll_at)`)
  }

  async down() {
    this.schema.raw(`DROP TABLE feed_source_states`)
    this.schema.raw(`DROP TABLE feed_snapshots`)
  }
}
