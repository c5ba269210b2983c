import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The jobs' one lease (app/core/row_leases.ts): payments:reconcile and
 * withdrawals:confirm hold a row until `leased_until`, a time of the app's
 * Clock, never the database's (docs/architecture.md#leases). "Dropped" has
 * one name in both tables: `dropped_at`, when the node first reported the
 * transaction dropped.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`ALTER TABLE payments ADD COLUMN leased_until timestamptz NULL`)
    this.schema.raw(`ALTER TABLE withdrawals ADD COLUMN leased_until timestamptz NULL`)
    this.schema.raw(`ALTER TABLE withdrawals RENAME COLUMN dropped_since TO dropped_at`)
  }

  async down() {
    this.schema.raw(`ALTER TABLE withdrawals RENAME COLUMN dropped_at TO dropped_since`)
    this.schema.raw(`ALTER TABLE withdrawals DROP COLUMN leased_until`)
    this.schema.raw(`ALTER TABLE payments DROP COLUMN leased_until`)
  }
}
