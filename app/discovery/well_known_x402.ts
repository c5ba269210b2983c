import { inject } from '@adonisjs/core'
import { publicUrl } from '#core/public_url'
import { exampleInput } from '#discovery/bazaar_extension'
import { type CatalogFeed, DiscoveryCatalog } from '#discovery/discovery_catalog'
import { feedDeclaration } from '#feeds/feed_declaration'
import { MAX_LISTED } from '#discovery/validators'

/** Resource URLs /.well-known/x402 lists at most; the discovery API lists the rest. */
export const WELL_KNOWN_LIMIT = 100

/**
 * GET /.well-known/x402: the discovery document x402scan and the agents
 * following it read (`{version: 1, resources, instructions}`, x402scan's
 * docs/DISCOVERY.md): the first live feeds' paid URLs, in catalog order, and
 * where the whole catalog is. A feed that requires query parameters is listed
 * with their example values, so that probing its URL gets its 402, not a 422.
 */
@inject()
export class WellKnownX402 {
  constructor(private catalog: DiscoveryCatalog) {}

  async document() {
    const { rows, total, more } = await this.catalog.slice(
      undefined,
      { offset: 0, limit: WELL_KNOWN_LIMIT },
      MAX_LISTED
    )
    const listed =
      rows.length < total || more
        ? `The first ${rows.length} of ${more ? 'more than ' : ''}${total} live feeds are listed here`
        : `All ${total} live feeds are listed here`
    return {
      version: 1,
      resources: rows.map(probeUrl),
      instructions: [
        `Tollbooth sells JSON data feeds per call over x402 v2, paid in STX. ${listed}.`,
        `Every live feed, with its payment requirements and Bazaar input/output schemas: GET ${publicUrl('/facilitator/discovery/resources')} (limit, offset) or ${publicUrl('/facilitator/discovery/search')}?query=… — @x402/extensions' withBazaar client reads both.`,
        `A GET on a feed without payment answers 402 with the requirements; see ${publicUrl('/llms.txt')}.`,
      ].join(' '),
    }
  }
}

function probeUrl({ feed, path }: CatalogFeed) {
  const required = feedDeclaration(feed).query.filter((param) => param.required)
  const example = exampleInput({ query: required, output: null })
  const search = new URLSearchParams(
    Object.entries(example).map(([name, value]): [string, string] => [name, String(value)])
  )
  return publicUrl(search.size > 0 ? `${path}?${search}` : path)
}
