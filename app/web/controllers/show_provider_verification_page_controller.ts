import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ManifestVerifier } from '#provider_accounts/manifest/manifest_verifier'

/**
 * /market/providers/<handle>/verification: the manifest verification report
 * as a page, each check with its result and message (the JSON stays at
 * GET /providers/<handle>/manifest).
 */
@inject()
export default class ShowProviderVerificationPageController {
  constructor(private verifier: ManifestVerifier) {}

  async handle({ params, view }: HttpContext) {
    const report = await this.verifier.report(String(params.handle))
    return view.render('pages/market/provider_verification', { report })
  }
}
