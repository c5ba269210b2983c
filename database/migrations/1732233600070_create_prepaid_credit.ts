import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Prepaid credit (docs/credit.md): a wallet's balance is a ledger account the
 * platform owes it (`credit:<address>`, never negative), filled by top-ups —
 * ordinary x402 payments in the one redemption table (`purpose`
 * `credit_top_up`) — spent by credit calls with a short-lived token whose
 * signed limits the database enforces, and paid back by refunds, which are
 * withdrawals of that account to the same address.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      ALTER TABLE payments DROP CONSTRAINT payments_purpose_check;
      ALTER TABLE payments ADD CONSTRAINT payments_purpose_check
        CHECK (purpose IN ('feed', 'facilitator', 'credit_top_up'));
    `)

    this.schema.raw(`
      ALTER TABLE ledger_accounts
        ADD COLUMN wallet_address text NULL,
        DROP CONSTRAINT ledger_accounts_kind_check,
        DROP CONSTRAINT ledger_accounts_name_of_kind,
        DROP CONSTRAINT ledger_accounts_limit_of_kind;
      ALTER TABLE ledger_accounts
        ADD CONSTRAINT ledger_accounts_kind_check CHECK (kind IN ('platform_wallet', 'platform_fees',
          'platform_revenue', 'payouts_in_flight', 'network_fees', 'provider_pending', 'buyer_credit')),
        ADD CONSTRAINT ledger_accounts_name_of_kind CHECK (name = CASE kind
          WHEN 'platform_wallet' THEN 'platform:wallet'
          WHEN 'platform_fees' THEN 'platform:fees'
          WHEN 'platform_revenue' THEN 'platform:revenue'
          WHEN 'payouts_in_flight' THEN 'platform:payouts_in_flight'
          WHEN 'network_fees' THEN 'platform:network_fees'
          WHEN 'provider_pending' THEN 'provider:' || provider_id || ':pending'
          WHEN 'buyer_credit' THEN 'credit:' || wallet_address
        END),
        ADD CONSTRAINT ledger_accounts_wallet_of_kind
          CHECK ((kind = 'buyer_credit') = (wallet_address IS NOT NULL)),
        ADD CONSTRAINT ledger_accounts_limit_of_kind
          CHECK (may_go_negative = (kind NOT IN ('provider_pending', 'payouts_in_flight', 'buyer_credit')));
    `)
    this.schema.raw(`
      CREATE OR REPLACE FUNCTION ledger_accounts_refuse_change() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE'
           OR (NEW.name, NEW.kind, NEW.provider_id, NEW.wallet_address, NEW.may_go_negative)
              IS DISTINCT FROM (OLD.name, OLD.kind, OLD.provider_id, OLD.wallet_address, OLD.may_go_negative) THEN
          RAISE EXCEPTION 'ledger account % cannot be changed or deleted', OLD.name
            USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN NEW;
      END
      $$
    `)

    // A credit token: the hash of a bearer secret bound to one wallet, with the
    // limits that wallet signed; what it spent can never pass its cap.
    this.schema.raw(`
      CREATE TABLE credit_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash text NOT NULL UNIQUE,
        address text NOT NULL,
        spend_cap_microstx bigint NOT NULL CHECK (spend_cap_microstx > 0),
        max_price_microstx bigint NOT NULL CHECK (max_price_microstx > 0),
        spent_microstx bigint NOT NULL DEFAULT 0,
        sign_in_nonce text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT credit_tokens_within_cap
          CHECK (spent_microstx >= 0 AND spent_microstx <= spend_cap_microstx),
        CONSTRAINT credit_tokens_price_within_cap CHECK (max_price_microstx <= spend_cap_microstx)
      )
    `)
    this.schema.raw(`CREATE INDEX credit_tokens_by_address ON credit_tokens (address, expires_at)`)

    // A call paid from credit: the bytes served (a retry with the same
    // payment-identifier gets them again) and what it cost.
    this.schema.raw(`
      CREATE TABLE credit_calls (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_id uuid NOT NULL REFERENCES credit_tokens (id),
        payer text NOT NULL,
        feed_id uuid NOT NULL REFERENCES feeds (id),
        resource text NOT NULL,
        payment_identifier text NULL,
        price_microstx bigint NOT NULL CHECK (price_microstx > 0),
        response text NOT NULL,
        response_ms integer NOT NULL CHECK (response_ms >= 0),
        created_at timestamptz NOT NULL,
        UNIQUE (payer, payment_identifier)
      )
    `)
    this.schema.raw(`CREATE INDEX credit_calls_by_payer ON credit_calls (payer, created_at DESC)`)

    // The query log keeps every paid call: on chain (txid) or from credit (its call).
    this.schema.raw(`
      ALTER TABLE query_log
        ALTER COLUMN txid DROP NOT NULL,
        ADD COLUMN credit_call_id uuid NULL UNIQUE REFERENCES credit_calls (id),
        ADD CONSTRAINT query_log_paid_one_way CHECK ((txid IS NULL) <> (credit_call_id IS NULL))
    `)

    // A refund is a withdrawal of a wallet's credit back to that wallet.
    this.schema.raw(`
      ALTER TABLE withdrawals
        ALTER COLUMN provider_id DROP NOT NULL,
        ADD COLUMN credit_address text NULL,
        ADD CONSTRAINT withdrawals_of_provider_or_credit
          CHECK ((provider_id IS NULL) <> (credit_address IS NULL)),
        ADD CONSTRAINT withdrawals_refund_to_its_wallet
          CHECK (credit_address IS NULL OR destination_address = credit_address)
    `)
    this.schema.raw(`
      CREATE UNIQUE INDEX withdrawals_refund_idempotency ON withdrawals (credit_address, idempotency_key)
        WHERE credit_address IS NOT NULL
    `)
  }

  async down() {
    // Credit accounts and their entries only exist with credit: refuse to drop them silently.
    this.schema.raw(`
      DO $$
      BEGIN
        IF EXISTS (SELECT 1 FROM ledger_accounts WHERE kind = 'buyer_credit') THEN
          RAISE EXCEPTION 'the ledger holds credit accounts: roll back by restoring a backup';
        END IF;
      END
      $$
    `)
    this.schema.raw(`
      DROP INDEX withdrawals_refund_idempotency;
      DELETE FROM withdrawals WHERE credit_address IS NOT NULL;
      ALTER TABLE withdrawals
        DROP CONSTRAINT withdrawals_refund_to_its_wallet,
        DROP CONSTRAINT withdrawals_of_provider_or_credit,
        DROP COLUMN credit_address,
        ALTER COLUMN provider_id SET NOT NULL;
      DELETE FROM query_log WHERE txid IS NULL;
      ALTER TABLE query_log
        DROP CONSTRAINT query_log_paid_one_way,
        DROP COLUMN credit_call_id,
        ALTER COLUMN txid SET NOT NULL;
      DROP TABLE credit_calls;
      DROP TABLE credit_tokens;
    `)
    this.schema.raw(`
      ALTER TABLE ledger_accounts
        DROP CONSTRAINT ledger_accounts_limit_of_kind,
        DROP CONSTRAINT ledger_accounts_wallet_of_kind,
        DROP CONSTRAINT ledger_accounts_name_of_kind,
        DROP CONSTRAINT ledger_accounts_kind_check,
        DROP COLUMN wallet_address;
      ALTER TABLE ledger_accounts
        ADD CONSTRAINT ledger_accounts_kind_check CHECK (kind IN ('platform_wallet', 'platform_fees',
          'platform_revenue', 'payouts_in_flight', 'network_fees', 'provider_pending')),
        ADD CONSTRAINT ledger_accounts_name_of_kind CHECK (name = CASE kind
          WHEN 'platform_wallet' THEN 'platform:wallet'
          WHEN 'platform_fees' THEN 'platform:fees'
          WHEN 'platform_revenue' THEN 'platform:revenue'
          WHEN 'payouts_in_flight' THEN 'platform:payouts_in_flight'
          WHEN 'network_fees' THEN 'platform:network_fees'
          WHEN 'provider_pending' THEN 'provider:' || provider_id || ':pending'
        END),
        ADD CONSTRAINT ledger_accounts_limit_of_kind
          CHECK (may_go_negative = (kind NOT IN ('provider_pending', 'payouts_in_flight')));
      ALTER TABLE payments DROP CONSTRAINT payments_purpose_check;
      ALTER TABLE payments ADD CONSTRAINT payments_purpose_check
        CHECK (purpose IN ('feed', 'facilitator'));
    `)
    this.schema.raw(`
      CREATE OR REPLACE FUNCTION ledger_accounts_refuse_change() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' OR (NEW.name, NEW.kind, NEW.provider_id, NEW.may_go_negative)
             IS DISTINCT FROM (OLD.name, OLD.kind, OLD.provider_id, OLD.may_go_negative) THEN
          RAISE EXCEPTION 'ledger account % cannot be changed or deleted', OLD.name
            USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN NEW;
      END
      $$
    `)
  }
}
