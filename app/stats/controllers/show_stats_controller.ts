import { inject } from '@adonisjs/core'
import { PublicStats } from '#stats/public_stats'

@inject()
export default class ShowStatsController {
  constructor(private stats: PublicStats) {}

  async handle() {
    return this.stats.stats()
  }
}
