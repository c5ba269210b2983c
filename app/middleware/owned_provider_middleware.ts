import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { isUuid } from '#core/uuid'
import Provider from '#models/provider'
import { E_NOT_OWNER, E_PROVIDER_NOT_FOUND } from '#provider_accounts/exceptions'

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
 * provider from `ctx.ownedProvider`: unknown → 404 `provider_not_found`,
 * someone else's → 403 `not_owner`.
 */
export default class OwnedProviderMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const id = String(ctx.params.id)
    const provider = isUuid(id) ? await Provider.find(id) : null
    if (!provider) throw new E_PROVIDER_NOT_FOUND([id])
    if (provider.ownerWallet !== ctx.auth.getUserOrFail().walletAddress) throw new E_NOT_OWNER()
    ctx.ownedProvider = provider
    return next()
  }
}
