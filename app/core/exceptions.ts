import { createError } from '@adonisjs/core/exceptions'

/** A NUL character anywhere in the URL or the body: no identifier or text field accepts one. */
export const E_INVALID_CHARACTERS = createError(
  'The request contains a NUL character, which no path segment, parameter or field accepts',
  'E_INVALID_CHARACTERS',
  400
)
