import type { ApplicationService } from '@adonisjs/core/types'
import { Clock } from '#core/clock'
import { OutboundConfig } from '#outbound/define_config'
import { OutboundClient } from '#outbound/outbound_client'

/**
 * Binds the outbound config (config/outbound.ts) and the one HTTP client for provider-controlled URLs as a singleton.
 * It is a class, so tests swap it with app.container.swap (e.g. a client
 * with an injected resolver).
 */
export default class OutboundProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.bindValue(OutboundConfig, this.app.config.get<OutboundConfig>('outbound'))
    this.app.container.singleton(OutboundClient, async (resolver) => {
      return new OutboundClient({
        ...(await resolver.make(OutboundConfig)),
        clock: await resolver.make(Clock),
      })
    })
  }
}
