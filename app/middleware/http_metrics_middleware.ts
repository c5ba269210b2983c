import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { metrics } from '#metrics/metrics'

/**
 * Counts every answered request by its route pattern and status, once the
 * response is sent: its status is then final, whether an action or the
 * exception handler wrote it.
 */
export default class HttpMetricsMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    ctx.response.response.once('finish', () => {
      metrics.httpRequest(ctx.route?.pattern ?? 'unmatched', ctx.response.response.statusCode)
    })
    return next()
  }
}
