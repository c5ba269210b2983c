import { inject } from '@adonisjs/core'
import { publicUrl } from '#core/public_url'
import { DiscoveryResources } from '#discovery/discovery_resources'

/** Resource URLs /.well-known/x402 lists at most; the discovery API lists the rest. */
export const WELL_KNOWN_LIMIT = 100

/**
 * GET /.well-known/x402: the discovery document x402scan and the agents
 * following it read (`{version: 1, resources, instructions}`, x402scan's
 * docs/DISCOVERY.md): the first live feeds' resource URLs as the discovery
 * API lists them (a feed that requires query parameters with their example
 * values, so probing the URL gets its 402), and where the whole catalog is.
 */
@inject()
export class WellKnownX402 {
  constructor(private resources: DiscoveryResources) {}

  async document() {
    const { items, pagination } = await this.resources.list({ limit: WELL_KNOWN_LIMIT })
    const listed =
      items.length < pagination.total
        ? `The first ${items.length} of ${pagination.total} live feeds are listed here`
        : `All ${pagination.total} live feeds are listed here`
    return {
      version: 1,
      resources: items.map((item) => item.resource),
      instructions: [
        `Tollbooth sells JSON data feeds per call over x402 v2, paid in STX. ${listed}.`,
        `Every live feed, with its payment requirements and Bazaar input/output schemas: GET ${publicUrl('/facilitator/discovery/resources')} (limit, offset) or ${publicUrl('/facilitator/discovery/search')}?query=… — @x402/extensions' withBazaar client reads both.`,
        `A GET on a feed without payment answers 402 with the requirements; see ${publicUrl('/llms.txt')}.`,
      ].join(' '),
    }
  }
}
