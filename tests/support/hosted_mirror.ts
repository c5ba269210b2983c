import type { ApiClient } from '@japa/api-client'
import { signTollboothRequest } from '#partner_verifier'
import { mirrorRegistration, newOwner, registerProvider } from '#tests/support/providers'

/**
 * The Tollbooth signature v1 headers of a push of `body` to `path`
 * (`/ingest/<handle>/<slug>`), signed with `secret` as its provider's server
 * would; `overrides` set the id, the timestamp or another provider header.
 */
export function pushHeaders(
  secret: string,
  path: string,
  body: string | Uint8Array,
  overrides: { id?: string; timestamp?: number; provider?: string } = {}
) {
  return signTollboothRequest({
    secret,
    method: 'POST',
    pathAndQuery: path,
    body,
    provider: overrides.provider ?? path.split('/')[2],
    id: overrides.id,
    timestamp: overrides.timestamp,
  }) as Record<string, string>
}

/**
 * A Hosted Mirror provider mirror-co with the push feed `ticker`
 * (/ingest/mirror-co/ticker) and the upload feed `rates`: its owner's
 * token, the push secret and the upload path.
 */
export async function registerPushAndUploadFeeds(client: ApiClient) {
  const owner = await newOwner(client)
  const registered = await registerProvider(
    client,
    owner.token,
    mirrorRegistration({ type: 'webhook_push' }, 'ticker')
  )
  const uploadFeed = await client
    .post(`/providers/id/${registered.provider.id}/feeds`)
    .bearerToken(owner.token)
    .json({
      slug: 'rates',
      display_name: 'Rates',
      price_stx: '0.005',
      source: { type: 'manual_upload' },
    })
  uploadFeed.assertStatus(201)
  return {
    token: owner.token,
    pushSecret: registered.push_secret!,
    uploadPath: `/providers/id/${registered.provider.id}/feeds/rates/upload`,
  }
}

/**
 * registerPushAndUploadFeeds, with `{ rate: 1.25 }` uploaded to mirror-co/rates
 * (0.005 STX) so that a buyer of it gets data.
 */
export async function registerFeedsWithUploadedRates(client: ApiClient) {
  const feeds = await registerPushAndUploadFeeds(client)
  const upload = await client.post(feeds.uploadPath).bearerToken(feeds.token).json({ rate: 1.25 })
  upload.assertStatus(200)
  return feeds
}
