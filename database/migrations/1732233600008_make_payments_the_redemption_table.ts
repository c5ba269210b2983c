import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * `payments` becomes the one redemption table of every transfer this service
 * broadcasts: paid feed calls and `/facilitator/settle` alike (`purpose`), so
 * one transfer is never redeemed twice across the two (docs/architecture.md#the-paid-call).
 *
 * - `nonce` and `fee_microstx`: the payer's payments in flight decide which
 *   nonces and how much balance a new payment may use before anything is fetched.
 * - `broadcast_at`: when this service handed the transaction to the node; a
 *   credited payment without it was not broadcast by us (ledger:audit). Rows
 *   from before this migration get none: the code that wrote them redeemed
 *   transfers it had not broadcast, so the audit lists them for a check
 *   against the chain rather than vouching for them.
 * - `response` keeps the exact bytes served, so a replay is byte-identical
 *   (jsonb would reorder keys).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      ALTER TABLE payments
        ADD COLUMN purpose text NOT NULL DEFAULT 'feed' CHECK (purpose IN ('feed', 'facilitator')),
        ADD COLUMN nonce bigint NULL CHECK (nonce >= 0),
        ADD COLUMN fee_microstx bigint NULL CHECK (fee_microstx >= 0),
        ADD COLUMN broadcast_at timestamptz NULL,
        ALTER COLUMN feed_id DROP NOT NULL,
        ALTER COLUMN response TYPE text USING response::text,
        ADD CONSTRAINT payments_feed_matches_purpose CHECK ((purpose = 'feed') = (feed_id IS NOT NULL))
    `)
  }

  async down() {
    this.schema.raw(`DELETE FROM payments WHERE purpose = 'facilitator'`)
    this.schema.raw(`
      ALTER TABLE payments
        DROP CONSTRAINT payments_feed_matches_purpose,
        DROP COLUMN purpose,
        DROP COLUMN nonce,
        DROP COLUMN fee_microstx,
        DROP COLUMN broadcast_at,
        ALTER COLUMN feed_id SET NOT NULL,
        ALTER COLUMN response TYPE jsonb USING response::jsonb
    `)
  }
}
