import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { DateTime } from 'luxon'
import { Clock } from '#core/clock'
import { FeedCache } from '#feeds/feed_cache'
import { FeedDirectory } from '#feeds/feed_directory'
import { declaredOutput } from '#feeds/output_schema'
import Feed from '#models/feed'
import { newFeed } from '#provider_accounts/new_feed'
import type Provider from '#models/provider'
import { E_SLUG_TAKEN } from '#provider_accounts/exceptions'
import { FeedCaps } from '#provider_accounts/feed_caps'
import { FeedSourceChange } from '#provider_accounts/feed_source_change'
import { FeedSources } from '#provider_accounts/feed_sources'
import { liveFeedOf, lockedProvider } from '#provider_accounts/provider_access'
import { isUniqueViolation } from '#provider_accounts/unique_violation'
import type { FeedInput, FeedUpdate } from '#provider_accounts/validators'

/**
 * A provider's feeds: create, edit, pause/resume, delete, of the owned
 * provider (`ctx.ownedProvider`). Every change runs with the provider row
 * locked; those that can add to a feed count are held to the feed caps.
 * Deleting keeps the row (payments and history point at it) and frees the slug.
 */
@inject()
export class ManageFeeds {
  constructor(
    private feedSources: FeedSources,
    private directory: FeedDirectory,
    private cache: FeedCache,
    private sourceChange: FeedSourceChange,
    private caps: FeedCaps,
    private clock: Clock
  ) {}

  /** The provider's live (not deleted) feeds, oldest first. */
  liveFeeds(provider: Provider, client?: TransactionClientContract) {
    return Feed.query(client ? { client } : undefined)
      .where('provider_id', provider.id)
      .whereNull('deleted_at')
      .orderBy('created_at')
      .orderBy('slug')
  }

  async create(owned: Provider, input: FeedInput) {
    const output = declaredOutput(input)
    return this.#change(owned, async (provider, trx) => {
      const source = await this.feedSources.resolve(provider.integrationMode, input)
      try {
        const { feed, pushSecret } = newFeed(provider.id, input, source, output, this.#now())
        await this.caps.guard(provider.ownerWallet, trx, () => feed.useTransaction(trx).save())
        if (provider.status === 'pending') {
          provider.status = 'active'
          await provider.useTransaction(trx).save()
        }
        return { provider, feed, pushSecret }
      } catch (error) {
        if (isUniqueViolation(error, 'feeds_live_slug')) throw new E_SLUG_TAKEN([input.slug])
        throw error
      }
    })
  }

  /** Edits a feed; payloads cached under its old settings are dropped once committed. */
  async update(owned: Provider, slug: string, patch: FeedUpdate) {
    const updated = await this.#change(owned, async (provider, trx) => {
      const feed = await liveFeedOf(provider, slug, trx)
      if (patch.display_name !== undefined) feed.displayName = patch.display_name
      if (patch.description !== undefined) feed.description = patch.description
      if (patch.price_stx !== undefined) feed.priceMicrostx = patch.price_stx
      if (patch.output_schema !== undefined || patch.output_example !== undefined) {
        feed.merge(declaredOutput(patch, feed))
      }
      const changesSource =
        patch.source_path !== undefined ||
        patch.forward_query !== undefined ||
        patch.source !== undefined
      let pushSecret: string | undefined
      if (changesSource) {
        const current = feed.sourceSettings
        const source = await this.feedSources.resolve(provider.integrationMode, {
          source_path: patch.source_path ?? (current.source_path as string | undefined),
          forward_query: patch.forward_query ?? (current.forward_query as string[] | undefined),
          source: patch.source,
        })
        pushSecret = await this.caps.guard(provider.ownerWallet, trx, () =>
          this.sourceChange.apply(feed, source, trx)
        )
      } else {
        await feed.useTransaction(trx).save()
      }
      return { provider, feed, pushSecret, changesSource }
    })
    this.cache.forgetFeed(updated.feed.id)
    return updated
  }

  async setActive(owned: Provider, slug: string, active: boolean) {
    return this.#change(owned, async (provider, trx) => {
      const feed = await liveFeedOf(provider, slug, trx)
      feed.status = active ? 'active' : 'paused'
      await this.caps.guard(provider.ownerWallet, trx, () => feed.useTransaction(trx).save())
      return { provider, feed }
    })
  }

  async remove(owned: Provider, slug: string) {
    await this.#change(owned, async (provider, trx) => {
      const feed = await liveFeedOf(provider, slug, trx)
      feed.deletedAt = this.#now()
      feed.status = 'paused'
      await feed.useTransaction(trx).save()
    })
  }

  #now() {
    return DateTime.fromMillis(this.clock.now())
  }

  async #change<T>(
    owned: Provider,
    change: (provider: Provider, trx: TransactionClientContract) => Promise<T>
  ): Promise<T> {
    const result = await db.transaction(async (trx) =>
      change(await lockedProvider(owned, trx), trx)
    )
    this.directory.forget()
    return result
  }
}
