import { errors as vineErrors } from '@vinejs/vine'
import type { UpstreamHttp, UpstreamRequest, Validates } from '#feeds/builtin/adapter'
import { UPSTREAMS, type UpstreamName } from '#feeds/builtin/upstreams'
import { SourceUnavailable } from '#feeds/source_driver'

/** Why an upstream call failed; the feed then answers source_unavailable. */
export class UpstreamFailure extends SourceUnavailable {
  constructor(
    readonly upstream: UpstreamName,
    readonly kind:
      'timeout' | 'unreachable' | 'http_status' | 'too_large' | 'malformed_json' | 'schema_drift',
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
}

/**
 * The built-in feeds' HTTP client. Upstream base URLs are our own
 * configuration (not provider-controlled), so no SSRF guard is needed here;
 * time-out, size cap and schema validation are.
 */
export class FetchUpstreamHttp implements UpstreamHttp {
  constructor(private options: UpstreamHttpOptions) {}

  async getJson<T>(
    upstream: UpstreamName,
    path: string,
    schema: Validates<T>,
    request: UpstreamRequest = {}
  ) {
    const url = `${this.options.baseUrls[upstream]}${path}`
    const headers: Record<string, string> = {
      'accept': 'application/json',
      'user-agent': 'tollbooth-feeds',
      ...request.headers,
    }
    if (request.body !== undefined) headers['content-type'] = 'application/json'

    let response: Response
    try {
      response = await fetch(url, {
        method: request.method ?? 'GET',
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'error',
      })
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError'
      throw new UpstreamFailure(
        upstream,
        timedOut ? 'timeout' : 'unreachable',
        timedOut ? 'timed out' : 'unreachable'
      )
    }
    if (!response.ok) {
      await response.body?.cancel()
      throw new UpstreamFailure(upstream, 'http_status', `answered HTTP ${response.status}`)
    }

    const text = await this.#readCapped(upstream, response)
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      throw new UpstreamFailure(upstream, 'malformed_json', 'answered malformed JSON')
    }
    try {
      return await schema.validate(body)
    } catch (error) {
      if (error instanceof vineErrors.E_VALIDATION_ERROR) {
        throw new UpstreamFailure(upstream, 'schema_drift', 'answered an unexpected shape')
      }
      throw error
    }
  }

  async #readCapped(upstream: UpstreamName, response: Response): Promise<string> {
    const reader = response.body?.getReader()
    if (!reader) return ''
    const chunks: Uint8Array[] = []
    let size = 0
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>
      try {
        chunk = await reader.read()
      } catch {
        throw new UpstreamFailure(upstream, 'timeout', 'timed out while sending its answer')
      }
      if (chunk.done) break
      size += chunk.value.byteLength
      if (size > this.options.maxBytes) {
        await reader.cancel()
        throw new UpstreamFailure(
          upstream,
          'too_large',
          `answered more than ${this.options.maxBytes} bytes`
        )
      }
      chunks.push(chunk.value)
    }
    return Buffer.concat(chunks).toString('utf8')
  }
}
