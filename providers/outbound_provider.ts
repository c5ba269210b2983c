import type { ApplicationService } from '@adonisjs/core/types'
import type { OutboundConfig } from '#config/outbound'
import { Clock } from '#core/clock'
import { OutboundClient } from '#outbound/outbound_client'

/**
 * Binds the one HTTP client for provider-controlled URLs as a singleton.
 * It is a class, so tests swap it with app.container.swap (e.g. a client
 * with an injected resolver).
 */
export default class OutboundProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.singleton(OutboundClient, async (resolver) => {
      return new OutboundClient({
        ...this.app.config.get<OutboundConfig>('outbound'),
        clock: await resolver.make(Clock),
      })
    })
  }
}
