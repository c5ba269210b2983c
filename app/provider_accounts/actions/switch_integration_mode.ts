import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { errors as vineErrors } from '@vinejs/vine'
import { DateTime } from 'luxon'
import { Clock } from '#core/clock'
import { FeedCache } from '#feeds/feed_cache'
import { FeedDirectory } from '#feeds/feed_directory'
import type Provider from '#models/provider'
import { E_MODE_UNCHANGED } from '#provider_accounts/exceptions'
import { FeedSourceChange } from '#provider_accounts/feed_source_change'
import { FeedSources } from '#provider_accounts/feed_sources'
import { ManageFeeds } from '#provider_accounts/actions/manage_feeds'
import { FeedCaps } from '#provider_accounts/feed_caps'
import { partnerSecrets } from '#provider_accounts/partner_secrets'
import { lockedProvider } from '#provider_accounts/provider_access'
import type { ModeSwitchInput } from '#provider_accounts/validators'

/**
 * Partner Bridge ↔ Hosted Mirror. The provider keeps its id, handle, feeds,
 * revenue and history; every live feed gets the new mode's source settings
 * (all given in the same request, validated before anything changes; the
 * active ones that become polled count towards the owner's polled-feed cap).
 * Leaving Partner Bridge revokes the secret; entering it issues a new one,
 * shown once in the answer, as are the push secrets of feeds that now take
 * webhook pushes and had none (a feed keeps its push secret across switches).
 */
@inject()
export class SwitchIntegrationMode {
  constructor(
    private feedSources: FeedSources,
    private feeds: ManageFeeds,
    private directory: FeedDirectory,
    private cache: FeedCache,
    private sourceChange: FeedSourceChange,
    private caps: FeedCaps,
    private clock: Clock
  ) {}

  async execute(owned: Provider, input: ModeSwitchInput) {
    const mode = input.integration_mode
    if (mode === 'partner_bridge' && !input.partner_endpoint) {
      throw new vineErrors.E_VALIDATION_ERROR([
        {
          field: 'partner_endpoint',
          message: 'Partner Bridge needs a partner_endpoint (an https origin)',
          rule: 'required',
        },
      ])
    }

    const result = await db.transaction(async (trx) => {
      const provider = await lockedProvider(owned, trx)
      if (provider.integrationMode === mode) throw new E_MODE_UNCHANGED([mode])

      const liveFeeds = await this.feeds.liveFeeds(provider, trx).forUpdate()
      const given = new Map((input.feeds ?? []).map((feed) => [feed.slug, feed]))
      const missing = liveFeeds.filter((feed) => !given.has(feed.slug))
      if (missing.length > 0) {
        throw new vineErrors.E_VALIDATION_ERROR(
          missing.map((feed) => ({
            field: 'feeds',
            message: `Feed "${feed.slug}" needs its ${mode} source settings`,
            rule: 'required',
          }))
        )
      }
      const sources = await Promise.all(
        liveFeeds.map((feed, index) =>
          this.feedSources.resolve(mode, given.get(feed.slug)!, `feeds.${index}.`)
        )
      )

      const secret = mode === 'partner_bridge' ? partnerSecrets.issue() : undefined
      provider.integrationMode = mode
      provider.partnerEndpoint = mode === 'partner_bridge' ? input.partner_endpoint! : null
      provider.hmacKeyEncrypted = secret?.encryptedKey ?? null
      provider.hmacSecretIssuedAt = secret ? DateTime.fromMillis(this.clock.now()) : null
      await provider.useTransaction(trx).save()
      const pushSecrets: Record<string, string> = {}
      await this.caps.guard(provider.ownerWallet, trx, async () => {
        for (const [index, feed] of liveFeeds.entries()) {
          const pushSecret = await this.sourceChange.apply(feed, sources[index], trx)
          if (pushSecret) pushSecrets[feed.slug] = pushSecret
        }
      })
      return { provider, feeds: liveFeeds, hmacSecret: secret?.secret, pushSecrets }
    })
    this.directory.forget()
    for (const feed of result.feeds) this.cache.forgetFeed(feed.id)
    return result
  }
}
