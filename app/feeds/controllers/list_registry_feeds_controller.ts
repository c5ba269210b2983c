import { inject } from '@adonisjs/core'
import { FeedRegistry } from '#feeds/feed_registry'

@inject()
export default class ListRegistryFeedsController {
  constructor(private registry: FeedRegistry) {}

  async handle() {
    return this.registry.list()
  }
}
