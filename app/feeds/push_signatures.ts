import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { Clock } from '#core/clock'
import {
  E_PUSH_REPLAYED,
  E_PUSH_SIGNATURE_INVALID,
  E_PUSH_SIGNATURE_MALFORMED,
  E_PUSH_SIGNATURE_MISSING,
  E_PUSH_TIMESTAMP_STALE,
} from '#feeds/exceptions'
import { pushSecrets } from '#feeds/push_secrets'
import type Feed from '#models/feed'
import { type VerifyFailureReason, verifyTollboothRequest } from '#partner_verifier'

export const DEFAULT_PUSH_TOLERANCE_SECONDS = 300
const MAX_PUSH_ID_LENGTH = 200

export interface SignedPush {
  method: string
  /** The path and query of the request line. */
  url: string
  headers: Record<string, string | string[] | undefined>
  body: string | null
}

/**
 * Verifies a webhook push: Tollbooth signature v1 (the Partner Bridge
 * scheme, in the other direction) under the feed's push secret, with the
 * shipped verifier. Its id is remembered in push_receipts through `trx`, so
 * a refused or rolled-back push leaves it unused, and a replay is refused on
 * every app instance.
 */
@inject()
export class PushSignatures {
  constructor(private clock: Clock) {}

  get toleranceSeconds(): number {
    return app.config.get<number>('feeds.push.toleranceSeconds', DEFAULT_PUSH_TOLERANCE_SECONDS)
  }

  async verify(
    feed: Feed,
    handle: string,
    push: SignedPush,
    trx: TransactionClientContract
  ): Promise<void> {
    const key = pushSecrets.keyOf(feed.pushKeyEncrypted)
    if (!key) {
      throw new E_PUSH_SIGNATURE_INVALID([
        'The feed has no push secret yet: rotate one (POST …/feeds/:slug/push-secret/rotate)',
      ])
    }
    const id = push.headers['x-tollbooth-id']
    if (typeof id === 'string' && id.length > MAX_PUSH_ID_LENGTH) {
      throw new E_PUSH_SIGNATURE_MALFORMED([
        `X-Tollbooth-Id must be at most ${MAX_PUSH_ID_LENGTH} characters (a UUID v4 is best)`,
      ])
    }
    const now = this.clock.now()
    await trx
      .from('push_receipts')
      .where('feed_id', feed.id)
      .where('expires_at', '<=', new Date(now))
      .delete()
    const result = await verifyTollboothRequest({
      key,
      method: push.method,
      url: push.url,
      headers: push.headers,
      body: push.body ?? '',
      now,
      toleranceSeconds: this.toleranceSeconds,
      replayStore: {
        checkAndRemember: async (pushId, expiresAtMs) => {
          const remembered = await trx.rawQuery(
            `INSERT INTO push_receipts (feed_id, push_id, expires_at) VALUES (?, ?, ?)
             ON CONFLICT (feed_id, push_id) DO NOTHING RETURNING 1`,
            [feed.id, pushId, new Date(expiresAtMs)]
          )
          return remembered.rows.length === 1
        },
      },
    })
    if (!result.ok) throw this.#refusal(result.reason)
    if (result.provider !== handle) {
      throw new E_PUSH_SIGNATURE_INVALID([
        `X-Tollbooth-Provider must be the feed's provider handle, ${handle}`,
      ])
    }
  }

  #refusal(reason: VerifyFailureReason) {
    switch (reason) {
      case 'missing_headers':
        return new E_PUSH_SIGNATURE_MISSING()
      case 'malformed_signature':
        return new E_PUSH_SIGNATURE_MALFORMED([
          'X-Tollbooth-Signature must be v1= followed by 64 hex digits',
        ])
      case 'stale_timestamp':
        return new E_PUSH_TIMESTAMP_STALE([this.toleranceSeconds])
      case 'bad_signature':
        return new E_PUSH_SIGNATURE_INVALID([
          "The signature does not match: sign v1, POST, this path, the timestamp, the id and the body's SHA-256 with the feed's push secret",
        ])
      case 'replayed':
        return new E_PUSH_REPLAYED()
    }
  }
}
