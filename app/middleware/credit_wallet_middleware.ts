import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { CreditTokens } from '#credit/credit_tokens'
import { E_CREDIT_TOKEN_INVALID } from '#credit/exceptions'
import AuthMiddleware from '#middleware/auth_middleware'

declare module '@adonisjs/core/http' {
  export interface HttpContext {
    /** The wallet whose credit the request reads (`middleware.creditWallet()`). */
    creditWallet: string
  }
}

/**
 * `middleware.creditWallet()`: who may read a wallet's credit (balance,
 * statement, refunds) — a Sign-In With Stacks session of that wallet, or a
 * credit token bound to it (`credit-token` header), so an agent can read its
 * own balance. Either only reads: money moves with a fresh signature. A
 * token that is unknown or expired is 401 `credit_token_invalid`, as on the
 * feed routes; no session and no token, 401 `unauthenticated`.
 */
@inject()
export default class CreditWalletMiddleware {
  constructor(private tokens: CreditTokens) {}

  async handle(ctx: HttpContext, next: NextFn) {
    const token = ctx.request.header('credit-token')
    if (token === undefined) {
      return new AuthMiddleware().handle(ctx, () => {
        ctx.creditWallet = ctx.auth.getUserOrFail().walletAddress
        return next()
      })
    }
    ctx.response.header('cache-control', 'no-store')
    const found = await this.tokens.find(token)
    if (!found) throw new E_CREDIT_TOKEN_INVALID()
    ctx.creditWallet = found.address
    return next()
  }
}
