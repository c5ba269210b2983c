import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * When the node last said a broadcast payment was dropped from its mempool.
 * Such a payment stays pending (another node may still mine it) but no longer
 * holds its payer's nonce, funds or in-flight slot, so the buyer can pay
 * again at that nonce: whichever transfer is mined, the other then fails.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`ALTER TABLE payments ADD COLUMN dropped_at timestamptz NULL`)
  }

  async down() {
    this.schema.raw(`ALTER TABLE payments DROP COLUMN dropped_at`)
  }
}
