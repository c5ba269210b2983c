import type { RouteJSON } from '@adonisjs/core/types/http'

/**
 * The one rule telling a page from the API: a page is a route that carries
 * the pages' headers middleware (`middleware.pageHeaders()`, app/web/routes.ts),
 * which every route rendering an Edge/Preact page needs for its CSP. The
 * Vite and built asset files are served by server middleware before routing
 * (start/kernel.ts), so they are no route at all.
 */
export function isPageRoute(route: RouteJSON): boolean {
  return [...route.middleware.all()].some(
    (entry) => 'name' in entry && entry.name === 'pageHeaders'
  )
}
