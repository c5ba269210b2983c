import { inject } from '@adonisjs/core'
import { E_FEED_NOT_FOUND } from '#feeds/exceptions'
import { FeedDirectory } from '#feeds/feed_directory'
import { FeedSnapshots } from '#feeds/feed_snapshots'
import { PaymentRecords } from '#payments/payment_records'
import { PublicStats } from '#stats/public_stats'
import { MarketCatalog } from '#web/market_catalog'
import { shapeOf } from '#web/response_shape'
import { buySnippets } from '#web/buy_snippets'
import { siteContext } from '#web/site'

const RECENT_PURCHASES = 10

/**
 * Everything a feed's page shows: the catalog entry, its newest paid calls,
 * and the shape of its response, taken from the last paid response (or, for
 * a mirror not sold yet, its current snapshot).
 */
@inject()
export class FeedPage {
  constructor(
    private payments: PaymentRecords,
    private catalog: MarketCatalog,
    private stats: PublicStats,
    private snapshots: FeedSnapshots,
    private directory: FeedDirectory
  ) {}

  async show(name: string) {
    const feed = await this.catalog.find(name)
    if (!feed) throw new E_FEED_NOT_FOUND(name, await this.directory.closestTo(name))
    const [activity, data] = await Promise.all([
      this.stats.activity(RECENT_PURCHASES, name),
      this.#exampleData(feed.id),
    ])
    return {
      feed,
      recent: activity,
      recentLimit: RECENT_PURCHASES,
      snippets: buySnippets(siteContext(), feed.endpoint, feed.priceStx),
      example:
        data === undefined
          ? null
          : JSON.stringify(
              {
                data: shapeOf(data),
                price: Number(feed.priceMicrostx),
                price_stx: feed.priceStx,
                data_source: 'string',
                last_updated: 'number (epoch ms)',
              },
              null,
              2
            ),
    }
  }

  async #exampleData(feedId: string): Promise<unknown> {
    const served = await this.payments.lastServedData(feedId)
    if (served !== undefined) return served
    const snapshot = await this.snapshots.current(feedId)
    return snapshot?.data
  }
}
