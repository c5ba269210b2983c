import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ManageFeeds } from '#provider_accounts/actions/manage_feeds'
import { manifestTemplate } from '#provider_accounts/manifest/manifest_template'

/** GET /providers/id/:id/manifest/template: the manifest the owner serves to be verified. */
@inject()
export default class ManifestTemplateController {
  constructor(private feeds: ManageFeeds) {}

  async handle({ ownedProvider }: HttpContext) {
    return manifestTemplate(ownedProvider, await this.feeds.liveFeeds(ownedProvider))
  }
}
