import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { errors as vineErrors } from '@vinejs/vine'
import { DateTime } from 'luxon'
import { ChainConfig } from '#chain/define_config'
import { Clock } from '#core/clock'
import { FeedDirectory } from '#feeds/feed_directory'
import { declaredOutput } from '#feeds/output_schema'
import Provider from '#models/provider'
import { generateCustodialWallet } from '#provider_accounts/custodial_wallet'
import { E_HANDLE_TAKEN } from '#provider_accounts/exceptions'
import { FeedCaps } from '#provider_accounts/feed_caps'
import { FeedSources } from '#provider_accounts/feed_sources'
import { partnerSecrets } from '#provider_accounts/partner_secrets'
import { newFeed } from '#provider_accounts/new_feed'
import { isUniqueViolation } from '#provider_accounts/unique_violation'
import type { RegistrationInput } from '#provider_accounts/validators'

/**
 * The registration wizard as one request: the provider, owned forever by the
 * signing wallet, and optionally its first feed (then it is active at once).
 * Partner Bridge providers get their secret in this answer only, as does a
 * first feed that takes webhook pushes its push secret. The first feed
 * counts towards the owner wallet's feed caps.
 */
@inject()
export class RegisterProvider {
  constructor(
    private feedSources: FeedSources,
    private directory: FeedDirectory,
    private chain: ChainConfig,
    private caps: FeedCaps,
    private clock: Clock
  ) {}

  async execute(ownerWallet: string, input: RegistrationInput) {
    if (input.integration_mode === 'partner_bridge' && !input.partner_endpoint) {
      throw new vineErrors.E_VALIDATION_ERROR([
        {
          field: 'partner_endpoint',
          message: 'Partner Bridge providers need a partner_endpoint (an https origin)',
          rule: 'required',
        },
      ])
    }
    const source = input.feed
      ? await this.feedSources.resolve(input.integration_mode, input.feed, 'feed.')
      : undefined
    const output = input.feed ? declaredOutput(input.feed, undefined, 'feed.') : undefined
    const secret = input.integration_mode === 'partner_bridge' ? partnerSecrets.issue() : undefined
    const custodial = generateCustodialWallet(this.chain.network)
    const now = DateTime.fromMillis(this.clock.now())

    try {
      const { provider, feed, pushSecret } = await db.transaction(async (trx) => {
        const created = await Provider.create(
          {
            handle: input.handle,
            displayName: input.display_name,
            description: input.description ?? '',
            website: input.website ?? null,
            xAccount: input.x_account ?? null,
            integrationMode: input.integration_mode,
            partnerEndpoint:
              input.integration_mode === 'partner_bridge' ? input.partner_endpoint! : null,
            ownerWallet,
            custodialAddress: custodial.address,
            custodialKeyEncrypted: custodial.encryptedKey,
            hmacKeyEncrypted: secret?.encryptedKey ?? null,
            hmacSecretIssuedAt: secret ? now : null,
            status: input.feed ? 'active' : 'pending',
            pendingRevenueMicrostx: 0n,
            lifetimeEarnedMicrostx: 0n,
            totalWithdrawnMicrostx: 0n,
          },
          { client: trx }
        )
        const first =
          input.feed && source && output
            ? newFeed(created.id, input.feed, source, output, now)
            : undefined
        if (first) {
          await this.caps.guard(ownerWallet, trx, () => first.feed.useTransaction(trx).save())
        }
        return { provider: created, feed: first?.feed, pushSecret: first?.pushSecret }
      })
      this.directory.forget()
      return { provider, feed, hmacSecret: secret?.secret, pushSecret }
    } catch (error) {
      if (isUniqueViolation(error, 'providers_handle_key')) throw new E_HANDLE_TAKEN([input.handle])
      throw error
    }
  }
}
