import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { PublicProfiles } from '#provider_accounts/public_profiles'

/** /market/providers: every active provider. */
@inject()
export default class ShowProvidersPageController {
  constructor(private profiles: PublicProfiles) {}

  async handle({ view }: HttpContext) {
    return view.render('pages/market/providers', await this.profiles.list())
  }
}
