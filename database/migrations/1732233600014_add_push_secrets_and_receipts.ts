import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Hosted Mirror's inbound sources. A webhook_push feed keeps its own push
 * secret's key (K of `tbp_…`, encrypted with APP_KEY, like the Partner
 * Bridge key and independent of it); push_receipts remembers each accepted
 * push id until its timestamp leaves the window, so a replay is refused on
 * every app instance. Feeds that receive documents instead of polling have
 * a source state without a next poll.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      ALTER TABLE feeds
        ADD COLUMN push_key_encrypted text NULL,
        ADD COLUMN push_secret_issued_at timestamptz NULL
    `)
    this.schema.raw(`ALTER TABLE feed_source_states ALTER COLUMN next_poll_at DROP NOT NULL`)
    this.schema.raw(`
      CREATE TABLE push_receipts (
        feed_id uuid NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
        push_id text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (feed_id, push_id)
      )
    `)
  }

  async down() {
    this.schema.raw(`DROP TABLE push_receipts`)
    this.schema.raw(`DELETE FROM feed_source_states WHERE next_poll_at IS NULL`)
    this.schema.raw(`ALTER TABLE feed_source_states ALTER COLUMN next_poll_at SET NOT NULL`)
    this.schema.raw(
      `ALTER TABLE feeds DROP COLUMN push_secret_issued_at, DROP COLUMN push_key_encrypted`
    )
  }
}
