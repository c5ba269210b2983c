import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * One feed's newest paid calls (a feed page's recent purchases,
 * `/activity?feed=`) read through this index: the cost does not grow with
 * the other feeds' calls.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`CREATE INDEX query_log_by_feed ON query_log (feed_id, id DESC)`)
  }

  async down() {
    this.schema.raw(`DROP INDEX query_log_by_feed`)
  }
}
