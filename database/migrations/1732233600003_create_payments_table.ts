import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * One row per signed transaction ever presented as a payment. The txid is
 * the primary key: a transaction buys one response, however many requests
 * carry it. A claim is committed before any network I/O (docs/architecture.md#the-paid-call,
 * step 3).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      CREATE TABLE payments (
        txid text PRIMARY KEY CHECK (txid ~ '^[0-9a-f]{64}$'),
        feed_id uuid NOT NULL REFERENCES feeds(id),
        resource text NOT NULL,
        payer text NOT NULL,
        amount_microstx bigint NOT NULL CHECK (amount_microstx > 0),
        network text NOT NULL,
        raw_tx bytea NOT NULL,
        status text NOT NULL CHECK (status IN ('claimed', 'broadcast', 'confirmed', 'failed', 'abandoned')),
        payment_identifier text NULL,
        agent_name text NULL,
        response jsonb NULL,
        failure_reason text NULL,
        block_height bigint NULL,
        claimed_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )
    `)
    this.schema.raw(
      `CREATE INDEX payments_in_flight_by_payer ON payments (payer) WHERE status IN ('claimed', 'broadcast')`
    )
    this.schema.raw(
      `CREATE INDEX payments_unsettled ON payments (claimed_at) WHERE status IN ('claimed', 'broadcast')`
    )
  }

  async down() {
    this.schema.dropTable('payments')
  }
}
