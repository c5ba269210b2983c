import router from '@adonisjs/core/services/router'
import type { RouteJSON } from '@adonisjs/core/types/http'
import { isPageRoute } from '#web/page_routes'

/** Every route of the committed router that is API, not a page: what /openapi.json covers. */
export function apiRoutes(): RouteJSON[] {
  return Object.values(router.toJSON())
    .flat()
    .filter((route) => !isPageRoute(route))
}
