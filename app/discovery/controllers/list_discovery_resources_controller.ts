import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { DiscoveryResources } from '#discovery/discovery_resources'
import { listResourcesValidator } from '#discovery/validators'

@inject()
export default class ListDiscoveryResourcesController {
  constructor(private resources: DiscoveryResources) {}

  async handle({ request }: HttpContext) {
    const params = await request.validateUsing(listResourcesValidator, { data: request.qs() })
    return this.resources.list(params)
  }
}
