import type { Clock } from '#core/clock'
import type { UpstreamHttp, UpstreamRequest } from '#feeds/builtin/adapter'
import { UPSTREAMS, type UpstreamName } from '#feeds/builtin/upstreams'
import { SourceUnavailable } from '#feeds/source_driver'
import {
  JsonRequestFailure,
  type JsonRequestFailureKind,
  requestJson,
  type Validates,
} from '#outbound/json_request'

/** An answer that fails its adapter's schema is the upstream's schema drifting. */
type UpstreamFailureKind = Exclude<JsonRequestFailureKind, 'invalid_answer'> | 'schema_drift'

/** Why an upstream call failed; the feed then answers source_unavailable. */
export class UpstreamFailure extends SourceUnavailable {
  constructor(
    readonly upstream: UpstreamName,
    readonly kind: UpstreamFailureKind,
    detail: string
  ) {
    super(`${UPSTREAMS[upstream].label}: ${detail}`)
  }
}

export interface UpstreamHttpOptions {
  /** Base URL per upstream (the real API or the simulator's prefix). */
  baseUrls: Record<UpstreamName, string>
  timeoutMs: number
  maxBytes: number
  clock: Clock
}

/**
 * The built-in feeds' HTTP client. Upstream base URLs are our own
 * configuration (not provider-controlled), so no SSRF guard is needed here;
 * time-out, size cap and schema validation are (requestJson).
 */
export class FetchUpstreamHttp implements UpstreamHttp {
  constructor(private options: UpstreamHttpOptions) {}

  async getJson<T>(
    upstream: UpstreamName,
    path: string,
    schema: Validates<T>,
    request: UpstreamRequest = {}
  ) {
    const headers: Record<string, string> = {
      'accept': 'application/json',
      'user-agent': 'tollbooth-feeds',
      ...request.headers,
    }
    if (request.body !== undefined) headers['content-type'] = 'application/json'
    try {
      const answer = await requestJson(
        this.options.clock,
        `${this.options.baseUrls[upstream]}${path}`,
        {
          method: request.method,
          headers,
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          timeoutMs: this.options.timeoutMs,
          maxBytes: this.options.maxBytes,
          answer: schema,
        }
      )
      return answer.body
    } catch (error) {
      if (!(error instanceof JsonRequestFailure)) throw error
      const kind = error.kind === 'invalid_answer' ? 'schema_drift' : error.kind
      throw new UpstreamFailure(upstream, kind, upstreamDetail(error))
    }
  }
}

/** What the feed's error says: never a system error code of ours. */
function upstreamDetail(error: JsonRequestFailure): string {
  return error.kind === 'unreachable' && !error.answer ? 'unreachable' : error.message
}
