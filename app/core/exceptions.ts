import { Exception } from '@adonisjs/core/exceptions'
import { defineError } from '#core/error_codes'

/** A NUL character anywhere in the URL or the body: no identifier or text field accepts one. */
export const E_INVALID_CHARACTERS = defineError(
  'invalid_characters',
  'The request contains a NUL character, which no path segment, parameter or field accepts'
)

/** A request body that is not JSON, the only body this API reads (curl -d sends a form). */
export const E_UNSUPPORTED_MEDIA_TYPE = defineError<[sentAs: string]>(
  'unsupported_media_type',
  'The body was sent %s: send it as JSON with Content-Type: application/json'
)

/**
 * An exception whose JSON body carries machine-readable details beside its
 * code and message (e.g. the feed id a mistyped one probably meant).
 */
export abstract class DetailedException extends Exception {
  abstract readonly details: Record<string, string>
}

/** A body declared larger than the body parser's limit (config/bodyparser.ts: 1 MB). */
export const E_REQUEST_ENTITY_TOO_LARGE = defineError(
  'request_entity_too_large',
  'The request body is over 1 MB'
)

/** The rate limiter's store (config/limiter.ts) failed or timed out: refused rather than let through uncounted. */
export const E_RATE_LIMITER_UNAVAILABLE = defineError(
  'rate_limiter_unavailable',
  'The rate limits could not be checked just now: try again in a few seconds'
)
