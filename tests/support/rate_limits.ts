import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import proxyAddr from 'proxy-addr'
import { type RateLimitName, RateLimitsConfig } from '#core/rate_limits_config'
import { changeConfig, changeFrameworkSetting } from '#tests/support/config'

const rateLimits = await app.container.make(RateLimitsConfig)

/**
 * Sets some rate limits (config/rate_limits.ts) for a test, the others keep
 * theirs; returns the function that puts them all back.
 */
export function setRateLimits(limits: Partial<Record<RateLimitName, number>>) {
  return changeConfig(
    rateLimits,
    Object.fromEntries(
      Object.entries(limits).map(([name, requests]) => [
        name,
        { ...rateLimits[name as RateLimitName], requests },
      ])
    )
  )
}

/**
 * Forgets every count (the limiter's own connection, outside a test's global
 * transaction), so each key starts a new window: earlier tests counted their
 * requests from 127.0.0.1 too.
 */
export async function forgetRateLimitCounts() {
  await db.connection('limiter').truncate('rate_limits')
}

/** TRUSTED_PROXIES as `loopback`: X-Forwarded-For names the client; returns what trusts none again. */
export function trustLoopbackProxy() {
  return changeFrameworkSetting('app.http.trustProxy', proxyAddr.compile(['loopback']))
}
