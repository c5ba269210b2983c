import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { PublicProfiles } from '#provider_accounts/public_profiles'
import { listPage, pager } from '#web/pager'
import { listPageValidator } from '#web/validators'

/** /market/providers: the active providers, a page at a time (`?page=`). */
@inject()
export default class ShowProvidersPageController {
  constructor(private profiles: PublicProfiles) {}

  async handle({ request, view }: HttpContext) {
    const { page } = await request.validateUsing(listPageValidator, { data: request.qs() })
    const providers = await this.profiles.listPage(listPage(page))
    return view.render('pages/market/providers', {
      providers: providers.rows,
      pager: pager(providers, request.url(), {}, 'providers'),
    })
  }
}
