import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { ProvidersConfig } from '#provider_accounts/define_config'
import { E_FEED_LIMIT_REACHED } from '#provider_accounts/exceptions'

/** One owner wallet's feeds: live per provider, live in all, active polled in all. */
interface FeedCounts {
  liveByProvider: Map<string, number>
  live: number
  polled: number
}

/**
 * The feed caps of config/providers.ts (`feedLimits`, docs/operations.md#feed-limits):
 * live feeds per provider, live feeds per owner wallet, active polled feeds
 * per owner wallet. Every change that can add to a count (a new feed, a
 * registration with its first feed, a resume, a source changed to a polled
 * type, a mode switch) runs through `guard`, in its writing transaction.
 */
@inject()
export class FeedCaps {
  constructor(
    private config: ProvidersConfig,
    private sources: FeedSourceManager
  ) {}

  /**
   * Runs `change` (which writes in `trx`) and refuses it, rolling the
   * transaction back, if it raised a count past its cap. A count already
   * above its cap (the cap was lowered) may stay but not grow. The owner
   * wallet's feed changes are serialised until `trx` ends (an advisory lock),
   * so two concurrent creations cannot both take the last place.
   */
  async guard<T>(
    ownerWallet: string,
    trx: TransactionClientContract,
    change: () => Promise<T>
  ): Promise<T> {
    await trx.rawQuery('SELECT pg_advisory_xact_lock(hashtext(?))', [`feeds-of:${ownerWallet}`])
    const polledTypes = await this.sources.polledNames()
    const before = await this.#counts(ownerWallet, polledTypes, trx)
    const result = await change()
    const after = await this.#counts(ownerWallet, polledTypes, trx)
    const limits = this.config.feedLimits
    const grewPast = (cap: number, now: number, was: number) => now > cap && now > was
    for (const [provider, live] of after.liveByProvider) {
      if (grewPast(limits.liveFeedsPerProvider, live, before.liveByProvider.get(provider) ?? 0)) {
        throw new E_FEED_LIMIT_REACHED([
          `a provider may have at most ${limits.liveFeedsPerProvider} live feeds (active or paused); delete one first`,
        ])
      }
    }
    if (grewPast(limits.liveFeedsPerOwner, after.live, before.live)) {
      throw new E_FEED_LIMIT_REACHED([
        `the providers of one owner wallet may have at most ${limits.liveFeedsPerOwner} live feeds in all (active or paused); delete one first`,
      ])
    }
    if (grewPast(limits.polledFeedsPerOwner, after.polled, before.polled)) {
      throw new E_FEED_LIMIT_REACHED([
        `the providers of one owner wallet may have at most ${limits.polledFeedsPerOwner} active feeds that Tollbooth polls (${polledTypes.join(', ')}); pause or delete one, or have the others pushed or uploaded`,
      ])
    }
    return result
  }

  async #counts(
    ownerWallet: string,
    polledTypes: string[],
    trx: TransactionClientContract
  ): Promise<FeedCounts> {
    const result = await trx.rawQuery(
      `SELECT f.provider_id, count(*) AS live,
              count(*) FILTER (WHERE f.status = 'active' AND f.source_type = ANY(?)) AS polled
       FROM feeds f JOIN providers p ON p.id = f.provider_id
       WHERE p.owner_wallet = ? AND f.deleted_at IS NULL
       GROUP BY f.provider_id`,
      [polledTypes, ownerWallet]
    )
    const rows = result.rows as { provider_id: string; live: string; polled: string }[]
    return {
      liveByProvider: new Map(rows.map((row) => [row.provider_id, Number(row.live)])),
      live: rows.reduce((sum, row) => sum + Number(row.live), 0),
      polled: rows.reduce((sum, row) => sum + Number(row.polled), 0),
    }
  }
}
