import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Money out. A withdrawal is inserted `pending` in the transaction that
 * debits the provider's pending revenue; it gets a platform-wallet nonce and
 * its signed bytes when the nonce pipeline dispatches it (at most 25 chained
 * transactions in flight), and the bytes, txid and nonce are committed before
 * the broadcast. `withdrawal_events` keeps every transition.
 *
 * - The idempotency key is unique per provider and looked up before any
 *   balance change.
 * - No two live or confirmed withdrawals share a platform nonce; a failed
 *   one's nonce goes back to `platform_nonces.released`, reused first.
 * - `providers.withdrawal_wallet_held_until`: withdrawals to a newly changed
 *   withdrawal wallet wait until then.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(
      `ALTER TABLE providers ADD COLUMN withdrawal_wallet_held_until timestamptz NULL`
    )
    this.schema.raw(`
      CREATE TABLE withdrawals (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        provider_id uuid NOT NULL REFERENCES providers (id),
        idempotency_key uuid NOT NULL,
        amount_microstx bigint NOT NULL CHECK (amount_microstx > 0),
        destination_address text NOT NULL,
        memo text NOT NULL,
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'broadcast', 'confirmed', 'failed')),
        sender_address text NULL,
        nonce bigint NULL CHECK (nonce >= 0),
        fee_microstx bigint NULL CHECK (fee_microstx >= 0),
        txid text NULL CHECK (txid ~ '^[0-9a-f]{64}$'),
        raw_tx bytea NULL,
        block_height bigint NULL,
        failure_reason text NULL,
        broadcast_attempts integer NOT NULL DEFAULT 0,
        last_broadcast_at timestamptz NULL,
        dropped_since timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (provider_id, idempotency_key),
        CHECK ((nonce IS NULL) = (txid IS NULL) AND (txid IS NULL) = (raw_tx IS NULL))
      )
    `)
    this.schema.raw(`
      CREATE UNIQUE INDEX withdrawals_one_per_nonce ON withdrawals (sender_address, nonce)
        WHERE nonce IS NOT NULL AND status <> 'failed'
    `)
    this.schema.raw(
      `CREATE UNIQUE INDEX withdrawals_txid ON withdrawals (txid) WHERE txid IS NOT NULL`
    )
    this.schema.raw(
      `CREATE INDEX withdrawals_of_provider ON withdrawals (provider_id, created_at DESC)`
    )
    this.schema.raw(`
      CREATE INDEX withdrawals_unsettled ON withdrawals (created_at)
        WHERE status IN ('pending', 'broadcast')
    `)
    this.schema.raw(`
      CREATE TABLE withdrawal_events (
        id bigserial PRIMARY KEY,
        withdrawal_id uuid NOT NULL REFERENCES withdrawals (id),
        from_status text NULL,
        to_status text NOT NULL,
        detail text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now()
      )
    `)
    this.schema.raw(`CREATE INDEX withdrawal_events_of ON withdrawal_events (withdrawal_id, id)`)
    this.schema.raw(`
      CREATE TABLE platform_nonces (
        address text PRIMARY KEY,
        next_nonce bigint NOT NULL CHECK (next_nonce >= 0),
        released bigint[] NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL DEFAULT now()
      )
    `)
  }

  async down() {
    this.schema.raw(`DROP TABLE platform_nonces`)
    this.schema.raw(`DROP TABLE withdrawal_events`)
    this.schema.raw(`DROP TABLE withdrawals`)
    this.schema.raw(`ALTER TABLE providers DROP COLUMN withdrawal_wallet_held_until`)
  }
}
