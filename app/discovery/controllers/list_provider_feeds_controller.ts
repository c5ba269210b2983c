import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ProviderFeedRegistry } from '#discovery/provider_feed_registry'
import { DEFAULT_LIMIT, providerFeedsValidator } from '#discovery/validators'

@inject()
export default class ListProviderFeedsController {
  constructor(private registry: ProviderFeedRegistry) {}

  async handle({ request }: HttpContext) {
    const { page = 1, size = DEFAULT_LIMIT } = await request.validateUsing(providerFeedsValidator, {
      data: request.qs(),
    })
    return this.registry.page({ page, size })
  }
}
