import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { DocumentIntake } from '#feeds/document_intake'
import { E_FEED_NOT_FOUND, E_FEED_PAUSED } from '#feeds/exceptions'
import type { FeedSnapshot } from '#feeds/feed_snapshots'
import { PushSignatures, type SignedPush } from '#feeds/push_signatures'
import Feed from '#models/feed'

/**
 * `POST /ingest/:handle/:slug`: a webhook_push feed's provider sends its
 * new document, signed with the feed's push secret. Checked in this order —
 * the feed exists and takes pushes, the signature (its id remembered), the
 * feed is active, the document — all in one transaction, so a refusal at
 * any point changes nothing and leaves the push id unused.
 */
@inject()
export class ReceivePush {
  constructor(
    private db: Database,
    private signatures: PushSignatures,
    private intake: DocumentIntake
  ) {}

  async execute(handle: string, slug: string, push: SignedPush): Promise<FeedSnapshot> {
    const feed = await Feed.query()
      .whereNull('deleted_at')
      .where('slug', slug)
      .whereHas('provider', (provider) => provider.where('handle', handle))
      .first()
    if (!feed) throw new E_FEED_NOT_FOUND(`${handle}/${slug}`)
    const receives = await this.intake.receiving(feed, 'push')
    return this.db.transaction(async (trx) => {
      await this.signatures.verify(feed, handle, push, trx)
      if (feed.status !== 'active') throw new E_FEED_PAUSED([slug])
      return this.intake.accept(feed, push.body, receives, trx)
    })
  }
}
