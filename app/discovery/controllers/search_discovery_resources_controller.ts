import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { DiscoveryResources } from '#discovery/discovery_resources'
import { searchResourcesValidator } from '#discovery/validators'

@inject()
export default class SearchDiscoveryResourcesController {
  constructor(private resources: DiscoveryResources) {}

  async handle({ request }: HttpContext) {
    const params = await request.validateUsing(searchResourcesValidator, { data: request.qs() })
    return this.resources.search(params)
  }
}
