import { inject } from '@adonisjs/core'
import { DocumentIntake } from '#feeds/document_intake'
import { E_FEED_NOT_FOUND, E_FEED_PAUSED, E_PUSH_SIGNATURE_INVALID } from '#feeds/exceptions'
import type { FeedSnapshot } from '#feeds/feed_snapshots'
import { PushSignatures, type SignedPush } from '#feeds/push_signatures'
import Feed from '#models/feed'
import { consumeRateLimit } from '#start/limiter'

/**
 * `POST /ingest/:handle/:slug`: a webhook_push feed's provider sends its
 * new document, signed with the feed's push secret. In order: the feed
 * exists and takes pushes; the signature (no database write for a push that
 * fails it); the feed's push rate limit, which only verified pushes count
 * (feed addresses are public: anyone else's pushes must not use it up); the
 * document; then, with the feed's row locked, its push secret is still the
 * one that verified, the id is new, and the feed is active.
 * A refusal at any point changes nothing and leaves the push id unused.
 */
@inject()
export class ReceivePush {
  constructor(
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
    await this.intake.receiving(feed, 'push')
    const verified = await this.signatures.verify(feed, handle, push)
    await consumeRateLimit('ingest', `feed_${feed.id}`)
    return this.intake.accept(feed, 'push', push.body, async (locked, trx) => {
      if (locked.pushKeyEncrypted !== feed.pushKeyEncrypted) {
        throw new E_PUSH_SIGNATURE_INVALID([
          'The push secret was just rotated: sign with the new one',
        ])
      }
      await this.signatures.remember(locked.id, verified, trx)
      if (locked.status !== 'active') throw new E_FEED_PAUSED([slug])
    })
  }
}
