import app from '@adonisjs/core/services/app'
import { type RateLimit, defineConfig } from '#core/rate_limits_config'

/**
 * Rate limits (docs/operations.md#rate-limits): how many requests one key may
 * make in a window, counted by @adonisjs/limiter in PostgreSQL
 * (config/limiter.ts), so every instance counts against the same limit. A
 * request past its limit is 429 `too_many_requests` with `Retry-After`.
 * Read at each request (start/limiter.ts).
 */

/**
 * Under test every limit allows this many requests a window: the suites act as
 * hundreds of clients a minute, all from 127.0.0.1, race a hundred withdrawals
 * through one wallet and repeat one wallet's requests FUZZ_RUNS times. The
 * limiter still counts every request; the tests of the limits set theirs low
 * (tests/support/rate_limits.ts).
 */
const UNDER_TEST = 1_000_000

function limit(requests: number, windowSeconds: number): RateLimit {
  return { requests: app.inTest ? UNDER_TEST : requests, windowSeconds }
}

const rateLimitsConfig = defineConfig({
  /** POST /auth/nonce and POST /auth/verify together, per client address: a sign-in is one of each. */
  signIn: limit(60, 60),
  /** POST /providers, per signed-in wallet. */
  registration: limit(10, 3_600),
  /** POST /providers, per client address (an IPv6 client by its /64): a new wallet costs nothing. */
  registrationPerAddress: limit(30, 3_600),
  /**
   * Creating, changing, uploading to or deleting a feed, changing its state,
   * rotating its push secret, switching the integration mode, rotating the
   * HMAC secret: per signed-in wallet.
   */
  feedChanges: limit(60, 60),
  /** The same feed changes, per client address (an IPv6 client by its /64). */
  feedChangesPerAddress: limit(240, 60),
  /** POST …/feeds/:slug/source/test (fetches the source), per signed-in wallet. */
  sourceTests: limit(20, 60),
  /** POST …/hmac/test (calls the partner endpoint), per signed-in wallet. */
  hmacTests: limit(20, 60),
  /** POST /ingest/:handle/:slug, per feed, counting only pushes whose signature verified: a push a second. */
  ingest: limit(60, 60),
  /** POST /ingest/:handle/:slug, per client address, every attempt (signed or not, to any feed). */
  ingestPerAddress: limit(1_200, 60),
  /** POST …/withdraw, per signed-in wallet. */
  withdrawals: limit(10, 60),
  /** POST …/link-wallet/nonce and POST …/link-wallet together, per session (bearer token). */
  walletLinking: limit(10, 60),
  /** The same, per client address (an IPv6 client by its /64): sessions of one wallet cost nothing. */
  walletLinkingPerAddress: limit(40, 60),
  /** POST /credit/top-ups carrying a payment (the unpaid 402 is not counted), per client address. */
  topUps: limit(20, 60),
  /** POST /credit/refunds per refunded wallet, counted once the wallet's signature verified. */
  refunds: limit(10, 60),
  /** POST /credit/refunds/nonce and POST /credit/refunds, per client address (an IPv6 client by its /64). */
  refundsPerAddress: limit(40, 60),
  /**
   * POST /credit/nonce and POST /credit/tokens together, per client address: a
   * token is one of each, and each recovers a signature's key.
   */
  creditTokens: limit(60, 60),
})

export default rateLimitsConfig
export type { RateLimitName, RateLimitsConfig } from '#core/rate_limits_config'
