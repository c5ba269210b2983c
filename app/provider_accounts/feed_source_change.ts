import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { DateTime } from 'luxon'
import { Clock } from '#core/clock'
import { FeedSnapshots } from '#feeds/feed_snapshots'
import { grantPushSecret } from '#feeds/push_secrets'
import type Feed from '#models/feed'
import type { FeedSource } from '#provider_accounts/feed_sources'

/**
 * Gives an existing feed a new source (an edit or a mode switch), saved in
 * the caller's transaction. A polled source is due at once (FirstPoll then
 * polls it). A feed that starts receiving documents from another source type
 * starts afresh: no snapshot (buyers get 503 until the first push or upload,
 * rather than the old source's copy under the new origin) and no poll
 * state. A feed that now takes pushes gets a push secret if it has none.
 */
@inject()
export class FeedSourceChange {
  constructor(
    private snapshots: FeedSnapshots,
    private clock: Clock
  ) {}

  /** Returns a new push secret, to be shown once. */
  async apply(
    feed: Feed,
    source: FeedSource,
    trx: TransactionClientContract
  ): Promise<string | undefined> {
    const previousType = feed.sourceType
    feed.sourceType = source.sourceType
    feed.sourceSettings = source.sourceSettings
    const pushSecret = grantPushSecret(feed, source.receives, DateTime.fromMillis(this.clock.now()))
    await feed.useTransaction(trx).save()
    if (source.polled) {
      await this.snapshots.dueNow(feed.id, trx)
    } else if (source.receives && previousType !== source.sourceType) {
      await this.snapshots.startReceiving(feed.id, trx)
    }
    return pushSecret
  }
}
