import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import ViteMiddleware from '@adonisjs/vite/vite_middleware'

/**
 * What Vite's dev server serves: its client and internals (`/@…`), the page
 * sources (resources/, and the app/ modules the pages share: money, feed
 * paths and words) and the pre-bundled dependencies. No route of the API or the pages
 * starts with these.
 */
const VITE_PATHS = [
  '/@',
  '/resources/',
  '/app/ledger/money.ts',
  '/app/feeds/feed_paths.ts',
  '/app/web/words.ts',
  '/node_modules/',
  '/__vite',
]

/**
 * A `.` or `..` segment, written or percent-encoded: `/resources/../tmp/…`
 * starts with `/resources/` but is not under it. Browsers send paths
 * normalised, so Vite's own URLs never hold one.
 */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i

/**
 * Hands only Vite's own paths to its dev server (development and tests;
 * what Vite itself may read is restricted in vite.config.ts, `server.fs`;
 * in production it has none and this passes everything on). Vite's dev
 * server refuses a request whose Host it does not know with 403, as a guard
 * of its source files: the API and the pages answer any Host, so an agent
 * calling the development server by another name is not refused by Vite.
 */
@inject()
export default class ViteAssetsMiddleware {
  constructor(private vite: ViteMiddleware) {}

  handle(ctx: HttpContext, next: NextFn) {
    const path = ctx.request.url()
    if (!VITE_PATHS.some((prefix) => path.startsWith(prefix)) || DOT_SEGMENT.test(path)) {
      return next()
    }
    return this.vite.handle(ctx, next)
  }
}
