import { inject } from '@adonisjs/core'
import { Clock } from '#core/clock'
import type { PageRequest } from '#core/pagination'
import { type CatalogFeed, DiscoveryCatalog } from '#discovery/discovery_catalog'
import { FeedAvailability } from '#feeds/feed_availability'
import { feedDeclaration } from '#feeds/feed_declaration'
import { formatStx, stxNumber } from '#ledger/money'
import { PROVIDER_CATEGORY } from '#web/market_catalog'

/**
 * GET /registry/provider-feeds: the live providers' feeds a page at a time,
 * each with the fields of a /registry/feeds entry, its provider (handle,
 * integration mode), its freshness and its declaration (docs/api.md,
 * "Discovery").
 */
@inject()
export class ProviderFeedRegistry {
  constructor(
    private catalog: DiscoveryCatalog,
    private availability: FeedAvailability,
    private clock: Clock
  ) {}

  async page(request: PageRequest) {
    const { rows, ...page } = await this.catalog.providerFeeds(request)
    const withoutData = await this.availability.withoutData(rows.map(({ feed }) => feed))
    return {
      ...page,
      feeds: rows.map((entry) => this.#entry(entry, !withoutData.has(entry.feed.id))),
    }
  }

  #entry({ feed, name, path, provider, lastStored, stats }: CatalogFeed, hasData: boolean) {
    const price = feed.priceMicrostx
    return {
      id: name,
      endpoint: path,
      price_stx: stxNumber(price),
      price_display: `${formatStx(price)} STX`,
      description: feed.description,
      category: feed.category ?? PROVIDER_CATEGORY,
      update_frequency: feed.updateFrequency,
      stats,
      handle: provider!.handle,
      slug: feed.slug,
      integration_mode: provider!.integrationMode,
      freshness: {
        /** When its data was last stored (Hosted Mirror); null for a feed fetched on each call. */
        last_updated: lastStored?.toISOString() ?? null,
        age_seconds: lastStored
          ? Math.max(0, Math.floor((this.clock.now() - lastStored.getTime()) / 1000))
          : null,
      },
      /** False while a Hosted Mirror feed has no data yet: a call answers 503 and asks no payment. */
      has_data: hasData,
      declaration: feedDeclaration(feed),
    }
  }
}
