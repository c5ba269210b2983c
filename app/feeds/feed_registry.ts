import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { PlatformWallet } from '#chain/platform_wallet'
import { FEED_STATS_COLUMNS, summariseStats, type FeedStatsRow } from '#feeds/feed_stats'
import { formatStx, parseMicrostx, stxNumber } from '#ledger/money'
import { paidFeedPath } from '#feeds/feed_paths'
import { liveFeeds } from '#feeds/live_feeds'
import { ChainConfig } from '#chain/define_config'

/** The registry's `version`: a constant of the spec, not the package's version. */
const REGISTRY_VERSION = '1.0.0'

/**
 * GET /registry/feeds: every live built-in feed with its price and rollup
 * stats (the spec's registry); providers' feeds are listed a page at a time
 * by GET /registry/provider-feeds (ProviderFeedRegistry).
 */
@inject()
export class FeedRegistry {
  constructor(
    private db: Database,
    private wallet: PlatformWallet,
    private chain: ChainConfig
  ) {}

  async list() {
    const network = this.chain.network
    const rows = await liveFeeds(this.db)
      .leftJoin('feed_stats', 'feed_stats.feed_id', 'feeds.id')
      .whereNull('feeds.provider_id')
      .orderBy('feeds.created_at')
      .orderBy('feeds.slug')
      .select(
        'feeds.slug',
        'feeds.description',
        'feeds.category',
        'feeds.update_frequency',
        'feeds.price_microstx',
        ...FEED_STATS_COLUMNS
      )

    return {
      protocol: 'x402',
      version: REGISTRY_VERSION,
      description: 'Tollbooth: pay-per-call JSON data feeds, paid per request in STX',
      provider: this.wallet.address,
      payment_protocol: 'x402 v2',
      settlement: `STX transfer on Stacks ${network.name} (${network.caip2}), confirmed on-chain`,
      feeds: rows.map((row) => {
        const price = parseMicrostx(row.price_microstx)
        return {
          id: row.slug as string,
          endpoint: paidFeedPath({ id: row.slug as string }),
          price_stx: stxNumber(price),
          price_display: `${formatStx(price)} STX`,
          description: row.description as string,
          category: row.category as string,
          update_frequency: row.update_frequency as string,
          stats: summariseStats(row as Partial<FeedStatsRow>),
        }
      }),
    }
  }
}
