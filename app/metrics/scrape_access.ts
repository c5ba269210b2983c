import { createHash, timingSafeEqual } from 'node:crypto'
import { errors as httpErrors } from '@adonisjs/core/http'
import type { MetricsConfig } from '#metrics/define_config'
import { E_METRICS_TOKEN_INVALID } from '#metrics/exceptions'

/**
 * Lets a scrape through, or throws: 401 without the configured bearer token
 * (compared in constant time), 404 in production when no token is configured.
 */
export function checkScrapeAccess(config: MetricsConfig, authorization: string | undefined) {
  if (config.token === undefined) {
    if (config.openWithoutToken) return
    throw new httpErrors.E_ROUTE_NOT_FOUND(['GET', '/metrics'])
  }
  const sent = /^bearer +(.+)$/i.exec(authorization ?? '')?.[1] ?? ''
  // Digests are of equal length whatever was sent: timingSafeEqual needs that, and the length leaks nothing.
  if (!timingSafeEqual(digest(sent), digest(config.token))) throw new E_METRICS_TOKEN_INVALID()
}

function digest(value: string) {
  return createHash('sha256').update(value).digest()
}
