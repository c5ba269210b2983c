import type { BuiltinFeedsSettings } from '#feeds/builtin/adapter'
import type { UpstreamName } from '#feeds/builtin/upstreams'
import {
  type ReceivedDocuments,
  type FeedSourceDriver,
  type FeedSourceDriverFactory,
  type SourceDriverMode,
  sourceDriverFactory,
} from '#feeds/source_driver'

export interface FeedsConfig {
  sources: Record<string, FeedSourceDriverFactory>
  /** Where the built-in feeds' upstreams are simulated (development, tests); undefined in production. */
  upstreamSimulatorUrl?: string
  /** The last good payloads (FeedCache): how many feed + query entries one instance keeps. */
  cache: { maxEntries: number }
  /** Feed look-ups by slug for the paid routes (FeedDirectory). */
  directory: { ttlMs: number; maxEntries: number }
  /** Hosted Mirror snapshots: how many versions each feed keeps (default 10). */
  snapshots?: { keep: number }
  /** webhook_push: the accepted distance of a push's timestamp from our clock (default 300 s). */
  push?: { toleranceSeconds: number }
  /** `mirrors:poll`: how a run claims and polls the due feeds (docs/hosted-mirror.md#polling). */
  polling?: MirrorPollingConfig
}

export interface MirrorPollingConfig {
  /** Feeds claimed at a time; the next batch is claimed when this one is all under way. */
  batchSize: number
  /** Polls in flight at once. */
  concurrency: number
  /** A claimed feed is not due again for this long while its poll runs (a crashed poller's lease ends). */
  leaseSeconds: number
  /** A run stops claiming this long after it started (the next run continues), so it ends before the next one. */
  runSeconds: number
  /** A feed due this soon after a run starts is polled by that run: runs start a little late or early. */
  earlySeconds: number
}

export function defineConfig(config: FeedsConfig): FeedsConfig {
  return config
}

/**
 * Factories of the drivers Tollbooth ships, each created on first use, and
 * `custom` for a driver of your own. A factory declares the mode its driver
 * serves; `hosted_mirror` ones are the source types providers may choose.
 */
export const sources = {
  /**
   * A driver of your own (one file): `mode: 'hosted_mirror'` offers it to
   * Hosted Mirror providers as a source type named by its config key.
   */
  custom(
    mode: SourceDriverMode,
    create: () => FeedSourceDriver | Promise<FeedSourceDriver>
  ): FeedSourceDriverFactory {
    return sourceDriverFactory(mode, create)
  },

  builtin(options: {
    baseUrls: Record<UpstreamName, string>
    simulated: boolean
    timeoutMs: number
    maxBytes: number
    settings: BuiltinFeedsSettings
  }): FeedSourceDriverFactory {
    return sourceDriverFactory('builtin', async () => {
      const { default: app } = await import('@adonisjs/core/services/app')
      const { BuiltinSourceDriver } = await import('#feeds/drivers/builtin_driver')
      const { FetchUpstreamHttp } = await import('#feeds/builtin/upstream_http')
      const { Clock } = await import('#core/clock')
      const clock = await app.container.make(Clock)
      return new BuiltinSourceDriver({
        http: new FetchUpstreamHttp({
          baseUrls: options.baseUrls,
          timeoutMs: options.timeoutMs,
          maxBytes: options.maxBytes,
          clock,
        }),
        settings: options.settings,
        simulated: options.simulated,
        now: () => clock.now(),
      })
    })
  },

  /** Partner Bridge: signed calls to the provider's own API (docs/partner-bridge.md). */
  partnerBridge(options: { timeoutMs: number; maxBytes: number }): FeedSourceDriverFactory {
    return sourceDriverFactory('partner_bridge', async () => {
      const { default: app } = await import('@adonisjs/core/services/app')
      const { PartnerBridgeDriver } = await import('#feeds/drivers/partner_bridge_driver')
      const { OutboundClient } = await import('#outbound/outbound_client')
      const { partnerTargetOf } = await import('#provider_accounts/partner_targets')
      const { Clock } = await import('#core/clock')
      const clock = await app.container.make(Clock)
      return new PartnerBridgeDriver({
        outbound: await app.container.make(OutboundClient),
        targetOf: partnerTargetOf,
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxBytes,
        now: () => clock.now(),
      })
    })
  },

  /**
   * Hosted Mirror from a URL (codehost_raw, objectstore_url): the provider's
   * JSON file, polled by `mirrors:poll` through the SSRF-guarded outbound
   * client into PostgreSQL snapshots, which paid calls serve. Defaults:
   * 5000 ms, 1 MiB. A Hosted Mirror source type.
   */
  urlMirror(options: {
    name: string
    timeoutMs?: number
    maxBytes?: number
  }): FeedSourceDriverFactory {
    return sourceDriverFactory('hosted_mirror', async () => {
      const { default: app } = await import('@adonisjs/core/services/app')
      const { UrlMirrorDriver } = await import('#feeds/drivers/url_mirror_driver')
      const { OutboundClient } = await import('#outbound/outbound_client')
      const { FeedSnapshots } = await import('#feeds/feed_snapshots')
      const { Clock } = await import('#core/clock')
      const clock = await app.container.make(Clock)
      return new UrlMirrorDriver({
        name: options.name,
        outbound: await app.container.make(OutboundClient),
        snapshots: await app.container.make(FeedSnapshots),
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxBytes,
        now: () => clock.now(),
      })
    })
  },

  /**
   * Hosted Mirror from documents the provider sends: `via: 'push'`
   * (webhook_push, signed with the feed's push secret) or `via: 'upload'`
   * (manual_upload, the owner's session). `maxBytes` caps one document
   * (default 1 MiB; the body parser's 1 MB limit applies first).
   */
  received(options: {
    name: string
    via: ReceivedDocuments['via']
    maxBytes?: number
  }): FeedSourceDriverFactory {
    return sourceDriverFactory('hosted_mirror', async () => {
      const { default: app } = await import('@adonisjs/core/services/app')
      const { ReceivedDocumentDriver } = await import('#feeds/drivers/received_document_driver')
      const { FeedSnapshots } = await import('#feeds/feed_snapshots')
      const { Clock } = await import('#core/clock')
      const clock = await app.container.make(Clock)
      return new ReceivedDocumentDriver({
        name: options.name,
        via: options.via,
        maxBytes: options.maxBytes ?? 1_048_576,
        snapshots: await app.container.make(FeedSnapshots),
        now: () => clock.now(),
      })
    })
  },
}
