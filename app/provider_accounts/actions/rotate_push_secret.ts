import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { Clock } from '#core/clock'
import { DocumentIntake } from '#feeds/document_intake'
import { issuePushSecret } from '#feeds/push_secrets'
import type Provider from '#models/provider'
import { liveFeedOf } from '#provider_accounts/provider_access'

/**
 * A new push secret for a webhook_push feed, shown once. The old one stops
 * at once: every push reads the feed's key.
 */
@inject()
export class RotatePushSecret {
  constructor(
    private intake: DocumentIntake,
    private clock: Clock
  ) {}

  async execute(provider: Provider, slug: string): Promise<string> {
    return db.transaction(async (trx) => {
      const feed = await liveFeedOf(provider, slug, trx)
      await this.intake.receiving(feed, 'push')
      const secret = issuePushSecret(feed, DateTime.fromMillis(this.clock.now()))
      await feed.useTransaction(trx).save()
      return secret
    })
  }
}
