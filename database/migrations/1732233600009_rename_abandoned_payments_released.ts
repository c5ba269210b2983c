import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The payment state machine reads claimed → broadcast → confirmed / failed /
 * released: `abandoned` becomes `released` (nothing charged, the transfer may
 * be presented again), the name its one transition has in PaymentLifecycle.
 */
export default class extends BaseSchema {
  async up() {
    this.#replaceStatus('abandoned', 'released')
  }

  async down() {
    this.#replaceStatus('released', 'abandoned')
  }

  #replaceStatus(from: string, to: string) {
    const statuses = ['claimed', 'broadcast', 'confirmed', 'failed', to]
    this.schema.raw(`ALTER TABLE payments DROP CONSTRAINT payments_status_check`)
    this.schema.raw(`UPDATE payments SET status = '${to}' WHERE status = '${from}'`)
    this.schema.raw(
      `ALTER TABLE payments ADD CONSTRAINT payments_status_check
         CHECK (status IN (${statuses.map((status) => `'${status}'`).join(', ')}))`
    )
  }
}
