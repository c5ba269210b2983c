import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { PublicStats } from '#stats/public_stats'
import { MarketCatalog } from '#web/market_catalog'
import { listHref, listPage, pager } from '#web/pager'
import { MAX_SEARCH_LENGTH, marketQueryValidator } from '#web/validators'

/** Paid calls the home page's live activity shows. */
const RECENT_CALLS = 8

/** The list's anchor on the page: its links bring the reader back to it. */
const LIST = 'feeds'

/**
 * GET /: the marketplace. One page of the live feeds matching the search and
 * category in the address (`/?q=…&category=…&page=…`), with price,
 * freshness and stats; the categories to filter by; the totals and the live
 * activity.
 */
@inject()
export default class ShowHomePageController {
  constructor(
    private catalog: MarketCatalog,
    private stats: PublicStats
  ) {}

  async handle({ request, view }: HttpContext) {
    const { q, category, page } = await request.validateUsing(marketQueryValidator, {
      data: request.qs(),
    })
    const [feeds, { live, categories }, totals, activity] = await Promise.all([
      this.catalog.page({ q, category }, listPage(page)),
      this.catalog.categories(),
      this.stats.totals(),
      this.stats.activity(RECENT_CALLS),
    ])
    const path = request.url()
    const choice = (name: string | undefined) => ({
      href: listHref(path, { q, category: name }, LIST),
      current: (category || undefined) === name,
    })
    return view.render('pages/market/home', {
      feeds: feeds.rows,
      pager: pager(feeds, path, { q, category }, LIST),
      filter: { q: q ?? '', category: category ?? '', maxLength: MAX_SEARCH_LENGTH },
      categories: [
        { label: 'All', count: live, ...choice(undefined) },
        ...categories.map(({ name, label, count }) => ({ label, count, ...choice(name) })),
      ],
      totals: {
        live,
        queries: totals.total_queries,
        agents: activity.unique_agents,
        revenueStx: activity.total_revenue_stx,
      },
      activity,
      activityLimit: RECENT_CALLS,
    })
  }
}
