import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import proxyAddr from 'proxy-addr'
import type { RateLimitName, RateLimitsConfig } from '#config/rate_limits'

/**
 * Sets some rate limits (config/rate_limits.ts) for a test, the others keep
 * theirs; returns the function that puts them all back.
 */
export function setRateLimits(limits: Partial<Record<RateLimitName, number>>) {
  const previous = structuredClone(app.config.get<RateLimitsConfig>('rate_limits'))
  for (const [name, requests] of Object.entries(limits)) {
    app.config.set(`rate_limits.${name}.requests`, requests)
  }
  return () => app.config.set('rate_limits', previous)
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
  const trustProxy = app.config.get('app.http.trustProxy')
  app.config.set('app.http.trustProxy', proxyAddr.compile(['loopback']))
  return () => app.config.set('app.http.trustProxy', trustProxy)
}
