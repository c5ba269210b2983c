import { defineError } from '#core/error_codes'

/** A NUL character anywhere in the URL or the body: no identifier or text field accepts one. */
export const E_INVALID_CHARACTERS = defineError(
  'invalid_characters',
  'The request contains a NUL character, which no path segment, parameter or field accepts'
)
