import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A withdrawal's bytes are sent by one sender at a time: the request's
 * dispatcher or the confirm job claims the row until `sending_until` (and
 * counts the attempt) in a committed write before it POSTs, so a crash after
 * the node took the bytes still reads "sent before", and nobody fails a row
 * another sender may have had accepted.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`ALTER TABLE withdrawals ADD COLUMN sending_until timestamptz NULL`)
  }

  async down() {
    this.schema.raw(`ALTER TABLE withdrawals DROP COLUMN sending_until`)
  }
}
