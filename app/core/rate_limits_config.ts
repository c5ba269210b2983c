import { injectableConfig } from '#core/injectable_config'

export interface RateLimit {
  requests: number
  /** The window starts at a key's first request and lasts this long. */
  windowSeconds: number
}

/** The limits of config/rate_limits.ts, one per throttle (start/limiter.ts). */
export interface RateLimitsConfigValues {
  signIn: RateLimit
  registration: RateLimit
  registrationPerAddress: RateLimit
  feedChanges: RateLimit
  feedChangesPerAddress: RateLimit
  sourceTests: RateLimit
  hmacTests: RateLimit
  ingest: RateLimit
  ingestPerAddress: RateLimit
  withdrawals: RateLimit
  walletLinking: RateLimit
  walletLinkingPerAddress: RateLimit
  topUps: RateLimit
  refunds: RateLimit
  refundsPerAddress: RateLimit
  creditTokens: RateLimit
}

export type RateLimitName = keyof RateLimitsConfigValues

/** config/rate_limits.ts, bound by CoreProvider: `@inject()` classes take it as an argument. */
export class RateLimitsConfig extends injectableConfig<RateLimitsConfigValues>() {}

export function defineConfig(values: RateLimitsConfigValues) {
  return new RateLimitsConfig(values)
}
