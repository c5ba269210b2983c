import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ProviderAnalytics } from '#stats/provider_analytics'

/** The owner's analytics: the spec's object, balances and 7-day breakdowns. */
@inject()
export default class ProviderAnalyticsController {
  constructor(private analytics: ProviderAnalytics) {}

  async handle({ ownedProvider }: HttpContext) {
    return this.analytics.of(ownedProvider)
  }
}
