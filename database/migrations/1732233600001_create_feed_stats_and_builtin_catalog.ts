import { BaseSchema } from '@adonisjs/lucid/schema'
import { BUILTIN_FEEDS } from '#feeds/builtin/catalog'

/**
 * Rollup counters per feed (maintained on write), and the built-in catalog
 * seeded as feed rows so built-in and provider feeds are treated alike.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      CREATE TABLE feed_stats (
        feed_id uuid PRIMARY KEY REFERENCES feeds(id) ON DELETE CASCADE,
        total_queries bigint NOT NULL DEFAULT 0,
        total_response_ms bigint NOT NULL DEFAULT 0,
        source_calls bigint NOT NULL DEFAULT 0,
        source_failures bigint NOT NULL DEFAULT 0
      )
    `)
    this.defer(async (db) => {
      await db
        .table('feeds')
        .insert(
          BUILTIN_FEEDS.map((feed) => ({
            slug: feed.id,
            display_name: feed.displayName,
            description: feed.description,
            category: feed.category,
            price_microstx: feed.priceMicrostx.toString(),
            source_type: 'builtin',
            update_frequency: feed.updateFrequency,
          }))
        )
        .onConflict(['provider_id', 'slug'])
        .ignore()
    })
  }

  async down() {
    this.schema.dropTable('feed_stats')
    this.defer(async (db) => {
      await db.from('feeds').whereNull('provider_id').where('source_type', 'builtin').delete()
    })
  }
}
