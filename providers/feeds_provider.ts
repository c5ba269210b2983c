import type { ApplicationService } from '@adonisjs/core/types'
import { Clock } from '#core/clock'
import { FeedCache } from '#feeds/feed_cache'
import { FeedDirectory } from '#feeds/feed_directory'
import { FeedReader } from '#feeds/feed_reader'
import { FeedStats } from '#feeds/feed_stats'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { FeedsConfig } from '#feeds/define_config'

/**
 * Binds the feeds config (config/feeds.ts) and, as singletons, the feed source manager (`feeds.sources`), the
 * per-process feed cache and the reader that shares them (one in-flight fetch
 * per feed and query), and the feed directory (look-ups by slug); closes the
 * drivers at shutdown. Cache sizes and TTLs come from config/feeds.ts.
 */
export default class FeedsProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.bindValue(FeedsConfig, this.app.config.get<FeedsConfig>('feeds'))
    this.app.container.singleton(FeedSourceManager, async (resolver) => {
      return new FeedSourceManager(await resolver.make(FeedsConfig), this.app)
    })
    this.app.container.alias('feeds.sources', FeedSourceManager)
    this.app.container.singleton(FeedCache, async (resolver) => {
      const { cache } = await resolver.make(FeedsConfig)
      return new FeedCache(await resolver.make(Clock), cache)
    })
    this.app.container.singleton(FeedDirectory, async (resolver) => {
      const { directory } = await resolver.make(FeedsConfig)
      return new FeedDirectory(await resolver.make(Clock), directory)
    })
    this.app.container.singleton(FeedReader, async (resolver) => {
      return new FeedReader(
        await resolver.make(FeedSourceManager),
        await resolver.make(FeedCache),
        await resolver.make(FeedStats),
        await resolver.make(Clock)
      )
    })
  }

  async shutdown() {
    if (this.app.container.hasBinding(FeedSourceManager)) {
      const manager = await this.app.container.make(FeedSourceManager)
      await manager.close()
    }
  }
}

declare module '@adonisjs/core/types' {
  interface ContainerBindings {
    'feeds.sources': FeedSourceManager
  }
}
