import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { ManageFeeds } from '#provider_accounts/actions/manage_feeds'
import type Provider from '#models/provider'
import { lockedProvider } from '#provider_accounts/provider_access'
import type { ProfileUpdate } from '#provider_accounts/validators'

/**
 * Edits the provider's profile (display name, description, website, X
 * account) with its row locked.
 * Manifest verification reads the website on every report, so a new one is
 * checked at once.
 */
@inject()
export class UpdateProviderProfile {
  constructor(private feeds: ManageFeeds) {}

  async execute(owned: Provider, patch: ProfileUpdate) {
    const provider = await db.transaction(async (trx) => {
      const locked = await lockedProvider(owned, trx)
      if (patch.display_name !== undefined) locked.displayName = patch.display_name
      if (patch.description !== undefined) locked.description = patch.description ?? ''
      if (patch.website !== undefined) locked.website = patch.website
      if (patch.x_account !== undefined) locked.xAccount = patch.x_account
      await locked.useTransaction(trx).save()
      return locked
    })
    return { provider, feeds: await this.feeds.liveFeeds(provider) }
  }
}
