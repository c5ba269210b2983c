import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import bodyParserConfig from '#config/bodyparser'
import { E_UNSUPPORTED_MEDIA_TYPE } from '#core/exceptions'

/**
 * Every body this API reads is JSON. One sent as anything else (`curl -d`
 * sends application/x-www-form-urlencoded, fetch a string as text/plain) is
 * refused before the body parser reads it as a form or text, which the
 * validators would then report as missing fields.
 */
export default class RequireJsonBodyMiddleware {
  handle({ request }: HttpContext, next: NextFn) {
    const { allowedMethods, json } = bodyParserConfig
    if (allowedMethods.includes(request.method()) && hasBody(request) && !request.is(json.types)) {
      const contentType = request.header('content-type')?.split(';')[0].trim()
      throw new E_UNSUPPORTED_MEDIA_TYPE([
        contentType ? `as ${contentType}` : 'without a Content-Type',
      ])
    }
    return next()
  }
}

function hasBody(request: HttpContext['request']) {
  return (
    request.header('transfer-encoding') !== undefined ||
    Number(request.header('content-length') ?? 0) > 0
  )
}
