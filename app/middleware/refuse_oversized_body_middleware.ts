import string from '@adonisjs/core/helpers/string'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import bodyParserConfig from '#config/bodyparser'
import { E_REQUEST_ENTITY_TOO_LARGE } from '#core/exceptions'

const LIMIT = Number(string.bytes.parse(bodyParserConfig.json.limit ?? '1mb'))

/**
 * A body whose Content-Length is over the limit is refused before a byte of
 * it is read. The body parser compares the limit with the Content-Length
 * truncated to 32 bits (`~~`), so 4 GB or 10 GB passed as ≤ 1 MB and the
 * server waited for the body instead of answering 413.
 */
export default class RefuseOversizedBodyMiddleware {
  handle({ request }: HttpContext, next: NextFn) {
    if (Number(request.header('content-length') ?? 0) > LIMIT) {
      throw new E_REQUEST_ENTITY_TOO_LARGE()
    }
    return next()
  }
}
