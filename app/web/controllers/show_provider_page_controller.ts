import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { PublicProfiles } from '#provider_accounts/public_profiles'
import { feedPaths } from '#web/feed_paths'

/** /market/providers/<handle>: a provider's profile, its live feeds and manifest badge. */
@inject()
export default class ShowProviderPageController {
  constructor(private profiles: PublicProfiles) {}

  async handle({ params, view }: HttpContext) {
    const profile = await this.profiles.show(params.handle)
    return view.render('pages/market/provider', {
      profile,
      feeds: profile.feeds.map((feed) => ({
        ...feed,
        ...feedPaths(`${profile.handle}/${feed.slug}`),
      })),
    })
  }
}
