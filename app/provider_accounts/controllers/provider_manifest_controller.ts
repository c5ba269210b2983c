import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ManifestVerifier } from '#provider_accounts/manifest/manifest_verifier'

/** GET /providers/:handle/manifest: the provider's discovery-manifest verification report. */
@inject()
export default class ProviderManifestController {
  constructor(private verifier: ManifestVerifier) {}

  handle({ params }: HttpContext) {
    return this.verifier.report(String(params.handle))
  }
}
