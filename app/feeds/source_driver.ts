import type { ApplicationService } from '@adonisjs/core/types'
import type { SourceChoice } from '#feeds/source_choice'
import type Feed from '#models/feed'

export type { SourceDelivery, SourceDriverMode, SourceField } from '#feeds/source_choice'

/** What a driver returns for one feed request: the content and where it came from. */
export interface FeedPayload {
  data: unknown
  /** Unix milliseconds of the data's freshness. */
  last_updated: number
  /** The real origin of the data, named truthfully. */
  data_source: string
  /** Set by a driver serving a stored copy older than its freshness promise. */
  stale?: true
}

/** What one scheduled poll did to the feed's stored snapshot. */
export interface PollResult {
  outcome: 'updated' | 'unchanged'
}

/** What the owner's source test found: the source fetched once now, nothing stored. */
export interface SourceProbe {
  result:
    'ok' | 'unreachable' | 'timeout' | 'not_json' | 'too_large' | 'http_error' | 'refused_target'
  /** The verdict in words: the host, and what went wrong. */
  message: string
  upstream_status: number | null
  latency_ms: number
  /** With ok: the document's size. */
  size_bytes?: number
}

/**
 * A source that sends its documents to us instead of being fetched: `push`
 * (signed `POST /ingest/<handle>/<slug>`; the feed gets a push secret) or
 * `upload` (the owner's `POST …/feeds/<slug>/upload`). Each accepted JSON
 * object or array of at most `maxBytes` becomes the current snapshot.
 */
export interface ReceivedDocuments {
  via: 'push' | 'upload'
  maxBytes: number
}

export interface FeedFetchRequest {
  /** The buyer's query parameters, as validated by the driver's validateQuery. */
  query: Record<string, unknown>
}

/**
 * A feed source driver (the plugin point for where feed data comes from).
 * Drivers are registered in config/feeds.ts; adding one touches neither the
 * paywall, the ledger nor any other driver. See docs/source-drivers.md.
 */
export interface FeedSourceDriver {
  readonly name: string
  /** Validates a feed's source_settings when a feed is created or edited. */
  validateSettings?(settings: unknown): Promise<Record<string, unknown>>
  /**
   * Validates the buyer's query string before any payment is asked; throws
   * VineJS's validation error (→ 422) on bad values. Absent → no parameters.
   */
  validateQuery?(feed: Feed, query: Record<string, unknown>): Promise<Record<string, unknown>>
  /** How long a payload may be served again without fetching; null → fetch on every call. */
  cacheTtlMs(feed: Feed): number | null
  /** Fetches the feed's data. Throws SourceUnavailable when the source fails. */
  fetch(feed: Feed, request: FeedFetchRequest): Promise<FeedPayload>
  /**
   * Optional: a driver that polls its source on a schedule (`mirrors:poll`)
   * into stored snapshots, which fetch() then serves. Throws
   * SourceUnavailable when the source fails (the last snapshot stays).
   * A polled driver's fetch() is not a source call: only polls count in the
   * feed's error rate.
   */
  poll?(feed: Feed): Promise<PollResult>
  /** Required with poll (see PollingDriver): how often the feed is polled. */
  pollIntervalMs?(feed: Feed): number
  /** Optional: fetches the source once now without storing it (the owner's source test). */
  probe?(feed: Feed): Promise<SourceProbe>
  /** Optional: the feed's documents are sent to us (see ReceivedDocuments). */
  readonly receives?: ReceivedDocuments
  /** Optional: release resources at shutdown. */
  close?(): Promise<void>
}

/**
 * A driver that polls its source: `poll` comes with its interval. The
 * FeedSourceManager refuses a driver with `poll` and no `pollIntervalMs`
 * when it creates it, so `isPolling` need only look at `poll`.
 */
export interface PollingDriver extends FeedSourceDriver {
  poll(feed: Feed): Promise<PollResult>
  pollIntervalMs(feed: Feed): number
}

export function isPolling(driver: FeedSourceDriver): driver is PollingDriver {
  return driver.poll !== undefined
}

/**
 * Whether a driver's paid calls serve a document stored beforehand (polled,
 * pushed or uploaded) rather than call its source: such a call is no source
 * call, and a feed with no stored document yet has nothing to sell.
 */
export function servesStoredDocuments(driver: FeedSourceDriver): boolean {
  return Boolean(driver.poll || driver.receives)
}

/**
 * What a driver declares of itself, before it is created: the mode it serves
 * (`builtin` the platform's own feeds, `partner_bridge` the feeds of a
 * Partner Bridge provider, `hosted_mirror` a source type a Hosted Mirror
 * provider may choose), how its data arrives, what the dashboard offers and
 * asks (label, description, fields; the label defaults to the config key),
 * and how the marketplace words a feed's freshness.
 */
export interface SourceDeclaration
  extends
    Pick<SourceChoice, 'mode' | 'delivery'>,
    Partial<Pick<SourceChoice, 'label' | 'description' | 'fields'>> {
  freshness(feed: FreshnessFacts): string
}

/** What the marketplace knows of a feed when it words its freshness. */
export interface FreshnessFacts {
  sourceSettings: Record<string, unknown>
  /** A built-in feed's cadence in words (`5 minutes`). */
  updateFrequency: string | null
  /** When its last stored document was fetched or received, in words (`3 minutes ago`); null before the first. */
  lastStored: string | null
}

/**
 * Creates a driver (once, on first use) from its name (the config key) and
 * the application, as @adonisjs/drive's factories do. `declaration` is what
 * the driver declares of itself (SourceDeclaration): the source types a
 * Hosted Mirror provider may name are exactly the configured factories
 * declaring `mode: 'hosted_mirror'`. Without one no provider can choose the
 * driver (a test's or an internal driver).
 */
export interface FeedSourceDriverFactory {
  (name: string, app: ApplicationService): FeedSourceDriver | Promise<FeedSourceDriver>
  readonly declaration?: SourceDeclaration
}

/** A factory with its driver's declaration (see FeedSourceDriverFactory). */
export function sourceDriverFactory(
  declaration: SourceDeclaration,
  create: (name: string, app: ApplicationService) => FeedSourceDriver | Promise<FeedSourceDriver>
): FeedSourceDriverFactory {
  return Object.assign((name: string, app: ApplicationService) => create(name, app), {
    declaration,
  })
}

/**
 * The source of a feed failed: time-out, error status, malformed or
 * unexpected answer. Counted against the feed's uptime; the buyer is not
 * charged. Any other error from a driver is a bug and surfaces as a 500.
 */
export class SourceUnavailable extends Error {}
