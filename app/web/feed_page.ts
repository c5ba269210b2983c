import { inject } from '@adonisjs/core'
import { E_FEED_NOT_FOUND } from '#feeds/exceptions'
import { feedDeclaration } from '#feeds/feed_declaration'
import { FeedDirectory } from '#feeds/feed_directory'
import Feed from '#models/feed'
import { PublicStats } from '#stats/public_stats'
import { MarketCatalog } from '#web/market_catalog'
import { shapeOf } from '#web/response_shape'
import { buySnippets } from '#web/buy_snippets'
import { siteContext } from '#web/site'

const RECENT_PURCHASES = 10

/**
 * Everything a feed's page shows: the catalog entry, its newest paid calls,
 * its query parameters and the shape of its answer as declared
 * (feed_declaration.ts) — never a served document or a paid answer.
 */
@inject()
export class FeedPage {
  constructor(
    private catalog: MarketCatalog,
    private stats: PublicStats,
    private directory: FeedDirectory
  ) {}

  async show(name: string) {
    const feed = await this.catalog.find(name)
    if (!feed) throw new E_FEED_NOT_FOUND(name, await this.directory.closestTo(name))
    const [activity, row] = await Promise.all([
      this.stats.activity(RECENT_PURCHASES, name),
      Feed.findOrFail(feed.id),
    ])
    const declaration = feedDeclaration(row)
    return {
      feed,
      recent: activity,
      recentLimit: RECENT_PURCHASES,
      snippets: buySnippets(siteContext(), feed.endpoint, feed.priceStx),
      query: declaration.query,
      shape: declaration.output && JSON.stringify(shapeOf(declaration.output.schema), null, 2),
    }
  }
}
