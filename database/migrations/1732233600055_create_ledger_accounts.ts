import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Typed ledger accounts (docs/architecture.md#the-ledger). An entry names an
 * account the database holds; the account's name, kind, owner and limit
 * agree (app/ledger/accounts.ts builds them, these checks refuse any other).
 * An account that may not go negative (what the platform owes) keeps its
 * debit and credit totals, updated by each entry, and a deferred trigger
 * refuses at commit a transaction that leaves its debits above its credits.
 * Only those accounts keep totals: the platform's own accounts are touched by
 * every payment, and one row locked by all of them would serialise payments.
 * Existing entries' accounts are created here from their names, once.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      CREATE TABLE ledger_accounts (
        name text PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('platform_wallet', 'platform_fees', 'platform_revenue',
                                           'payouts_in_flight', 'network_fees', 'provider_pending')),
        provider_id uuid NULL REFERENCES providers(id),
        may_go_negative boolean NOT NULL,
        debits_microstx bigint NOT NULL DEFAULT 0 CHECK (debits_microstx >= 0),
        credits_microstx bigint NOT NULL DEFAULT 0 CHECK (credits_microstx >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ledger_accounts_name_of_kind CHECK (name = CASE kind
          WHEN 'platform_wallet' THEN 'platform:wallet'
          WHEN 'platform_fees' THEN 'platform:fees'
          WHEN 'platform_revenue' THEN 'platform:revenue'
          WHEN 'payouts_in_flight' THEN 'platform:payouts_in_flight'
          WHEN 'network_fees' THEN 'platform:network_fees'
          WHEN 'provider_pending' THEN 'provider:' || provider_id || ':pending'
        END),
        CONSTRAINT ledger_accounts_owner_of_kind
          CHECK ((kind = 'provider_pending') = (provider_id IS NOT NULL)),
        CONSTRAINT ledger_accounts_limit_of_kind
          CHECK (may_go_negative = (kind NOT IN ('provider_pending', 'payouts_in_flight'))),
        CONSTRAINT ledger_accounts_totals_kept_when_limited
          CHECK (NOT may_go_negative OR (debits_microstx = 0 AND credits_microstx = 0))
      )
    `)

    // An entry on an account outside the known ones would get no kind: name
    // them instead of failing on a bare NOT NULL violation.
    this.schema.raw(`
      DO $$
      DECLARE unknown text;
      BEGIN
        SELECT string_agg(DISTINCT account, ', ' ORDER BY account) INTO unknown
          FROM ledger_entries
         WHERE account NOT LIKE 'provider:%:pending'
           AND account NOT IN ('platform:wallet', 'platform:fees', 'platform:revenue',
                               'platform:payouts_in_flight', 'platform:network_fees');
        IF unknown IS NOT NULL THEN
          RAISE EXCEPTION 'ledger entries on unknown accounts: %', unknown;
        END IF;
      END
      $$
    `)

    this.schema.raw(`
      INSERT INTO ledger_accounts (name, kind, provider_id, may_go_negative, debits_microstx, credits_microstx)
      SELECT e.account, k.kind, k.provider_id, k.may_go_negative,
             CASE WHEN k.may_go_negative THEN 0 ELSE coalesce(sum(e.amount_microstx) FILTER (WHERE e.amount_microstx > 0), 0) END,
             CASE WHEN k.may_go_negative THEN 0 ELSE coalesce(-sum(e.amount_microstx) FILTER (WHERE e.amount_microstx < 0), 0) END
        FROM ledger_entries e
        CROSS JOIN LATERAL (
          SELECT CASE
                   WHEN e.account LIKE 'provider:%:pending' THEN 'provider_pending'
                   WHEN e.account = 'platform:wallet' THEN 'platform_wallet'
                   WHEN e.account = 'platform:fees' THEN 'platform_fees'
                   WHEN e.account = 'platform:revenue' THEN 'platform_revenue'
                   WHEN e.account = 'platform:payouts_in_flight' THEN 'payouts_in_flight'
                   WHEN e.account = 'platform:network_fees' THEN 'network_fees'
                 END AS kind,
                 CASE WHEN e.account LIKE 'provider:%:pending'
                      THEN split_part(e.account, ':', 2)::uuid END AS provider_id,
                 e.account NOT LIKE 'provider:%:pending'
                   AND e.account <> 'platform:payouts_in_flight' AS may_go_negative
        ) k
       GROUP BY e.account, k.kind, k.provider_id, k.may_go_negative
    `)
    this.schema.raw(`
      ALTER TABLE ledger_entries
        ADD CONSTRAINT ledger_entries_account_fkey FOREIGN KEY (account) REFERENCES ledger_accounts(name)
    `)

    this.schema.raw(`
      CREATE FUNCTION ledger_accounts_add_entry() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE ledger_accounts SET
          debits_microstx = debits_microstx + greatest(NEW.amount_microstx, 0),
          credits_microstx = credits_microstx + greatest(-NEW.amount_microstx, 0)
        WHERE name = NEW.account AND NOT may_go_negative;
        RETURN NULL;
      END
      $$
    `)
    this.schema.raw(`
      CREATE TRIGGER ledger_entries_add_to_account
        AFTER INSERT ON ledger_entries
        FOR EACH ROW EXECUTE FUNCTION ledger_accounts_add_entry()
    `)

    this.schema.raw(`
      CREATE FUNCTION ledger_assert_account_not_negative() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        account ledger_accounts%ROWTYPE;
      BEGIN
        SELECT * INTO account FROM ledger_accounts WHERE name = NEW.account;
        IF NOT account.may_go_negative AND account.debits_microstx > account.credits_microstx THEN
          RAISE EXCEPTION 'ledger account % may not go negative: its debits would exceed its credits by % µSTX',
            NEW.account, account.debits_microstx - account.credits_microstx
            USING ERRCODE = 'check_violation',
                  CONSTRAINT = 'ledger_accounts_not_negative',
                  DETAIL = NEW.account;
        END IF;
        RETURN NULL;
      END
      $$
    `)
    this.schema.raw(`
      CREATE CONSTRAINT TRIGGER ledger_accounts_not_negative
        AFTER INSERT ON ledger_entries
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION ledger_assert_account_not_negative()
    `)

    // An account's identity never changes (its totals do); it is never deleted.
    this.schema.raw(`
      CREATE FUNCTION ledger_accounts_refuse_change() RETURNS trigger
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
    this.schema.raw(`
      CREATE TRIGGER ledger_accounts_fixed
        BEFORE UPDATE OR DELETE ON ledger_accounts
        FOR EACH ROW EXECUTE FUNCTION ledger_accounts_refuse_change()
    `)
  }

  async down() {
    this.schema.raw('ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_account_fkey')
    this.schema.raw('DROP TRIGGER ledger_accounts_not_negative ON ledger_entries')
    this.schema.raw('DROP TRIGGER ledger_entries_add_to_account ON ledger_entries')
    this.schema.raw('DROP TABLE ledger_accounts')
    this.schema.raw('DROP FUNCTION ledger_assert_account_not_negative()')
    this.schema.raw('DROP FUNCTION ledger_accounts_add_entry()')
    this.schema.raw('DROP FUNCTION ledger_accounts_refuse_change()')
  }
}
