import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { Clock } from '#core/clock'
import { FeedsConfig } from '#feeds/define_config'
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

const MAX_PUSH_ID_LENGTH = 200

export interface SignedPush {
  method: string
  /** The path and query of the request line. */
  url: string
  headers: Record<string, string | string[] | undefined>
  body: string | null
}

/** A push whose signature checked out: its id, remembered until its timestamp leaves the window. */
export interface VerifiedPush {
  id: string
  expiresAtMs: number
}

/**
 * Webhook push signatures: Tollbooth signature v1 (the Partner Bridge scheme,
 * in the other direction) under the feed's push secret, checked with the
 * shipped verifier without touching the database. Only a verified push's id
 * is then remembered (`remember`, in push_receipts, inside the transaction
 * that stores the document), so a refused or rolled-back push leaves it
 * unused and a replay is refused on every app instance.
 */
@inject()
export class PushSignatures {
  constructor(
    private clock: Clock,
    private config: FeedsConfig
  ) {}

  /** `push.toleranceSeconds` in config/feeds.ts. */
  get toleranceSeconds(): number {
    return this.config.push.toleranceSeconds
  }

  async verify(feed: Feed, handle: string, push: SignedPush): Promise<VerifiedPush> {
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
    let verified: VerifiedPush | undefined
    const result = await verifyTollboothRequest({
      key,
      method: push.method,
      url: push.url,
      headers: push.headers,
      body: push.body ?? '',
      now: this.clock.now(),
      toleranceSeconds: this.toleranceSeconds,
      replayStore: {
        checkAndRemember: (pushId, expiresAtMs) => {
          verified = { id: pushId, expiresAtMs }
          return true
        },
      },
    })
    if (!result.ok) throw this.#refusal(result.reason)
    if (result.provider !== handle) {
      throw new E_PUSH_SIGNATURE_INVALID([
        `X-Tollbooth-Provider must be the feed's provider handle, ${handle}`,
      ])
    }
    return verified!
  }

  /**
   * Remembers a verified push's id for the feed, or refuses a replay. Ids are
   * forgotten one tolerance after their window closed, so app instances whose
   * clocks differ by less than that never forget one another still accepts.
   */
  async remember(feedId: string, push: VerifiedPush, trx: TransactionClientContract) {
    const forgetBefore = new Date(this.clock.now() - this.toleranceSeconds * 1_000)
    await trx
      .from('push_receipts')
      .where('feed_id', feedId)
      .where('expires_at', '<=', forgetBefore)
      .delete()
    const remembered = await trx.rawQuery(
      `INSERT INTO push_receipts (feed_id, push_id, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (feed_id, push_id) DO NOTHING RETURNING 1`,
      [feedId, push.id, new Date(push.expiresAtMs)]
    )
    if (remembered.rows.length === 0) throw new E_PUSH_REPLAYED()
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
