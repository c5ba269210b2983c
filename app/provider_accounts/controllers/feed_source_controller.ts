import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { snapshotView } from '#feeds/snapshot_view'
import { RotatePushSecret } from '#provider_accounts/actions/rotate_push_secret'
import { TestFeedSource } from '#provider_accounts/actions/test_feed_source'
import { UploadFeedDocument } from '#provider_accounts/actions/upload_feed_document'

/** A Hosted Mirror feed's source: the owner's upload, the source test, the push secret's rotation. */
@inject()
export default class FeedSourceController {
  constructor(
    private uploadDocument: UploadFeedDocument,
    private testSource: TestFeedSource,
    private rotatePushSecret: RotatePushSecret
  ) {}

  async upload({ ownedProvider, params, request }: HttpContext) {
    const snapshot = await this.uploadDocument.execute(
      ownedProvider,
      String(params.slug),
      request.raw()
    )
    return { snapshot: snapshotView(snapshot) }
  }

  async test({ ownedProvider, params }: HttpContext) {
    return this.testSource.execute(ownedProvider, String(params.slug))
  }

  async rotate({ ownedProvider, params }: HttpContext) {
    return {
      push_secret: await this.rotatePushSecret.execute(ownedProvider, String(params.slug)),
    }
  }
}
