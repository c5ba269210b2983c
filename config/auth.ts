import { defineConfig } from '@adonisjs/auth'
import { tokensGuard, tokensUserProvider } from '@adonisjs/auth/access_tokens'
import type { Authenticators, InferAuthEvents, InferAuthenticators } from '@adonisjs/auth/types'

/**
 * Sign-In With Stacks (ARCHITECTURE §7). The message's domain and URI come
 * from `app.publicUrl`, its chain id from `chain.network`, both read at each
 * request.
 */
export const signInConfig = {
  /** How long a nonce from POST /auth/nonce can be redeemed (at most 10 minutes). */
  challengeTtlMs: 5 * 60_000,
  /** Lifetime of a session token from POST /auth/verify. */
  sessionTtlMs: 7 * 24 * 60 * 60_000,
  /** The statement line of the message a wallet signs to sign in. */
  statement: 'Sign in to Tollbooth with your Stacks wallet.',
}

export const MAX_CHALLENGE_TTL_MS = 10 * 60_000

if (!(signInConfig.challengeTtlMs > 0 && signInConfig.challengeTtlMs <= MAX_CHALLENGE_TTL_MS)) {
  throw new Error('signInConfig.challengeTtlMs must be more than 0 and at most 10 minutes')
}

/**
 * Bearer session tokens (@adonisjs/auth access tokens, stored hashed in
 * auth_access_tokens); `auth.getUserOrFail()` is the signed-in User.
 */
const authConfig = defineConfig({
  default: 'api',
  guards: {
    api: tokensGuard({
      provider: tokensUserProvider({
        tokens: 'accessTokens',
        model: () => import('#models/user'),
      }),
    }),
  },
})

export default authConfig

declare module '@adonisjs/auth/types' {
  export interface Authenticators extends InferAuthenticators<typeof authConfig> {}
}
declare module '@adonisjs/core/types' {
  interface EventsList extends InferAuthEvents<Authenticators> {}
}
