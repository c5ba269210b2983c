import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

/**
 * A group of owner routes under /providers/id/:id: a bearer session, then the
 * ownership check, which hands the checked provider to the controller as
 * `ctx.ownedProvider`. A route added inside is guarded without a line of its
 * own; every domain declares its owner routes through here.
 */
export function ownerRoutes(routes: () => void) {
  return router
    .group(routes)
    .prefix('/providers/id/:id')
    .use([middleware.auth(), middleware.ownedProvider()])
}
