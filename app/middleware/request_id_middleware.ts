import { randomUUID } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import logger from '@adonisjs/core/services/logger'

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * Gives every request an id: the caller's `x-request-id` when it is a sane
 * token, a fresh UUID otherwise. The id is echoed in the response, carried by
 * every log line of the request, and closes the request with one log line.
 */
export default class RequestIdMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const incoming = ctx.request.header('x-request-id')
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID()
    ctx.request.request.headers['x-request-id'] = requestId
    ctx.logger = logger.child({ request_id: requestId })
    ctx.response.header('x-request-id', requestId)

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
