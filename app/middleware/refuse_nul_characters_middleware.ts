import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { E_INVALID_CHARACTERS } from '#core/exceptions'
import { containsNul } from '#core/storable_json'

const NUL_IN_URL = /%00|\0/

/**
 * Refuses a NUL character in the URL (path or query, encoded or not) or in
 * any string of the parsed body before a handler sees it: PostgreSQL cannot
 * store one in text or jsonb, and no identifier or field of ours allows it.
 */
export default class RefuseNulCharactersMiddleware {
  handle({ request }: HttpContext, next: NextFn) {
    if (NUL_IN_URL.test(request.url(true)) || containsNul(request.body())) {
      throw new E_INVALID_CHARACTERS()
    }
    return next()
  }
}
