import { Exception, createError } from '@adonisjs/core/exceptions'

/** A NUL character anywhere in the URL or the body: no identifier or text field accepts one. */
export const E_INVALID_CHARACTERS = createError(
  'The request contains a NUL character, which no path segment, parameter or field accepts',
  'E_INVALID_CHARACTERS',
  400
)

/** A request body that is not JSON, the only body this API reads (curl -d sends a form). */
export const E_UNSUPPORTED_MEDIA_TYPE = createError<[sentAs: string]>(
  'The body was sent %s: send it as JSON with Content-Type: application/json',
  'E_UNSUPPORTED_MEDIA_TYPE',
  415
)

/**
 * An exception whose JSON body carries machine-readable details beside its
 * code and message (e.g. the feed id a mistyped one probably meant).
 */
export abstract class DetailedException extends Exception {
  abstract readonly details: Record<string, string>
}
