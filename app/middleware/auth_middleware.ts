import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { errors } from '@adonisjs/auth'
import type { Authenticators } from '@adonisjs/auth/types'
import { E_UNAUTHENTICATED } from '#auth/exceptions'

/**
 * `middleware.auth()`: the request must carry `Authorization: Bearer <session
 * token>` (POST /auth/verify); afterwards `ctx.auth.getUserOrFail()` is the
 * signed-in User. Anything else is 401 `unauthenticated` in our error shape
 * (the auth package would render its own). What a session sees is its
 * owner's (balances, secrets shown once, analytics): every answer is
 * `Cache-Control: no-store`, kept by no cache on the way.
 */
export default class AuthMiddleware {
  async handle(
    ctx: HttpContext,
    next: NextFn,
    options: { guards?: (keyof Authenticators)[] } = {}
  ) {
    ctx.response.header('cache-control', 'no-store')
    try {
      await ctx.auth.authenticateUsing(options.guards)
    } catch (error) {
      if (!(error instanceof errors.E_UNAUTHORIZED_ACCESS)) throw error
      throw new E_UNAUTHENTICATED()
    }
    return next()
  }
}
