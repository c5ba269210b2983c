import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { PublicStats } from '#stats/public_stats'
import { MarketCatalog } from '#web/market_catalog'
import { categoriesOf } from '#web/categories'

/** Paid calls the home page's live activity shows. */
const RECENT_CALLS = 8

/** GET /: the marketplace, every live feed with its price, freshness and stats. */
@inject()
export default class ShowHomePageController {
  constructor(
    private catalog: MarketCatalog,
    private stats: PublicStats
  ) {}

  async handle({ view }: HttpContext) {
    const [feeds, stats, activity] = await Promise.all([
      this.catalog.list(),
      this.stats.stats(),
      this.stats.activity(RECENT_CALLS),
    ])
    return view.render('pages/market/home', {
      feeds,
      categories: categoriesOf(feeds),
      totals: {
        queries: stats.total_queries_served,
        uptime: stats.uptime_percent,
        agents: activity.unique_agents,
        revenueStx: activity.total_revenue_stx,
      },
      activity,
      activityLimit: RECENT_CALLS,
    })
  }
}
