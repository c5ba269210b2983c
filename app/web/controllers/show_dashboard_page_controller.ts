import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import type { DashboardProps } from '#web/page_context'

/**
 * The provider pages (/dashboard/…): a shell whose island signs in with the
 * wallet and then calls the owner API with the session's bearer token, as
 * any client of the API would. The server renders no owner data itself;
 * it hands the island the feed sources providers may choose, from the
 * drivers' declarations, so a new driver needs no page change.
 */
@inject()
export default class ShowDashboardPageController {
  constructor(private sources: FeedSourceManager) {}

  async handle({ params, route, view }: HttpContext) {
    const props: DashboardProps = {
      screen: route?.name?.replace(/^web\.dashboard\.?/, '') || 'home',
      providerId: params.id ?? null,
      slug: params.slug ?? null,
      sources: this.sources.choices(),
    }
    return view.render('pages/dashboard', { props })
  }
}
