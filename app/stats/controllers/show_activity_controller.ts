import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { PublicStats } from '#stats/public_stats'
import { activityQueryValidator } from '#stats/activity_validator'

@inject()
export default class ShowActivityController {
  constructor(private stats: PublicStats) {}

  async handle({ request }: HttpContext) {
    const { limit, feed } = await request.validateUsing(activityQueryValidator, {
      data: request.qs(),
    })
    return this.stats.activity(limit ?? 20, feed)
  }
}
