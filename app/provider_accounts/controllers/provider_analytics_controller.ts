import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ownedProvider } from '#provider_accounts/provider_access'
import { ProviderAnalytics } from '#stats/provider_analytics'

/** The owner's analytics: the spec's object, balances and 7-day breakdowns. */
@inject()
export default class ProviderAnalyticsController {
  constructor(private analytics: ProviderAnalytics) {}

  async handle({ auth, params }: HttpContext) {
    const provider = await ownedProvider(String(params.id), auth.getUserOrFail().walletAddress)
    return this.analytics.of(provider)
  }
}
