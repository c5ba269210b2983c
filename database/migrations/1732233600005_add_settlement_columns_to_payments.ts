import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * What the paywall keeps to finish a payment after its request is gone: how
 * long serving took (for the query log) and the hash of the receipt token
 * handed to a buyer told to come back (202 settlement_pending).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      ALTER TABLE payments
        ADD COLUMN response_ms integer NULL CHECK (response_ms >= 0),
        ADD COLUMN receipt_token_hash text NULL
    `)
  }

  async down() {
    this.schema.raw('ALTER TABLE payments DROP COLUMN response_ms, DROP COLUMN receipt_token_hash')
  }
}
