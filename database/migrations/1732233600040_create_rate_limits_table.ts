import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The rate limiter's counters (@adonisjs/limiter's database store, config/limiter.ts):
 * one row per limit and key, `points` used in the window that ends at `expire`
 * (epoch milliseconds). The library deletes rows an hour past their window.
 */
export default class extends BaseSchema {
  protected tableName = 'rate_limits'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('key', 255).notNullable().primary()
      table.integer('points').notNullable().defaultTo(0)
      table.bigint('expire').index()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
