import { inject } from '@adonisjs/core'
import { DocumentIntake } from '#feeds/document_intake'
import { ownedFeed } from '#provider_accounts/provider_access'

/**
 * `POST …/feeds/:slug/upload`: the owner's JSON document becomes the
 * manual_upload feed's current snapshot (a paused feed too, so its data can
 * be ready before it sells again).
 */
@inject()
export class UploadFeedDocument {
  constructor(private intake: DocumentIntake) {}

  async execute(providerId: string, wallet: string, slug: string, body: string | null) {
    const { feed } = await ownedFeed(providerId, wallet, slug)
    return this.intake.accept(feed, 'upload', body)
  }
}
