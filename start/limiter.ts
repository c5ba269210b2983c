/*
|--------------------------------------------------------------------------
| Rate limits (throttle middleware)
|--------------------------------------------------------------------------
|
| Each throttle counts requests per key in PostgreSQL (config/limiter.ts), so
| a limit holds across instances. Client addresses (behind a load balancer
| they come from TRUSTED_PROXIES) are keyed by `clientAddressKey`, signed-in
| routes by the user (they run after middleware.auth()) and, beside it, by the
| address, since a wallet costs nothing. A webhook push is counted per feed in
| ReceivePush, once its signature verified, and per address here; a signed
| refund likewise per wallet in RequestRefund, once the wallet's signature
| verified (anyone can name a wallet), and per address here. The numbers
| are read from config/rate_limits.ts (RateLimitsConfig) at each request; a refusal is rendered
| by app/exceptions/handler.ts.
|
*/
import { Exception } from '@adonisjs/core/exceptions'
import type { HttpContext } from '@adonisjs/core/http'
import type { MiddlewareFn, NextFn } from '@adonisjs/core/types/http'
import limiter from '@adonisjs/limiter/services/main'
import { errors as limiterErrors } from '@adonisjs/limiter'
import ipaddr from 'ipaddr.js'
import { E_RATE_LIMITER_UNAVAILABLE } from '#core/exceptions'
import { bootedConfig } from '#core/injectable_config'
import { type RateLimitName, RateLimitsConfig } from '#core/rate_limits_config'
import { metrics } from '#metrics/metrics'

/**
 * Longer than any address, handle or feed slug: two clients or feeds never
 * share a key, and the key fits the table whatever a path or header says.
 */
const MAX_KEY_PART = 64

const part = (value: unknown) => String(value).slice(0, MAX_KEY_PART)

/**
 * The key of a client address: an IPv6 client owns at least a /64 (a new
 * address in it costs nothing), so it is counted by its /64; an IPv4-mapped
 * IPv6 address as the IPv4 address it is.
 */
export function clientAddressKey(address: string) {
  if (!ipaddr.isValid(address)) return `ip_${part(address)}`
  const parsed = ipaddr.process(address)
  if (parsed.kind() === 'ipv4') return `ip_${parsed.toString()}`
  return `ip6_${parsed.toNormalizedString().split(':').slice(0, 4).join(':')}::/64`
}

const rateLimits = bootedConfig(RateLimitsConfig)

function settings(name: RateLimitName) {
  return rateLimits()[name]
}

/** A request over the limit `name`: its refusal's message, counted in the metrics. */
function refuse(
  error: InstanceType<typeof limiterErrors.E_TOO_MANY_REQUESTS>,
  name: RateLimitName
) {
  const { requests, windowSeconds } = settings(name)
  error.setMessage(
    `Too many requests: at most ${requests} every ${windowSeconds} s (see Retry-After)`
  )
  metrics.rateLimitRefused(name)
}

/**
 * A counter that failed (its pool busy past config/database.ts's acquire
 * timeout, the database down) refuses with 503, never 500; our own
 * exceptions (a 429, an unauthenticated request) pass as they are.
 */
function storeFailure(error: unknown) {
  return error instanceof Exception
    ? error
    : new E_RATE_LIMITER_UNAVAILABLE(undefined, { cause: error })
}

function throttled(name: RateLimitName, keyOf: (ctx: HttpContext) => string): MiddlewareFn {
  const middleware = limiter.define(name, (ctx) => {
    const { requests, windowSeconds } = settings(name)
    return limiter
      .allowRequests(requests)
      .every(windowSeconds)
      .usingKey(keyOf(ctx))
      .limitExceeded((error) => refuse(error, name))
  })
  return async (ctx: HttpContext, next: NextFn) => {
    let counted = false
    try {
      return await middleware(ctx, () => {
        counted = true
        return next()
      })
    } catch (error) {
      throw counted ? error : storeFailure(error)
    }
  }
}

/**
 * Counts one request against the limit `name` for `key` outside the
 * middleware, where only the action knows whether it should count; throws
 * E_TOO_MANY_REQUESTS past the limit.
 */
export async function consumeRateLimit(name: RateLimitName, key: string) {
  const { requests, windowSeconds } = settings(name)
  try {
    await limiter.use({ requests, duration: windowSeconds }).consume(`${name}_${key}`)
  } catch (error) {
    if (error instanceof limiterErrors.E_TOO_MANY_REQUESTS) refuse(error, name)
    throw storeFailure(error)
  }
}

/**
 * Counts only requests that carry a payment: the unpaid 402 of a paid
 * resource is a quote, answered without writing anything.
 */
function whenPaying(middleware: MiddlewareFn): MiddlewareFn {
  return (ctx, next) => (ctx.request.header('payment-signature') ? middleware(ctx, next) : next())
}

const byAddress = ({ request }: HttpContext) => clientAddressKey(request.ip())
const byUser = ({ auth }: HttpContext) => `user_${auth.getUserOrFail().id}`
const bySession = ({ auth }: HttpContext) =>
  `token_${auth.getUserOrFail().currentAccessToken!.identifier}`

export const throttle = {
  signIn: throttled('signIn', byAddress),
  registration: [throttled('registration', byUser), throttled('registrationPerAddress', byAddress)],
  feedChanges: [throttled('feedChanges', byUser), throttled('feedChangesPerAddress', byAddress)],
  sourceTests: throttled('sourceTests', byUser),
  hmacTests: throttled('hmacTests', byUser),
  ingest: throttled('ingestPerAddress', byAddress),
  withdrawals: throttled('withdrawals', byUser),
  walletLinking: [
    throttled('walletLinking', bySession),
    throttled('walletLinkingPerAddress', byAddress),
  ],
  topUps: whenPaying(throttled('topUps', byAddress)),
  refunds: throttled('refundsPerAddress', byAddress),
  creditTokens: throttled('creditTokens', byAddress),
}
