import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ReceivePush } from '#feeds/actions/receive_push'
import { snapshotView } from '#feeds/snapshot_view'

/** POST /ingest/:handle/:slug — a signed webhook push becomes the feed's current snapshot. */
@inject()
export default class IngestPushController {
  constructor(private receivePush: ReceivePush) {}

  async handle({ params, request, response }: HttpContext) {
    const snapshot = await this.receivePush.execute(String(params.handle), String(params.slug), {
      method: request.method(),
      url: request.url(true),
      headers: request.headers(),
      body: request.raw(),
    })
    return response.status(202).send({ accepted: true, snapshot: snapshotView(snapshot) })
  }
}
