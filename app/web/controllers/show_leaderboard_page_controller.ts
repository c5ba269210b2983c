import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { PublicStats } from '#stats/public_stats'

/** /market/leaderboard: the agents that spent the most. */
@inject()
export default class ShowLeaderboardPageController {
  constructor(private stats: PublicStats) {}

  async handle({ view }: HttpContext) {
    return view.render('pages/market/leaderboard', await this.stats.leaderboard())
  }
}
