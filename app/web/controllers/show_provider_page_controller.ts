import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { PublicProfiles } from '#provider_accounts/public_profiles'
import { feedPaths } from '#feeds/feed_paths'
import { listPage, pager } from '#web/pager'
import { listPageValidator } from '#web/validators'

/** /market/providers/<handle>: a provider's profile, its live feeds a page at a time, its manifest badge. */
@inject()
export default class ShowProviderPageController {
  constructor(private profiles: PublicProfiles) {}

  async handle({ params, request, view }: HttpContext) {
    const { page } = await request.validateUsing(listPageValidator, { data: request.qs() })
    const { profile, feeds } = await this.profiles.showPage(params.handle, listPage(page))
    return view.render('pages/market/provider', {
      profile,
      feeds: feeds.rows.map((feed) => ({
        ...feed,
        ...feedPaths(`${profile.handle}/${feed.slug}`),
      })),
      pager: pager(feeds, request.url(), {}, 'pfeeds'),
    })
  }
}
