import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { FeedPage } from '#web/feed_page'

/** A feed's page: /market/feeds/<id> and /market/feeds/p/<handle>/<slug>. */
@inject()
export default class ShowFeedPageController {
  constructor(private feedPage: FeedPage) {}

  async builtin({ params, view }: HttpContext) {
    return view.render('pages/market/feed', await this.feedPage.show(params.id))
  }

  async provider({ params, view }: HttpContext) {
    return view.render(
      'pages/market/feed',
      await this.feedPage.show(`${params.handle}/${params.slug}`)
    )
  }
}
