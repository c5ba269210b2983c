import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { ManageFeeds } from '#provider_accounts/actions/manage_feeds'
import { ownedProvider } from '#provider_accounts/provider_access'
import type { ProfileUpdate } from '#provider_accounts/validators'

/**
 * Edits the provider's profile (display name, description, website, X
 * account) with its row locked, ownership re-checked inside the transaction.
 * Manifest verification reads the website on every report, so a new one is
 * checked at once.
 */
@inject()
export class UpdateProviderProfile {
  constructor(private feeds: ManageFeeds) {}

  async execute(providerId: string, wallet: string, patch: ProfileUpdate) {
    const provider = await db.transaction(async (trx) => {
      const owned = await ownedProvider(providerId, wallet, trx)
      if (patch.display_name !== undefined) owned.displayName = patch.display_name
      if (patch.description !== undefined) owned.description = patch.description ?? ''
      if (patch.website !== undefined) owned.website = patch.website
      if (patch.x_account !== undefined) owned.xAccount = patch.x_account
      await owned.useTransaction(trx).save()
      return owned
    })
    return { provider, feeds: await this.feeds.liveFeeds(provider) }
  }
}
