import { defineConfig } from '#auth/define_config'

/**
 * Sign-In With Stacks (docs/api.md#sign-in-with-stacks-auth). The message's domain and URI come
 * from config/app.ts's `service.publicUrl`, its chain id from `chain.network`, both read at each
 * request.
 */
export const signInConfig = defineConfig({
  /** How long a nonce from POST /auth/nonce can be redeemed (at most 10 minutes). */
  challengeTtlMs: 5 * 60_000,
  /**
   * Lifetime of a session token from POST /auth/verify: 12 hours, a working
   * day at the dashboard. The token lives in the page's localStorage and runs
   * every owner route (feeds, prices, secrets, withdrawals to the linked
   * wallet); it cannot move money elsewhere (a link takes the owner wallet's
   * signature), but a copied token should not outlive the day it was taken
   * on, and signing in again is one wallet signature (docs/api.md, "Sessions").
   */
  sessionTtlMs: 12 * 60 * 60_000,
  /** The statement line of the message a wallet signs to sign in. */
  statement: 'Sign in to Tollbooth with your Stacks wallet.',
  /**
   * `challenges:sweep` (hourly) deletes challenges this long past their expiry
   * (until then a late answer is told `challenge_expired`, not
   * `challenge_not_found`), at most `batchSize` rows per statement.
   */
  sweep: { keepExpiredMs: 24 * 60 * 60_000, batchSize: 1_000 },
})

export default signInConfig
export type { SignInConfig } from '#auth/define_config'
