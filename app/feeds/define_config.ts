import type { BuiltinFeedsSettings } from '#feeds/builtin/adapter'
import type { UpstreamName } from '#feeds/builtin/upstreams'
import type { FeedSourceDriverFactory } from '#feeds/source_driver'

export interface FeedsConfig {
  sources: Record<string, FeedSourceDriverFactory>
  /** Where the built-in feeds' upstreams are simulated (development, tests); undefined in production. */
  upstreamSimulatorUrl?: string
  cache: { maxEntries: number }
}

export function defineConfig(config: FeedsConfig): FeedsConfig {
  return config
}

/** Factories of the drivers Tollbooth ships; each is created on first use. */
export const sources = {
  builtin(options: {
    baseUrls: Record<UpstreamName, string>
    simulated: boolean
    timeoutMs: number
    maxBytes: number
    settings: BuiltinFeedsSettings
  }): FeedSourceDriverFactory {
    return async () => {
      const { BuiltinSourceDriver } = await import('#feeds/drivers/builtin_driver')
      const { FetchUpstreamHttp } = await import('#feeds/builtin/upstream_http')
      const github = options.settings.githubToken
        ? { github: { authorization: `Bearer ${options.settings.githubToken}` } }
        : {}
      return new BuiltinSourceDriver({
        http: new FetchUpstreamHttp({
          baseUrls: options.baseUrls,
          timeoutMs: options.timeoutMs,
          maxBytes: options.maxBytes,
          headers: github,
        }),
        settings: options.settings,
        simulated: options.simulated,
        now: Date.now,
      })
    }
  },
}
