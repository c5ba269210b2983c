import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { PublicStats } from '#stats/public_stats'

export const ACTIVITY_PAGE_SIZE = 50

/** /market/activity: paid calls as they confirm (the island polls GET /activity). */
@inject()
export default class ShowActivityPageController {
  constructor(private stats: PublicStats) {}

  async handle({ view }: HttpContext) {
    return view.render('pages/market/activity', {
      activity: await this.stats.activity(ACTIVITY_PAGE_SIZE),
      limit: ACTIVITY_PAGE_SIZE,
    })
  }
}
