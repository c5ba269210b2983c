import vine from '@vinejs/vine'
import { registerCodedRules } from '#core/coded_rules'
import { type FeedPayload, type FeedSourceDriver, SourceUnavailable } from '#feeds/source_driver'
import type Feed from '#models/feed'
import type { OutboundClient } from '#outbound/outbound_client'
import {
  OutboundFailure,
  type OutboundOutcome,
  describeOutboundFailure,
} from '#outbound/outbound_failure'
import { outboundUrlProblem } from '#outbound/url_policy'

export const URL_MIRROR_POLL_INTERVALS = [60, 300, 900, 3600] as const
export const DEFAULT_POLL_INTERVAL_SECONDS = 300

export type MirrorFailureKind = OutboundOutcome | 'http_status' | 'bad_json' | 'not_a_document'

/**
 * The mirrored source did not give a JSON document in time: the buyer is not
 * charged. The message names the host and the reason, never the URL's path
 * or query string (a signed object-store URL carries its token there).
 */
export class MirrorFailure extends SourceUnavailable {
  override name = 'MirrorFailure'

  constructor(
    readonly kind: MirrorFailureKind,
    message: string
  ) {
    super(message)
  }
}

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
  /** Default 5000 ms, covering DNS, every redirect hop and the body. */
  timeoutMs?: number
  /** Default 1 MiB. */
  maxBytes?: number
  now(): number
}

/**
 * Hosted Mirror from a URL (codehost_raw, objectstore_url): the provider's
 * JSON file, read through the SSRF-guarded outbound client.
 *
 * Mirrors are read on demand and cached for the poll interval: the TTL is
 * poll_interval_seconds, so FeedReader fetches the file at most once per
 * interval per process, serves the mirrored copy in between and a stale copy
 * (flagged) for up to another interval while the source is down. A scheduled
 * background poll is therefore not needed for correctness (it would only
 * save the first buyer after an interval the fetch's latency).
 */
export class UrlMirrorDriver implements FeedSourceDriver {
  readonly name: string
  readonly #timeoutMs: number
  readonly #maxBytes: number

  constructor(private options: UrlMirrorDriverOptions) {
    this.name = options.name
    this.#timeoutMs = options.timeoutMs ?? 5_000
    this.#maxBytes = options.maxBytes ?? 1_048_576
  }

  async validateSettings(settings: unknown): Promise<Record<string, unknown>> {
    const valid = await urlMirrorSettingsValidator.validate(settings)
    const result: UrlMirrorSettings = {
      url: valid.url,
      poll_interval_seconds: valid.poll_interval_seconds ?? DEFAULT_POLL_INTERVAL_SECONDS,
    }
    return { ...result }
  }

  cacheTtlMs(feed: Feed) {
    return pollIntervalOf(feed) * 1_000
  }

  async fetch(feed: Feed): Promise<FeedPayload> {
    const source = sourceUrlOf(feed)
    const host = source.host
    let response
    try {
      response = await this.options.outbound.request(source, {
        method: 'GET',
        headers: { accept: 'application/json' },
        redirect: 'follow',
        timeoutMs: this.#timeoutMs,
        maxBytes: this.#maxBytes,
      })
    } catch (error) {
      if (error instanceof OutboundFailure) {
        const { outcome, message } = describeOutboundFailure(error, host)
        throw new MirrorFailure(outcome, message)
      }
      throw error
    }
    /** The host that answered: the source's, or the last redirect target's. */
    const answered = new URL(response.url).host
    if (response.status < 200 || response.status > 299) {
      throw new MirrorFailure('http_status', `${answered} answered HTTP ${response.status}`)
    }
    let data: unknown
    try {
      data = JSON.parse(response.body.toString('utf8').replace(/^\uFEFF/, ''))
    } catch {
      throw new MirrorFailure('bad_json', `${answered} did not answer JSON`)
    }
    if (data === null || typeof data !== 'object') {
      throw new MirrorFailure(
        'not_a_document',
        `${answered} answered a JSON ${data === null ? 'null' : typeof data}, not an object or array`
      )
    }
    const now = this.options.now()
    return {
      data,
      last_updated: lastModifiedOf(response.headers['last-modified'], now),
      data_source: `${answered} (Hosted Mirror)`,
    }
  }
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
