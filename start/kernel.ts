/*
|--------------------------------------------------------------------------
| HTTP kernel
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'

server.errorHandler(() => import('#exceptions/handler'))

/**
 * Run on every request, matched route or not. The pages' bundles: built ones
 * from public/assets, in development and tests the Vite dev server's.
 */
server.use([
  () => import('#middleware/request_id_middleware'),
  () => import('#middleware/http_metrics_middleware'),
  () => import('#middleware/container_bindings_middleware'),
  () => import('#middleware/built_assets_middleware'),
  () => import('#middleware/vite_assets_middleware'),
])

/** Run on every request with a matched route. */
router.use([
  () => import('#middleware/require_json_body_middleware'),
  () => import('#middleware/refuse_oversized_body_middleware'),
  () => import('@adonisjs/core/bodyparser_middleware'),
  () => import('#middleware/refuse_nul_characters_middleware'),
  () => import('@adonisjs/auth/initialize_auth_middleware'),
])

/**
 * Per route: `.use(middleware.auth())` requires a bearer session token (app/auth);
 * `middleware.ownedProvider()` after it, that the session's wallet owns the
 * provider `:id` (given to every owner route by `ownerRoutes`, app/provider_accounts);
 * `middleware.pageHeaders()` gives the pages their headers (app/web);
 * `middleware.creditWallet()`, the wallet whose credit a session or a credit token reads (app/credit).
 */
export const middleware = router.named({
  auth: () => import('#middleware/auth_middleware'),
  ownedProvider: () => import('#middleware/owned_provider_middleware'),
  pageHeaders: () => import('#middleware/page_headers_middleware'),
  creditWallet: () => import('#middleware/credit_wallet_middleware'),
})
