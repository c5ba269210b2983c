import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Providers sell their own feeds. Revenue columns are caches of their ledger
 * accounts, updated in the posting's transaction and checked by ledger:audit.
 * A provider's feeds are never hard-deleted (payments and the query log point
 * at them): deleting one sets deleted_at and frees its slug.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      CREATE TABLE providers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        handle text NOT NULL UNIQUE CHECK (handle ~ '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$'),
        display_name text NOT NULL,
        description text NOT NULL DEFAULT '',
        website text NULL,
        x_account text NULL,
        integration_mode text NOT NULL CHECK (integration_mode IN ('partner_bridge', 'hosted_mirror')),
        partner_endpoint text NULL,
        owner_wallet text NOT NULL,
        custodial_address text NOT NULL,
        custodial_key_encrypted text NOT NULL,
        hmac_key_encrypted text NULL,
        hmac_secret_issued_at timestamptz NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active')),
        pending_revenue_microstx bigint NOT NULL DEFAULT 0 CHECK (pending_revenue_microstx >= 0),
        lifetime_earned_microstx bigint NOT NULL DEFAULT 0,
        total_withdrawn_microstx bigint NOT NULL DEFAULT 0,
        linked_withdrawal_wallet text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (integration_mode <> 'partner_bridge'
               OR (partner_endpoint IS NOT NULL AND hmac_key_encrypted IS NOT NULL))
      )
    `)
    this.schema.raw(`CREATE INDEX providers_owner_wallet ON providers (owner_wallet)`)
    this.schema.raw(`
      ALTER TABLE feeds
        ADD COLUMN deleted_at timestamptz NULL,
        ADD CONSTRAINT feeds_provider_id_fkey FOREIGN KEY (provider_id) REFERENCES providers (id),
        DROP CONSTRAINT feeds_provider_id_slug_key
    `)
    this.schema.raw(`
      CREATE UNIQUE INDEX feeds_live_slug ON feeds (provider_id, slug) NULLS NOT DISTINCT
        WHERE deleted_at IS NULL
    `)
  }

  async down() {
    this.schema.raw(`DROP INDEX feeds_live_slug`)
    this.schema.raw(`
      ALTER TABLE feeds
        DROP CONSTRAINT feeds_provider_id_fkey,
        DROP COLUMN deleted_at,
        ADD CONSTRAINT feeds_provider_id_slug_key UNIQUE NULLS NOT DISTINCT (provider_id, slug)
    `)
    this.schema.raw(`DROP TABLE providers`)
  }
}
