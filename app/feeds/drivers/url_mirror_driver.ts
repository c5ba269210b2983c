import vine from '@vinejs/vine'
import { registerCodedRules } from '#core/coded_rules'
import { MAX_JSON_DEPTH, isStorableAsJsonb } from '#core/storable_json'
import type { FeedSnapshots } from '#feeds/feed_snapshots'
import { MirrorFailure, type MirrorFailureKind } from '#feeds/mirror_failure'
import { snapshotPayload } from '#feeds/snapshot_payload'
import {
  DEFAULT_POLL_INTERVAL_SECONDS,
  URL_MIRROR_POLL_INTERVALS,
} from '#feeds/drivers/url_mirror_settings'
import type { FeedPayload, PollingDriver, PollResult, SourceProbe } from '#feeds/source_driver'
import type Feed from '#models/feed'
import type { OutboundClient } from '#outbound/outbound_client'
import { OutboundFailure, describeOutboundFailure } from '#outbound/outbound_failure'
import { outboundUrlProblem } from '#outbound/url_policy'

function problemWith(value: string): string | null {
  const problem =
    outboundUrlProblem(value) ?? (value.includes('#') ? 'must not contain a fragment (#…)' : null)
  return problem ? `url ${problem}` : null
}

/** An https URL (http only outside production) without credentials or fragment. */
const sourceUrlRule = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string') return
  const problem = problemWith(value)
  if (problem) field.report(problem, 'invalid_source_url', field)
})
registerCodedRules('invalid_source_url')

/** A URL source's settings as given; validateSettings fills in the default interval. */
export const urlMirrorSettingsValidator = vine.create({
  url: vine.string().maxLength(2048).use(sourceUrlRule()),
  poll_interval_seconds: vine.enum(URL_MIRROR_POLL_INTERVALS).optional(),
})

export interface UrlMirrorSettings {
  url: string
  poll_interval_seconds: (typeof URL_MIRROR_POLL_INTERVALS)[number]
}

export interface UrlMirrorDriverOptions {
  /** The source type it is registered as: codehost_raw or objectstore_url. */
  name: string
  outbound: OutboundClient
  /** Where the polled documents are kept and served from. */
  snapshots: FeedSnapshots
  /** Covers DNS, every redirect hop and the body (config/feeds.ts). */
  timeoutMs: number
  /** One document's cap (config/feeds.ts). */
  maxBytes: number
  now(): number
}

/** What one request to the source gave: a JSON document, or 304 Not Modified. */
export type SourceAnswer =
  | { notModified: true }
  | {
      notModified: false
      /** The host that answered (the last redirect target's) and its status. */
      host: string
      status: number
      payload: FeedPayload
      /** The document's text as received (what the snapshot hashes and measures). */
      body: string
      etag: string | null
      lastModified: string | null
    }

/** A snapshot older than this many poll intervals is served flagged `stale`. */
export const STALE_AFTER_INTERVALS = 3

/**
 * Hosted Mirror from a URL (codehost_raw, objectstore_url): the provider's
 * JSON file, polled on a schedule (`mirrors:poll`) through the SSRF-guarded
 * outbound client into PostgreSQL snapshots (FeedSnapshots).
 *
 * The buyer's path never reaches the source: fetch() serves the current
 * snapshot, the same on every app instance; none yet → source unavailable
 * (nothing charged); older than 3 × the poll interval → flagged `stale`.
 * poll() makes a conditional request (If-None-Match / If-Modified-Since):
 * a 304 keeps the snapshot, only a JSON object or array replaces it, and a
 * failure (MirrorFailure) leaves the last good one in place.
 */
export class UrlMirrorDriver implements PollingDriver {
  readonly name: string
  readonly #timeoutMs: number
  readonly #maxBytes: number

  constructor(private options: UrlMirrorDriverOptions) {
    this.name = options.name
    this.#timeoutMs = options.timeoutMs
    this.#maxBytes = options.maxBytes
  }

  async validateSettings(settings: unknown): Promise<Record<string, unknown>> {
    const valid = await urlMirrorSettingsValidator.validate(settings)
    const result: UrlMirrorSettings = {
      url: valid.url,
      poll_interval_seconds: valid.poll_interval_seconds ?? DEFAULT_POLL_INTERVAL_SECONDS,
    }
    return { ...result }
  }

  /** Served from the database on every call: no per-process cache. */
  cacheTtlMs() {
    return null
  }

  pollIntervalMs(feed: Feed) {
    return pollIntervalOf(feed) * 1_000
  }

  /** The buyer's path: the current snapshot, never a request to the source. */
  fetch(feed: Feed): Promise<FeedPayload> {
    return snapshotPayload(this.options.snapshots, feed, {
      dataSource: `${hostOf(feed)} (Hosted Mirror)`,
      staleAfterMs: STALE_AFTER_INTERVALS * this.pollIntervalMs(feed),
      now: this.options.now(),
    })
  }

  /** One scheduled poll: a new document becomes the current snapshot. */
  async poll(feed: Feed): Promise<PollResult> {
    const snapshots = this.options.snapshots
    const current = await snapshots.validators(feed.id)
    const answer = await this.download(feed, current ?? undefined)
    if (answer.notModified) {
      if (!current) throw new MirrorFailure('http_status', `${hostOf(feed)} answered HTTP 304`)
      await snapshots.confirm(feed.id)
      return { outcome: 'unchanged' }
    }
    const stored = await snapshots.store(feed.id, {
      body: answer.body,
      data: answer.payload.data,
      lastUpdated: answer.payload.last_updated,
      etag: answer.etag,
      lastModified: answer.lastModified,
    })
    return { outcome: stored.version === current?.version ? 'unchanged' : 'updated' }
  }

