import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ManageFeeds } from '#provider_accounts/actions/manage_feeds'
import { manifestTemplate } from '#provider_accounts/manifest/manifest_template'
import { ownedProvider } from '#provider_accounts/provider_access'

/** GET /providers/id/:id/manifest/template: the manifest the owner serves to be verified. */
@inject()
export default class ManifestTemplateController {
  constructor(private feeds: ManageFeeds) {}

  async handle({ auth, params }: HttpContext) {
    const provider = await ownedProvider(String(params.id), auth.getUserOrFail().walletAddress)
    return manifestTemplate(provider, await this.feeds.liveFeeds(provider))
  }
}
