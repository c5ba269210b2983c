import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { type PageRequest, paginate } from '#core/pagination'
import { FeedAvailability } from '#feeds/feed_availability'
import { liveFeeds } from '#feeds/live_feeds'
import { FEED_STATS_COLUMNS, summariseStats, type FeedStatsRow } from '#feeds/feed_stats'
import { formatStx, parseMicrostx, stxNumber } from '#ledger/money'
import Provider from '#models/provider'
import { E_PROVIDER_NOT_FOUND } from '#provider_accounts/exceptions'
import { feedUrl, providerIdentity } from '#provider_accounts/provider_views'

/** What anyone may see of providers: identity, links and live feeds with prices and stats. */
@inject()
export class PublicProfiles {
  constructor(
    private db: Database,
    private availability: FeedAvailability
  ) {}

  /** Every active provider (GET /providers). */
  async list() {
    const rows: ProviderRow[] = await this.#providers()
    return { providers: rows.map(providerCard) }
  }

  /** One page of the active providers (the providers page). */
  async listPage(request: PageRequest) {
    const page = await paginate<ProviderRow>(this.#providers(), request)
    return { ...page, rows: page.rows.map(providerCard) }
  }

  /** A provider's profile and every live feed of it (GET /providers/:handle). */
  async show(handle: string) {
    const provider = await this.#find(handle)
    const feeds = await this.#liveFeeds(provider)
    return { ...profileOf(provider), feeds: await this.#publicFeeds(provider, feeds) }
  }

  /** A provider's profile and one page of its live feeds (its page). */
  async showPage(handle: string, request: PageRequest) {
    const provider = await this.#find(handle)
    const feeds = await paginate<FeedRow>(this.#liveFeeds(provider), request)
    return {
      profile: profileOf(provider),
      feeds: { ...feeds, rows: await this.#publicFeeds(provider, feeds.rows) },
    }
  }

  async #publicFeeds(provider: Provider, rows: FeedRow[]) {
    const withoutData = await this.availability.withoutData(
      rows.map((row) => ({ id: row.id, sourceType: row.source_type }))
    )
    return rows.map((row) => publicFeed(provider, row, !withoutData.has(row.id)))
  }

  async #find(handle: string) {
    const provider = await Provider.findBy('handle', handle)
    if (!provider) throw new E_PROVIDER_NOT_FOUND([handle])
    return provider
  }

  /** Handles are unique, so the order is total. */
  #providers() {
    return this.db
      .from('providers')
      .where('providers.status', 'active')
      .select('handle', 'display_name', 'description', 'website', 'x_account', 'integration_mode')
      .select(
        this.db.raw(
          `(SELECT count(*) FROM feeds f WHERE f.provider_id = providers.id
             AND f.deleted_at IS NULL AND f.status = 'active')::int AS live_feeds`
        )
      )
      .orderBy('handle')
  }

  /** A provider's slugs are unique among its live feeds, so the order is total. */
  #liveFeeds(provider: Provider) {
    return liveFeeds(this.db)
      .leftJoin('feed_stats', 'feed_stats.feed_id', 'feeds.id')
      .where('feeds.provider_id', provider.id)
      .orderBy('feeds.created_at')
      .orderBy('feeds.slug')
      .select(
        'feeds.id',
        'feeds.source_type',
        'feeds.slug',
        'feeds.display_name',
        'feeds.description',
        'feeds.price_microstx',
        ...FEED_STATS_COLUMNS
      )
  }
}

interface ProviderRow {
  handle: string
  display_name: string
  description: string | null
  website: string | null
  x_account: string | null
  integration_mode: string
  live_feeds: number
}

interface FeedRow extends Partial<FeedStatsRow> {
  id: string
  source_type: string
  slug: string
  display_name: string
  description: string
  price_microstx: string
}

function providerCard(row: ProviderRow) {
  return {
    handle: row.handle,
    display_name: row.display_name,
    description: row.description,
    website: row.website,
    x_account: row.x_account,
    integration_mode: row.integration_mode,
    live_feeds: row.live_feeds,
    profile_url: `/providers/${row.handle}`,
  }
}

function profileOf(provider: Provider) {
  return {
    ...providerIdentity(provider),
    status: provider.status,
    custodial_wallet: provider.custodialAddress,
    manifest_report_url: `/providers/${provider.handle}/manifest`,
    member_since: provider.createdAt.toISO(),
  }
}

function publicFeed(provider: Provider, row: FeedRow, hasData: boolean) {
  const price = parseMicrostx(row.price_microstx)
  return {
    slug: row.slug,
    display_name: row.display_name,
    description: row.description,
    endpoint: feedUrl(provider, row),
    price_stx: stxNumber(price),
    price_display: `${formatStx(price)} STX`,
    stats: summariseStats(row),
    /** False while a Hosted Mirror feed has no data yet: a call answers 503 and asks no payment. */
    has_data: hasData,
  }
}
