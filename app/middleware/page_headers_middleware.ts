import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { setPageHeaders } from '#web/page_headers'

/** Gives every page its headers (app/web/page_headers.ts). */
export default class PageHeadersMiddleware {
  handle({ response }: HttpContext, next: NextFn) {
    setPageHeaders(response)
    return next()
  }
}
