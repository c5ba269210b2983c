import { Clock } from '#core/clock'
import { injectableConfig } from '#core/injectable_config'
import type { BuiltinFeedsSettings } from '#feeds/builtin/adapter'
import type { UpstreamName } from '#feeds/builtin/upstreams'
import type { ApplicationService } from '@adonisjs/core/types'
import {
  URL_MIRROR_POLL_INTERVALS,
  DEFAULT_POLL_INTERVAL_SECONDS,
} from '#feeds/drivers/url_mirror_settings'
import {
  type ReceivedDocuments,
  type FeedSourceDriver,
  type FeedSourceDriverFactory,
  type SourceDeclaration,
  sourceDriverFactory,
} from '#feeds/source_driver'
import { intervalInWords } from '#web/words'

export interface FeedsConfigValues {
  sources: Record<string, FeedSourceDriverFactory>
  /** Where the built-in feeds' upstreams are simulated (development, tests); undefined in production. */
  upstreamSimulatorUrl?: string
  /** The last good payloads (FeedCache): how many feed + query entries one instance keeps. */
  cache: { maxEntries: number }
  /** Feed look-ups by slug for the paid routes (FeedDirectory). */
  directory: { ttlMs: number; maxEntries: number }
  /** Hosted Mirror snapshots: how many versions each feed keeps. */
  snapshots: { keep: number }
  /** webhook_push: the accepted distance of a push's timestamp from our clock. */
  push: { toleranceSeconds: number }
  /** `mirrors:poll`: how a run claims and polls the due feeds (docs/hosted-mirror.md#polling). */
  polling: MirrorPollingConfig
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

/** config/feeds.ts, bound by FeedsProvider: `@inject()` classes take it as an argument. */
export class FeedsConfig extends injectableConfig<FeedsConfigValues>() {}

export function defineConfig(values: FeedsConfigValues) {
  return new FeedsConfig(values)
}

/** What a received source's feed says of its freshness, by how the documents come. */
const RECEIVED_WORDS = {
  push: {
    label: 'You push it to us',
    description:
      'Your system POSTs each new document to Tollbooth, signed with a push secret shown once.',
    stored: 'Pushed by the provider',
    waiting: 'Waiting for its first push',
  },
  upload: {
    label: 'You upload it by hand',
    description: 'Upload a JSON document from the dashboard whenever it changes.',
    stored: 'Uploaded by the provider',
    waiting: 'Waiting for its first upload',
  },
} as const

/**
 * Factories of the drivers Tollbooth ships, each created on first use, and
 * `custom` for a driver of your own. A factory declares its driver
 * (SourceDeclaration): `hosted_mirror` ones are the source types providers
 * may choose, offered on the dashboard with their label and fields.
 */
export const sources = {
  /**
   * A driver of your own (one file): `mode: 'hosted_mirror'` offers it to
   * Hosted Mirror providers as a source type named by its config key, with
   * the declared label, description and fields.
   */
  custom(
    declaration: SourceDeclaration,
    create: (name: string, app: ApplicationService) => FeedSourceDriver | Promise<FeedSourceDriver>
  ): FeedSourceDriverFactory {
    return sourceDriverFactory(declaration, create)
  },

  builtin(options: {
    baseUrls: Record<UpstreamName, string>
    simulated: boolean
    timeoutMs: number
    maxBytes: number
    settings: BuiltinFeedsSettings
  }): FeedSourceDriverFactory {
    const declaration: SourceDeclaration = {
      mode: 'builtin',
      delivery: 'fetched',
      freshness: (feed) => `Updated every ${feed.updateFrequency ?? 'few minutes'}`,
    }
    return sourceDriverFactory(declaration, async (_name, app) => {
      const { BuiltinSourceDriver } = await import('#feeds/drivers/builtin_driver')
      const { FetchUpstreamHttp } = await import('#feeds/builtin/upstream_http')
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
    const declaration: SourceDeclaration = {
      mode: 'partner_bridge',
      delivery: 'fetched',
      label: 'Your API',
      description: 'Tollbooth calls your server, signed, after each payment.',
      fields: [
        {
          name: 'source_path',
          label: 'Path on your API',
          kind: 'text',
          hint: 'The route Tollbooth calls on your server after a buyer pays, e.g. /v1/prices. No query string.',
          required: true,
          maxLength: 512,
          default: '/',
        },
      ],
      freshness: () => 'Live: fetched from the provider on every call',
    }
    return sourceDriverFactory(declaration, async (_name, app) => {
      const { PartnerBridgeDriver } = await import('#feeds/drivers/partner_bridge_driver')
      const { OutboundClient } = await import('#outbound/outbound_client')
      const { partnerTargetOf } = await import('#provider_accounts/partner_targets')
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
   * client into PostgreSQL snapshots, which paid calls serve. `label` and `description` are the dashboard's words for
   * the choice. A Hosted Mirror source type, named by its config key.
   */
  urlMirror(options: {
    timeoutMs: number
    maxBytes: number
    label?: string
    description?: string
  }): FeedSourceDriverFactory {
    const declaration: SourceDeclaration = {
      mode: 'hosted_mirror',
      delivery: 'polled',
      label: options.label ?? 'A JSON document at a URL',
      description: options.description ?? 'Its URL. We fetch it on a schedule.',
      fields: [
        {
          name: 'url',
          label: 'URL of the JSON document',
          kind: 'url',
          hint: 'An https URL that answers with JSON. We fetch it once now, then on the schedule below.',
          required: true,
          maxLength: 2048,
          placeholder: 'https://raw.githubusercontent.com/you/data/main/prices.json',
        },
        {
          name: 'poll_interval_seconds',
          label: 'How often we fetch it',
          kind: 'choice',
          hint: 'Buyers get the latest copy we fetched.',
          choices: URL_MIRROR_POLL_INTERVALS.map((seconds) => ({
            value: seconds,
            label: `every ${intervalInWords(seconds)}`,
          })),
          default: DEFAULT_POLL_INTERVAL_SECONDS,
        },
      ],
      freshness({ sourceSettings, lastStored }) {
        const interval = Number(sourceSettings.poll_interval_seconds ?? 0)
        const every = interval ? `Mirrored every ${intervalInWords(interval)}` : 'Mirrored'
        return lastStored
          ? `${every}, last fetched ${lastStored}`
          : `${every}, waiting for its first fetch`
      },
    }
    return sourceDriverFactory(declaration, async (name, app) => {
      const { UrlMirrorDriver } = await import('#feeds/drivers/url_mirror_driver')
      const { OutboundClient } = await import('#outbound/outbound_client')
      const { FeedSnapshots } = await import('#feeds/feed_snapshots')
      const clock = await app.container.make(Clock)
      return new UrlMirrorDriver({
        name,
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
   * (the body parser's 1 MB limit applies first).
   */
  received(options: { via: ReceivedDocuments['via']; maxBytes: number }): FeedSourceDriverFactory {
    const words = RECEIVED_WORDS[options.via]
    const declaration: SourceDeclaration = {
      mode: 'hosted_mirror',
      delivery: options.via === 'push' ? 'pushed' : 'uploaded',
      label: words.label,
      description: words.description,
      freshness: ({ lastStored }) =>
        lastStored ? `${words.stored}, last ${lastStored}` : words.waiting,
    }
    return sourceDriverFactory(declaration, async (name, app) => {
      const { ReceivedDocumentDriver } = await import('#feeds/drivers/received_document_driver')
      const { FeedSnapshots } = await import('#feeds/feed_snapshots')
      const clock = await app.container.make(Clock)
      return new ReceivedDocumentDriver({
        name,
        via: options.via,
        maxBytes: options.maxBytes,
        snapshots: await app.container.make(FeedSnapshots),
        now: () => clock.now(),
      })
    })
  },
}
