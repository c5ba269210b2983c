import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

/**
 * What every page answers with besides its HTML: never framed by another
 * site (no clickjacking of a withdrawal), no content-type guessing, and no
 * page address sent to other sites.
 */
export default class PageHeadersMiddleware {
  handle({ response }: HttpContext, next: NextFn) {
    response.header('x-frame-options', 'DENY')
    response.header('content-security-policy', "frame-ancestors 'none'")
    response.header('x-content-type-options', 'nosniff')
    response.header('referrer-policy', 'same-origin')
    return next()
  }
}
