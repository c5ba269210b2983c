import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { PublicProfiles } from '#provider_accounts/public_profiles'

/** GET /providers and GET /providers/:handle: what anyone may see. */
@inject()
export default class PublicProvidersController {
  constructor(private profiles: PublicProfiles) {}

  index() {
    return this.profiles.list()
  }

  show({ params }: HttpContext) {
    return this.profiles.show(String(params.handle))
  }
}
