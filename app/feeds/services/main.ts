import app from '@adonisjs/core/services/app'
import type { FeedSourceManager } from '#feeds/feed_source_manager'

let sources: FeedSourceManager

await app.booted(async () => {
  sources = await app.container.make('feeds.sources')
})

/** The feed source manager: `sources.use('builtin')`, `sources.extend(name, factory)`; in tests `sources.fake()` and `sources.restore()`. */
export { sources as default }
