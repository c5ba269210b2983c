import { inject } from '@adonisjs/core'
import { DocumentIntake } from '#feeds/document_intake'
import type Provider from '#models/provider'
import { liveFeedOf } from '#provider_accounts/provider_access'

/**
 * `POST …/feeds/:slug/upload`: the owner's JSON document becomes the
 * manual_upload feed's current snapshot (a paused feed too, so its data can
 * be ready before it sells again).
 */
@inject()
export class UploadFeedDocument {
  constructor(private intake: DocumentIntake) {}

  async execute(provider: Provider, slug: string, body: string | null) {
    const feed = await liveFeedOf(provider, slug)
    return this.intake.accept(feed, 'upload', body)
  }
}
