import { defineConfig } from '@adonisjs/auth'
import { tokensGuard, tokensUserProvider } from '@adonisjs/auth/access_tokens'
import type { Authenticators, InferAuthEvents, InferAuthenticators } from '@adonisjs/auth/types'

/**
 * Bearer session tokens (@adonisjs/auth access tokens, stored hashed in
 * auth_access_tokens); `auth.getUserOrFail()` is the signed-in User. Their
 * lifetime and the sign-in challenge live in config/sign_in.ts, which the
 * token provider imports (this file imports the User model, which imports
 * the token provider).
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
