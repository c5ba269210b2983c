import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The double-entry ledger, the truth about money (docs/architecture.md#the-paid-call). A ledger
 * transaction is one business event, unique per (kind, reference) so it cannot
 * be posted twice; its entries (positive = debit, negative = credit) must sum
 * to zero. The database enforces that at commit, not per row, because the
 * entries of a transaction are inserted one after another. History is
 * append-only: corrections are compensating transactions. TRUNCATE stays
 * possible, for tests and for resetting a development database.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      CREATE TABLE ledger_transactions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        kind text NOT NULL CHECK (kind <> ''),
        reference text NOT NULL CHECK (reference <> ''),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (kind, reference)
      )
    `)
    this.schema.raw(`
      CREATE TABLE ledger_entries (
        id bigserial PRIMARY KEY,
        transaction_id uuid NOT NULL REFERENCES ledger_transactions(id),
        account text NOT NULL CHECK (account <> ''),
        amount_microstx bigint NOT NULL CHECK (amount_microstx <> 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )
    `)
    this.schema.raw(`CREATE INDEX ledger_entries_transaction_id ON ledger_entries (transaction_id)`)
    this.schema.raw(`CREATE INDEX ledger_entries_account ON ledger_entries (account)`)

    this.schema.raw(`
      CREATE FUNCTION ledger_assert_transaction_balanced() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        total numeric;
      BEGIN
        SELECT coalesce(sum(amount_microstx), 0) INTO total
          FROM ledger_entries WHERE transaction_id = NEW.transaction_id;
        IF total <> 0 THEN
          RAISE EXCEPTION 'ledger transaction % does not balance: its entries sum to % µSTX',
            NEW.transaction_id, total
            USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
      END
      $$
    `)
    this.schema.raw(`
      CREATE CONSTRAINT TRIGGER ledger_entries_balanced
        AFTER INSERT ON ledger_entries
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION ledger_assert_transaction_balanced()
    `)

    this.schema.raw(`
      CREATE FUNCTION ledger_refuse_change() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the ledger is append-only: % on % refused; post a compensating transaction',
          TG_OP, TG_TABLE_NAME
          USING ERRCODE = 'restrict_violation';
      END
      $$
    `)
    this.schema.raw(`
      CREATE TRIGGER ledger_entries_append_only
        BEFORE UPDATE OR DELETE ON ledger_entries
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()
    `)
    this.schema.raw(`
      CREATE TRIGGER ledger_transactions_append_only
        BEFORE UPDATE OR DELETE ON ledger_transactions
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()
    `)
  }

  async down() {
    this.schema.raw('DROP TABLE ledger_entries')
    this.schema.raw('DROP TABLE ledger_transactions')
    this.schema.raw('DROP FUNCTION ledger_assert_transaction_balanced()')
    this.schema.raw('DROP FUNCTION ledger_refuse_change()')
  }
}
