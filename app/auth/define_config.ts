import { injectableConfig } from '#core/injectable_config'

export interface SignInConfigValues {
  /** How long a nonce from POST /auth/nonce can be redeemed (at most 10 minutes). */
  challengeTtlMs: number
  /** Lifetime of a session token from POST /auth/verify. */
  sessionTtlMs: number
  /** The statement line of the message a wallet signs to sign in. */
  statement: string
  /** `challenges:sweep`: how long past their expiry challenges are kept, rows per statement. */
  sweep: { keepExpiredMs: number; batchSize: number }
}

export const MAX_CHALLENGE_TTL_MS = 10 * 60_000

/** config/sign_in.ts, bound by CoreProvider: `@inject()` classes take it as an argument. */
export class SignInConfig extends injectableConfig<SignInConfigValues>() {}

export function defineConfig(values: SignInConfigValues) {
  if (!(values.challengeTtlMs > 0 && values.challengeTtlMs <= MAX_CHALLENGE_TTL_MS)) {
    throw new Error('signInConfig.challengeTtlMs must be more than 0 and at most 10 minutes')
  }
  return new SignInConfig(values)
}
