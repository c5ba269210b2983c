import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { QueryLogSeeder, SEED_DEFAULTS } from '#stats/query_log_seeder'

/**
 * `node ace stats:seed --rows 10000000`: synthetic paid calls in the query
 * log and the rollups, consistent with each other, to measure or inspect
 * the statistics at scale (docs/performance.md#statistics-at-scale). They
 * are backed by no payment: refused in production.
 */
export default class StatsSeed extends BaseCommand {
  static commandName = 'stats:seed'
  static description =
    'Fill the query log and its rollups with synthetic paid calls (benchmark and development databases only)'

  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Paid calls to add', default: 1_000_000 })
  declare rows: number

  @flags.number({ description: 'Distinct payers', default: SEED_DEFAULTS.payers })
  declare payers: number

  @flags.number({
    description: 'Days the calls are spread over, up to now',
    default: SEED_DEFAULTS.days,
  })
  declare days: number

  @flags.number({
    description: 'The newest call this many days before now',
    default: SEED_DEFAULTS.daysAgo,
  })
  declare daysAgo: number

  @flags.number({ description: 'Rows per statement', default: SEED_DEFAULTS.batch })
  declare batch: number

  async run() {
    if (this.app.inProduction) {
      this.logger.error('stats:seed adds calls no payment backs: not in production')
      this.exitCode = 1
      return
    }
    const minimums: [flag: string, value: number, minimum: number][] = [
      ['rows', this.rows, 1],
      ['payers', this.payers, 1],
      ['days', this.days, 1],
      ['days-ago', this.daysAgo, 0],
      ['batch', this.batch, 1],
    ]
    for (const [flag, value, minimum] of minimums) {
      if (!Number.isSafeInteger(value) || value < minimum) {
        this.logger.error(`--${flag} must be an integer ≥ ${minimum}`)
        this.exitCode = 1
        return
      }
    }
    const seeder = await this.app.container.make(QueryLogSeeder)
    const started = performance.now()
    await seeder.seed(
      {
        rows: this.rows,
        payers: this.payers,
        days: this.days,
        daysAgo: this.daysAgo,
        batch: this.batch,
      },
      (done) => this.logger.info(`${done.toLocaleString('en')} rows`)
    )
    const seconds = (performance.now() - started) / 1000
    this.logger.success(
      `seeded ${this.rows.toLocaleString('en')} paid calls in ${seconds.toFixed(1)} s (${Math.round(this.rows / seconds).toLocaleString('en')} rows/s)`
    )
  }
}
