import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type Provider from '#models/provider'
import { ownedProvider } from '#provider_accounts/provider_access'

declare module '@adonisjs/core/http' {
  export interface HttpContext {
    /** The provider `:id` names, owned by the signed-in wallet (`middleware.ownedProvider()`). */
    ownedProvider: Provider
  }
}

/**
 * `middleware.ownedProvider()`, after `middleware.auth()`: the one ownership
 * check of the owner API. Every route under /providers/id/:id gets it from
 * `ownerRoutes` (app/provider_accounts/owner_routes.ts) and reads the checked
 * provider from `ctx.ownedProvider`; unknown → 404 `provider_not_found`,
 * someone else's → 403 `not_owner`, before any body is read.
 */
export default class OwnedProviderMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    ctx.ownedProvider = await ownedProvider(
      String(ctx.params.id),
      ctx.auth.getUserOrFail().walletAddress
    )
    return next()
  }
}
