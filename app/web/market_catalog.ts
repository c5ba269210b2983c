import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { Clock } from '#core/clock'
import { type Page, type PageRequest, paginate } from '#core/pagination'
import { FeedAvailability } from '#feeds/feed_availability'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { FEED_STATS_COLUMNS, summariseStats, type FeedStatsRow } from '#feeds/feed_stats'
import { formatStx, parseMicrostx } from '#ledger/money'
import { timeAgo } from '#stats/time_ago'
import { feedPaths } from '#feeds/feed_paths'
import { inCatalogOrder, liveFeeds, mentioning } from '#feeds/live_feeds'

/** Provider feeds carry no category of their own: the marketplace files them together. */
export const PROVIDER_CATEGORY = 'provider'

export interface MarketFeed {
  id: string
  /** `whale-alerts`, or `acme-data/btc-price` for a provider's feed. */
  name: string
  displayName: string
  description: string
  category: string
  provider: { handle: string; displayName: string } | null
  priceMicrostx: string
  priceStx: string
  /** How fresh the data is, in words. */
  freshness: string
  stats: ReturnType<typeof summariseStats>
  /** False while a Hosted Mirror feed has no data yet: it asks no payment, sells nothing. */
  hasData: boolean
  /** The paid API path, and the page about it. */
  endpoint: string
  page: string
}

interface CatalogRow extends Partial<FeedStatsRow> {
  id: string
  slug: string
  display_name: string
  description: string | null
  category: string | null
  price_microstx: string
  source_type: string
  source_settings: Record<string, unknown> | null
  update_frequency: string | null
  handle: string | null
  provider_name: string | null
  last_fetched_at: Date | null
}

/** The marketplace's view: words to look for, and a category (`provider` for providers' feeds). */
export interface MarketFilter {
  q?: string
  category?: string
}

/** More categories than the built-in catalog has; the filter never lists more. */
const MAX_CATEGORIES = 50

/**
 * Live feeds, built-in and provider, with price, category, freshness and the
 * registry's rollup stats: what the marketplace pages show. PostgreSQL
 * searches, filters, orders and cuts the list into pages over `feeds` and
 * their one-row rollups; the query log is never read.
 */
@inject()
export class MarketCatalog {
  constructor(
    private db: Database,
    private clock: Clock,
    private availability: FeedAvailability,
    private sources: FeedSourceManager
  ) {}

  /** One page of the live feeds matching the filter, in catalog order. */
  async page({ q, category }: MarketFilter, request: PageRequest): Promise<Page<MarketFeed>> {
    const query = mentioning(this.#listed(), q)
    if (category) query.whereRaw('coalesce(feeds.category, ?) = ?', [PROVIDER_CATEGORY, category])
    const page = await paginate<CatalogRow>(query, request)
    return { ...page, rows: await this.#entries(page.rows) }
  }

  /**
   * The categories of the live feeds with their counts (the filter's
   * choices), built-in ones by name then providers' feeds, and how many live
   * feeds there are in all: one grouped query.
   */
  async categories() {
    const rows = await liveFeeds(this.db)
      .select(
        this.db.raw('coalesce(feeds.category, ?) AS name', [PROVIDER_CATEGORY]),
        this.db.raw('count(*)::int AS count'),
        this.db.raw('(sum(count(*)) OVER ())::int AS live')
      )
      .groupByRaw('feeds.category')
      .orderByRaw('feeds.category NULLS LAST')
      .limit(MAX_CATEGORIES)
    return {
      live: rows.length ? (rows[0].live as number) : 0,
      categories: rows.map((row) => ({
        name: row.name as string,
        label: row.name === PROVIDER_CATEGORY ? 'From providers' : (row.name as string),
        count: row.count as number,
      })),
    }
  }

  /** One live feed by its name (`whale-alerts` or `acme-data/btc-price`), or null. */
  async find(name: string): Promise<MarketFeed | null> {
    const [handle, slug] = name.includes('/') ? name.split('/', 2) : [null, name]
    const query = this.#listed().where('feeds.slug', slug)
    if (handle === null) query.whereNull('feeds.provider_id')
    else query.where('providers.handle', handle)
    const row = (await query.first()) as CatalogRow | null
    if (!row) return null
    const [entry] = await this.#entries([row])
    return entry
  }

  /** Live feeds with what a card shows, in catalog order. */
  #listed() {
    return inCatalogOrder(liveFeeds(this.db))
      .leftJoin('feed_stats', 'feed_stats.feed_id', 'feeds.id')
      .select(
        'feeds.id',
        'feeds.slug',
        'feeds.display_name',
        'feeds.description',
        'feeds.category',
        'feeds.price_microstx',
        'feeds.source_type',
        'feeds.source_settings',
        'feeds.update_frequency',
        'providers.handle',
        'providers.display_name as provider_name',
        this.db.raw(
          `(SELECT max(s.fetched_at) FROM feed_snapshots s WHERE s.feed_id = feeds.id) AS last_fetched_at`
        ),
        ...FEED_STATS_COLUMNS
      )
  }

  async #entries(rows: CatalogRow[]): Promise<MarketFeed[]> {
    const withoutData = await this.availability.withoutData(
      rows.map((row) => ({ id: row.id, sourceType: row.source_type }))
    )
    return rows.map((row) => this.#entry(row, !withoutData.has(row.id)))
  }

  #entry(row: CatalogRow, hasData: boolean): MarketFeed {
    const price = parseMicrostx(row.price_microstx)
    const name = row.handle ? `${row.handle}/${row.slug}` : row.slug
    return {
      id: row.id,
      name,
      displayName: row.display_name,
      description: row.description ?? '',
      category: row.category ?? PROVIDER_CATEGORY,
      provider: row.handle ? { handle: row.handle, displayName: row.provider_name ?? '' } : null,
      priceMicrostx: price.toString(),
      priceStx: formatStx(price),
      freshness: this.#freshness(row),
      stats: summariseStats(row),
      hasData,
      ...feedPaths(name),
    }
  }

  /** In the words of the feed's driver declaration (config/feeds.ts). */
  #freshness(row: CatalogRow): string {
    const lastStored = row.last_fetched_at
      ? timeAgo(new Date(row.last_fetched_at).getTime(), this.clock.now())
      : null
    const declaration = this.sources.declaration(row.source_type)
    if (!declaration) return lastStored ? `Last updated ${lastStored}` : 'Live'
    return declaration.freshness({
      sourceSettings: row.source_settings ?? {},
      updateFrequency: row.update_frequency,
      lastStored,
    })
  }
}
