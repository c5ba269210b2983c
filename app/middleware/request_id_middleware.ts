import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import logger from '@adonisjs/core/services/logger'

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * Every request has the framework's id (`request.id()`, config/app.ts
 * `generateRequestId`), which takes the caller's `x-request-id` as it is:
 * here one that is not a sane token is dropped for a fresh id. The id is
 * echoed in the response, carried by every log line of the request, and
 * closes the request with one log line.
 */
export default class RequestIdMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const incoming = ctx.request.header('x-request-id')
    if (incoming !== undefined && !SAFE_REQUEST_ID.test(incoming)) {
      delete ctx.request.request.headers['x-request-id']
      // The framework built ctx.logger with the refused id.
      ctx.logger = logger.child({ request_id: ctx.request.id() })
    }
    ctx.response.setRequestId()

    const started = process.hrtime.bigint()
    try {
      await next()
    } finally {
      ctx.logger.info(
        {
          method: ctx.request.method(),
          path: ctx.request.url(),
          status: ctx.response.getStatus(),
          duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request completed'
      )
    }
  }
}
