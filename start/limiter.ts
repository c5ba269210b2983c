/*
|--------------------------------------------------------------------------
| Rate limits (throttle middleware)
|--------------------------------------------------------------------------
|
| Each throttle counts requests per key in PostgreSQL (config/limiter.ts), so
| a limit holds across instances. Anonymous routes are keyed by the client
| address (behind a load balancer it comes from TRUSTED_PROXIES), signed-in
| routes by the user (they run after middleware.auth()), a webhook push by its
| feed. The numbers are read from config/rate_limits.ts at each request; a
| refusal is rendered by app/exceptions/handler.ts.
|
*/
import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import limiter from '@adonisjs/limiter/services/main'
import type { RateLimitName, RateLimitsConfig } from '#config/rate_limits'

/**
 * Longer than any address, handle or feed slug: two clients or feeds never
 * share a key, and the key fits the table whatever a path or header says.
 */
const MAX_KEY_PART = 64

function throttled(name: RateLimitName, keyOf: (ctx: HttpContext) => string) {
  return limiter.define(name, (ctx) => {
    const { requests, windowSeconds } = app.config.get<RateLimitsConfig>('rate_limits')[name]
    return limiter
      .allowRequests(requests)
      .every(windowSeconds)
      .usingKey(keyOf(ctx))
      .limitExceeded((error) => {
        error.setMessage(
          `Too many requests: at most ${requests} every ${windowSeconds} s (see Retry-After)`
        )
      })
  })
}

const part = (value: unknown) => String(value).slice(0, MAX_KEY_PART)
const byAddress = ({ request }: HttpContext) => `ip_${part(request.ip())}`
const byUser = ({ auth }: HttpContext) => `user_${auth.getUserOrFail().id}`
const byFeed = ({ params }: HttpContext) => `feed_${part(params.handle)}/${part(params.slug)}`

export const throttle = {
  signIn: throttled('signIn', byAddress),
  registration: throttled('registration', byUser),
  feedChanges: throttled('feedChanges', byUser),
  sourceTests: throttled('sourceTests', byUser),
  hmacTests: throttled('hmacTests', byUser),
  ingest: throttled('ingest', byFeed),
  withdrawals: throttled('withdrawals', byUser),
  walletLinking: throttled('walletLinking', byUser),
}
