import type { ApplicationService } from '@adonisjs/core/types'
import { Clock } from '#core/clock'
import { ProvidersConfig } from '#provider_accounts/define_config'
import { ManifestReportCache } from '#provider_accounts/manifest/manifest_report_cache'

/**
 * Binds the providers config (config/providers.ts) and what the provider
 * accounts keep between requests: the manifest
 * report cache (TTL and size from config/providers.ts), a class tests swap
 * with app.container.swap.
 */
export default class ProviderAccountsProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.bindValue(ProvidersConfig, this.app.config.get<ProvidersConfig>('providers'))
    this.app.container.singleton(ManifestReportCache, async (resolver) => {
      const { manifest } = await resolver.make(ProvidersConfig)
      return new ManifestReportCache(await resolver.make(Clock), {
        ttlMs: manifest.cacheTtlMs,
        maxEntries: manifest.cacheMaxEntries,
      })
    })
  }
}
