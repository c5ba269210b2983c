import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { type Page, type PageRequest, paginate, slice } from '#core/pagination'
import { paidFeedPath } from '#feeds/feed_paths'
import { FEED_STATS_COLUMNS, summariseStats, type FeedStatsRow } from '#feeds/feed_stats'
import { inCatalogOrder, liveFeeds, mentioning } from '#feeds/live_feeds'
import Feed from '#models/feed'
import type { IntegrationMode } from '#models/provider'

/** A live feed as machine discovery describes it. */
export interface CatalogFeed {
  feed: Feed
  /** `whale-alerts`, or `acme-data/btc-price` for a provider's feed. */
  name: string
  /** The paid API path. */
  path: string
  provider: { handle: string; displayName: string; integrationMode: IntegrationMode } | null
  /** When its last document was stored (Hosted Mirror feeds); null for a feed fetched per call. */
  lastStored: Date | null
  stats: ReturnType<typeof summariseStats>
}

interface CatalogRow extends Partial<FeedStatsRow> {
  handle: string | null
  provider_name: string | null
  integration_mode: IntegrationMode | null
  last_fetched_at: Date | null
  [column: string]: unknown
}

/**
 * Every live feed, built-in and provider — the scope the marketplace and the
 * providers' pages list (liveFeeds), in the marketplace's order — with what
 * machine discovery says of it: the feed row its declaration and payment
 * requirement are built from, its provider and its freshness. PostgreSQL
 * filters, orders and cuts every list.
 */
@inject()
export class DiscoveryCatalog {
  constructor(private db: Database) {}

  /** One page of the live providers' feeds. */
  async providerFeeds(request: PageRequest): Promise<Page<CatalogFeed>> {
    const page = await paginate<CatalogRow>(
      this.#listed().whereNotNull('feeds.provider_id'),
      request
    )
    return { ...page, rows: page.rows.map(entry) }
  }

  /**
   * `limit` live feeds from `offset`, those whose text contains every word of
   * `words` (all without), and how many match, counted up to `reachable`.
   */
  async slice(
    words: string | undefined,
    window: { offset: number; limit: number },
    reachable: number
  ) {
    const found = await slice<CatalogRow>(mentioning(this.#listed(), words), window, reachable)
    return { ...found, rows: found.rows.map(entry) }
  }

  #listed() {
    return inCatalogOrder(liveFeeds(this.db))
      .leftJoin('feed_stats', 'feed_stats.feed_id', 'feeds.id')
      .select(
        // Every column a declaration and a payment requirement read; never the push key.
        'feeds.id',
        'feeds.provider_id',
        'feeds.slug',
        'feeds.display_name',
        'feeds.description',
        'feeds.category',
        'feeds.price_microstx',
        'feeds.source_type',
        'feeds.source_settings',
        'feeds.output_schema',
        'feeds.output_example',
        'feeds.update_frequency',
        'feeds.status',
        'feeds.created_at',
        'feeds.updated_at',
        'providers.handle',
        'providers.display_name as provider_name',
        'providers.integration_mode',
        this.db.raw(
          `(SELECT max(s.fetched_at) FROM feed_snapshots s WHERE s.feed_id = feeds.id) AS last_fetched_at`
        ),
        ...FEED_STATS_COLUMNS
      )
  }
}

function entry(row: CatalogRow): CatalogFeed {
  const feed = Feed.$createFromAdapterResult(row)!
  const handle = row.handle
  return {
    feed,
    name: handle ? `${handle}/${feed.slug}` : feed.slug,
    path: handle ? paidFeedPath({ handle, slug: feed.slug }) : paidFeedPath({ id: feed.slug }),
    provider: handle
      ? {
          handle,
          displayName: row.provider_name ?? '',
          integrationMode: row.integration_mode!,
        }
      : null,
    lastStored: row.last_fetched_at ? new Date(row.last_fetched_at) : null,
    stats: summariseStats(row),
  }
}