  /** The owner's source test: one unconditional request now; nothing is stored. */
  async probe(feed: Feed): Promise<SourceProbe> {
    const started = this.options.now()
    const latency = () => Math.max(0, this.options.now() - started)
    try {
      const answer = await this.download(feed)
      if (answer.notModified) throw new MirrorFailure('http_status', 'HTTP 304', 304)
      return {
        result: 'ok',
        message: `${answer.host} answered a JSON document`,
        upstream_status: answer.status,
        latency_ms: latency(),
        size_bytes: Buffer.byteLength(answer.body),
      }
    } catch (error) {
      if (!(error instanceof MirrorFailure)) throw error
      return {
        result: PROBE_RESULTS[error.kind],
        message: error.message,
        upstream_status: error.httpStatus,
        latency_ms: latency(),
      }
    }
  }

  /** One request to the source, conditional on the validators of `previous`. */
  async download(
    feed: Feed,
    previous?: { etag: string | null; lastModified: string | null }
  ): Promise<SourceAnswer> {
    const source = sourceUrlOf(feed)
    const host = source.host
    const headers: Record<string, string> = { accept: 'application/json' }
    if (previous?.etag) headers['if-none-match'] = previous.etag
    if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified
    let response
    try {
      response = await this.options.outbound.request(source, {
        method: 'GET',
        headers,
        redirect: 'follow',
        timeoutMs: this.#timeoutMs,
        maxBytes: this.#maxBytes,
      })
    } catch (error) {
      if (error instanceof OutboundFailure) {
        const { outcome, message } = describeOutboundFailure(error, host)
        throw new MirrorFailure(outcome, message, error.httpStatus)
      }
      throw error
    }
    /** The host that answered: the source's, or the last redirect target's. */
    const answered = new URL(response.url).host
    if (response.status === 304 && previous) return { notModified: true }
    if (response.status < 200 || response.status > 299) {
      throw new MirrorFailure(
        'http_status',
        `${answered} answered HTTP ${response.status}`,
        response.status
      )
    }
    const body = response.body.toString('utf8').replace(/^\uFEFF/, '')
    let data: unknown
    try {
      data = JSON.parse(body)
    } catch {
      throw new MirrorFailure(
        'bad_json',
        `${answered} did not answer JSON (HTTP ${response.status}, content-type: ${quoted(response.headers['content-type'] ?? 'none')})`,
        response.status
      )
    }
    if (data === null || typeof data !== 'object') {
      throw new MirrorFailure(
        'not_a_document',
        `${answered} answered a JSON ${data === null ? 'null' : typeof data}, not an object or array`,
        response.status
      )
    }
    if (!isStorableAsJsonb(data)) {
      throw new MirrorFailure(
        'not_a_document',
        `${answered} answered JSON that cannot be stored: a NUL character or an unpaired surrogate (\\u0000, \\ud800), a number too large to keep (1e400), or nested deeper than ${MAX_JSON_DEPTH} levels`,
        response.status
      )
    }
    const now = this.options.now()
    return {
      notModified: false,
      host: answered,
      status: response.status,
      payload: {
        data,
        last_updated: lastModifiedOf(response.headers['last-modified'], now),
        data_source: `${answered} (Hosted Mirror)`,
      },
      body,
      etag: response.headers.etag ?? null,
      lastModified: response.headers['last-modified'] ?? null,
    }
  }
}

/** The source test's verdict for each way a download fails. */
const PROBE_RESULTS: Record<MirrorFailureKind, SourceProbe['result']> = {
  timeout: 'timeout',
  too_large: 'too_large',
  refused_target: 'refused_target',
  unreachable: 'unreachable',
  http_status: 'http_error',
  bad_json: 'not_json',
  not_a_document: 'not_json',
  no_snapshot: 'unreachable',
}

function hostOf(feed: Feed): string {
  return sourceUrlOf(feed).host
}

function pollIntervalOf(feed: Feed): number {
  const interval = feed.sourceSettings.poll_interval_seconds
  return URL_MIRROR_POLL_INTERVALS.includes(interval as UrlMirrorSettings['poll_interval_seconds'])
    ? (interval as number)
    : DEFAULT_POLL_INTERVAL_SECONDS
}

function sourceUrlOf(feed: Feed): URL {
  const url = feed.sourceSettings.url
  try {
    if (typeof url === 'string') return new URL(url)
  } catch {}
  throw new MirrorFailure('refused_target', 'the feed has no valid source URL')
}

/** Last-Modified as epoch ms when present and valid (never in the future), else now. */
function lastModifiedOf(header: string | undefined, now: number): number {
  if (!header) return now
  const parsed = Date.parse(header)
  return Number.isFinite(parsed) ? Math.min(parsed, now) : now
}

/** The longest content-type a failure quotes: the source's header is stored (last_error) and logged. */
const QUOTED_CONTENT_TYPE_CHARS = 100

function quoted(type: string) {
  return type.length <= QUOTED_CONTENT_TYPE_CHARS
    ? type
    : `${type.slice(0, QUOTED_CONTENT_TYPE_CHARS)}… (cut, ${type.length} characters)`
}
