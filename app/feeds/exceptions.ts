import { createError } from '@adonisjs/core/exceptions'
import { defineError, ERROR_CODES } from '#core/error_codes'
import { DetailedException } from '#core/exceptions'

/** The feed's source failed (time-out, 5xx, malformed or unexpected answer) and nothing fresh enough is cached. */
export const E_SOURCE_UNAVAILABLE = defineError<[feed: string]>(
  'source_unavailable',
  'The source of feed "%s" is unavailable; nothing was charged'
)

/**
 * A Hosted Mirror feed with no stored document yet (its first fetch failed,
 * or nothing was pushed or uploaded): answered before any payment is asked.
 */
export const E_NO_DATA_YET = defineError<[feed: string]>(
  'source_unavailable',
  'Feed "%s" has no data yet: its provider has not delivered its first document. No payment was asked or taken; try again later'
)

/** An unknown feed; `suggestion` is an existing one whose name is a likely typo away. */
export const E_FEED_NOT_FOUND = class FeedNotFound extends DetailedException {
  static status = ERROR_CODES.feed_not_found.status
  static code = 'E_FEED_NOT_FOUND'

  readonly details: { suggestion?: string }

  constructor(feed: string, suggestion?: string) {
    super(suggestion ? `No feed "${feed}"; did you mean "${suggestion}"?` : `No feed "${feed}"`)
    this.details = suggestion ? { suggestion } : {}
  }
}

export const E_UNKNOWN_SOURCE_DRIVER = createError<[driver: string]>(
  'No feed source driver named "%s" is configured',
  'E_UNKNOWN_SOURCE_DRIVER',
  500
)

export const E_POLL_WITHOUT_INTERVAL = createError<[driver: string]>(
  'The feed source driver "%s" has poll() without pollIntervalMs()',
  'E_POLL_WITHOUT_INTERVAL',
  500
)

export const E_FEED_UNAVAILABLE = defineError<[feed: string]>(
  'feed_unavailable',
  'Feed "%s" is paused by its provider'
)

export const E_NOT_A_PUSH_FEED = defineError<[feed: string]>(
  'not_a_push_feed',
  'Feed "%s" does not take pushes: its source type is not webhook_push'
)

export const E_NOT_AN_UPLOAD_FEED = defineError<[feed: string]>(
  'not_an_upload_feed',
  'Feed "%s" does not take uploads: its source type is not manual_upload'
)

export const E_FEED_PAUSED = defineError<[feed: string]>(
  'feed_paused',
  'Feed "%s" is paused: resume it before pushing to it'
)

export const E_DOCUMENT_TOO_LARGE = defineError<[size: number, cap: number]>(
  'document_too_large',
  'The document is %s bytes; this source type takes at most %s'
)

export const E_NOT_A_JSON_DOCUMENT = defineError<[what: string]>(
  'not_a_json_document',
  'The body must be a JSON object or array, not %s'
)

export const E_SOURCE_NOT_FETCHED = defineError<[sourceType: string]>(
  'source_not_fetched',
  'A %s source is not fetched by Tollbooth, so there is nothing to test'
)

export const E_PUSH_SIGNATURE_MISSING = defineError(
  'push_signature_missing',
  'Sign the push: X-Tollbooth-Id, X-Tollbooth-Timestamp, X-Tollbooth-Provider and X-Tollbooth-Signature are required (docs/hosted-mirror.md)'
)
export const E_PUSH_SIGNATURE_MALFORMED = defineError<[problem: string]>(
  'push_signature_malformed',
  '%s'
)
export const E_PUSH_TIMESTAMP_STALE = defineError<[tolerance: number]>(
  'push_timestamp_stale',
  "X-Tollbooth-Timestamp must be Unix seconds within %s s of Tollbooth's clock"
)
export const E_PUSH_SIGNATURE_INVALID = defineError<[problem: string]>(
  'push_signature_invalid',
  '%s'
)
export const E_PUSH_REPLAYED = defineError(
  'push_replayed',
  'A push with this X-Tollbooth-Id was already accepted; sign each push with a new id'
)
