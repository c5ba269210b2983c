import type { ApplicationService } from '@adonisjs/core/types'
import type { ManifestConfig } from '#config/providers'
import { Clock } from '#core/clock'
import { ManifestReportCache } from '#provider_accounts/manifest/manifest_report_cache'

/**
 * Binds what the provider accounts keep between requests: the manifest
 * report cache (TTL and size from config/providers.ts), a class tests swap
 * with app.container.swap.
 */
export default class ProviderAccountsProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.singleton(ManifestReportCache, async (resolver) => {
      const config = this.app.config.get<ManifestConfig>('providers.manifest')
      return new ManifestReportCache(await resolver.make(Clock), {
        ttlMs: config.cacheTtlMs,
        maxEntries: config.cacheMaxEntries,
      })
    })
  }
}
