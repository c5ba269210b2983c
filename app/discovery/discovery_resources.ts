import { inject } from '@adonisjs/core'
import {
  sanitizeTags,
  type DiscoveryResource,
  type DiscoveryResourcesResponse,
  type SearchDiscoveryResourcesResponse,
} from '@x402/extensions/bazaar'
import { ChainConfig } from '#chain/define_config'
import { PlatformWallet } from '#chain/platform_wallet'
import { requiredExampleQuery } from '#discovery/bazaar_extension'
import { type CatalogFeed, DiscoveryCatalog } from '#discovery/discovery_catalog'
import { encodeCursor } from '#discovery/search_cursor'
import { DEFAULT_LIMIT, MAX_LISTED } from '#discovery/validators'
import { feedDeclaration } from '#feeds/feed_declaration'
import { feedPaymentRequired } from '#payments/feed_payment_required'
import { X402_VERSION } from '#payments/x402'
import { PROVIDER_CATEGORY } from '#web/market_catalog'

/** The filters of @x402/extensions' ListDiscoveryResourcesParams. */
export interface DiscoveryFilter {
  type?: string
  payTo?: string
  scheme?: string
  network?: string
  extensions?: string
}

/** The serviceName of every resource (the library keeps 32 printable ASCII characters). */
const SERVICE_NAME = 'Tollbooth'

/** The extensions every feed's 402 declares. */
const EXTENSIONS = new Set(['bazaar', 'payment-identifier', 'credit'])

/**
 * The facilitator's discovery API as @x402/extensions defines it (its
 * client, withBazaar, reads it unmodified): every live feed as a
 * DiscoveryResource whose `accepts` and `extensions` (Bazaar's and
 * payment-identifier's) are those of the feed's own 402.
 */
@inject()
export class DiscoveryResources {
  constructor(
    private catalog: DiscoveryCatalog,
    private wallet: PlatformWallet,
    private chain: ChainConfig
  ) {}

  /** GET /facilitator/discovery/resources: a slice by limit and offset, with the total. */
  async list({
    limit = DEFAULT_LIMIT,
    offset = 0,
    ...filter
  }: DiscoveryFilter & { limit?: number; offset?: number }): Promise<DiscoveryResourcesResponse> {
    const found = this.#matches(filter)
      ? await this.catalog.slice(undefined, { offset, limit }, MAX_LISTED)
      : { rows: [], total: 0 }
    return {
      x402Version: X402_VERSION,
      items: found.rows.map((entry) => this.#resource(entry)),
      pagination: { limit, offset, total: found.total },
    }
  }

  /**
   * GET /facilitator/discovery/search: the live feeds whose names,
   * description, category or provider contain every word of `query`, in
   * catalog order, a page at a time behind an opaque cursor.
   */
  async search({
    query,
    limit = DEFAULT_LIMIT,
    cursor: offset = 0,
    ...filter
  }: DiscoveryFilter & {
    query: string
    limit?: number
    cursor?: number
  }): Promise<SearchDiscoveryResourcesResponse> {
    const found = this.#matches(filter)
      ? await this.catalog.slice(query, { offset, limit }, MAX_LISTED)
      : { rows: [], total: 0, more: false }
    const next = offset + limit
    const cursor = next < found.total ? encodeCursor(next) : null
    return {
      x402Version: X402_VERSION,
      resources: found.rows.map((entry) => this.#resource(entry)),
      // More matched than the search reaches (MAX_LISTED): narrow it to see the rest.
      partialResults: found.more && cursor === null,
      pagination: { limit: found.rows.length, cursor },
    }
  }

  /** Every resource we list shares these: a filter naming anything else matches none. */
  #matches(filter: DiscoveryFilter) {
    return (
      (filter.type ?? 'http') === 'http' &&
      (filter.scheme ?? 'exact') === 'exact' &&
      (filter.network ?? this.chain.network.caip2) === this.chain.network.caip2 &&
      (filter.payTo ?? this.wallet.address) === this.wallet.address &&
      (filter.extensions === undefined || EXTENSIONS.has(filter.extensions))
    )
  }

  #resource({ feed, path, provider }: CatalogFeed): DiscoveryResource {
    // A feed that requires query parameters is listed with their examples: probing it gets its 402.
    const query = requiredExampleQuery(feedDeclaration(feed))
    const required = feedPaymentRequired(
      { feed, path, query },
      { payTo: this.wallet.address, network: this.chain.network }
    )
    return {
      resource: required.resource.url,
      type: 'http',
      x402Version: X402_VERSION,
      accepts: required.accepts,
      lastUpdated: feed.updatedAt.toUTC().toISO()!,
      description: required.resource.description,
      mimeType: required.resource.mimeType,
      serviceName: SERVICE_NAME,
      tags: sanitizeTags([feed.category ?? PROVIDER_CATEGORY, provider?.handle].filter(Boolean)),
      extensions: required.extensions,
    }
  }
}
