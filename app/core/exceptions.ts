import { createError } from '@adonisjs/core/exceptions'

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
