import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import StaticMiddleware from '@adonisjs/static/static_middleware'

/** Where `npm run build` puts the pages' bundles (config/vite.ts `assetsUrl`). */
const ASSETS_PATH = '/assets/'

/**
 * Serves the built page bundles from public/assets and nothing else, so
 * every other request — a paid call above all — skips the file lookup.
 */
@inject()
export default class BuiltAssetsMiddleware {
  constructor(private files: StaticMiddleware) {}

  handle(ctx: HttpContext, next: NextFn) {
    if (!ctx.request.url().startsWith(ASSETS_PATH)) return next()
    return this.files.handle(ctx, next)
  }
}
