import type { Clock } from '#core/clock'
import { isPublicAddress } from '#outbound/address_policy'
import { exchange, type OutgoingRequest } from '#outbound/http_exchange'
import { OutboundFailure } from '#outbound/outbound_failure'
import { redirectTarget, requestAfterRedirect } from '#outbound/redirects'
import { type Resolver, systemResolver } from '#outbound/resolver'
import { TargetGuard } from '#outbound/target_guard'

export { OutboundFailure, type OutboundFailureKind } from '#outbound/outbound_failure'

export interface OutboundClientOptions {
  /** Times every request out (the app's Clock, so tests move time instead of waiting). */
  clock: Clock
  /** Plain http and loopback/private addresses are accepted (development and tests only). */
  allowPrivateTargets: boolean
  /** Only https URLs (production). */
  httpsOnly: boolean
  /** Ports a URL may name (production: [443]); any when unset. */
  allowedPorts?: number[]
  /** DNS; defaults to the system resolver. */
  resolve?: Resolver
  /**
   * Whether an address may be connected to. Defaults to isPublicAddress, or to
   * every address when allowPrivateTargets; tests inject one to make their
   * loopback server count as public.
   */
  isAllowedAddress?: (address: string) => boolean
  /** These four come from config/outbound.ts (OutboundConfig). */
  timeoutMs: number
  maxBytes: number
  maxRedirects: number
  userAgent: string
}

/**
 * - follow: follow up to maxRedirects redirects, each target checked again;
 * - same_origin: follow only redirects to the same scheme, host and port
 *   (else 'redirect_refused'), e.g. for signed requests;
 * - manual: return a 3xx answer as it is.
 */
export type RedirectMode = 'follow' | 'same_origin' | 'manual'

export interface OutboundRequest {
  method?: string
  /** Never logged: callers put signatures in them. */
  headers?: Record<string, string>
  body?: string | Uint8Array
  /** Covers DNS, every hop and the body read. */
  timeoutMs?: number
  maxBytes?: number
  redirect: RedirectMode
}

export interface OutboundResponse {
  status: number
  /** Lowercase names; repeated headers joined with ", ". */
  headers: Record<string, string>
  body: Buffer
  /** The URL that gave this answer (the last redirect target, or the URL asked). */
  url: string
  /** Every redirect target followed, in order. */
  redirects: string[]
}

/**
 * The one HTTP client for provider-controlled URLs (partner APIs, provider
 * websites, mirror sources). Every URL and redirect hop must pass the
 * TargetGuard; the connection goes to the address that was checked; time and
 * size are capped. Failures are OutboundFailure, safe to show to the provider.
 */
export class OutboundClient {
  readonly #clock: Clock
  readonly #guard: TargetGuard
  readonly #timeoutMs: number
  readonly #maxBytes: number
  readonly #maxRedirects: number
  readonly #userAgent: string

  constructor(options: OutboundClientOptions) {
    this.#clock = options.clock
    this.#guard = new TargetGuard({
      allowPrivateTargets: options.allowPrivateTargets,
      httpsOnly: options.httpsOnly,
      allowedPorts: options.allowedPorts,
      resolve: options.resolve ?? systemResolver,
      isAllowedAddress:
        options.isAllowedAddress ?? (options.allowPrivateTargets ? () => true : isPublicAddress),
    })
    this.#timeoutMs = options.timeoutMs
    this.#maxBytes = options.maxBytes
    this.#maxRedirects = options.maxRedirects
    this.#userAgent = options.userAgent
  }

  async request(url: string | URL, request: OutboundRequest): Promise<OutboundResponse> {
    const timeoutMs = request.timeoutMs ?? this.#timeoutMs
    const deadline = this.#clock.deadline(timeoutMs)
    const signal = deadline.signal
    const limits = { signal, maxBytes: request.maxBytes ?? this.#maxBytes }
    const redirects: string[] = []
    let previous: URL | undefined
    let current = this.#guard.parse(url)
    let outgoing = this.#outgoing(request)

    try {
      for (;;) {
        const target = await this.#checkHop(current, previous, signal)
        const response = await exchange(target, outgoing, limits)
        const next = request.redirect === 'manual' ? null : redirectTarget(response, current)
        if (!next) return { ...response, url: current.href, redirects }

        const crossOrigin = next.origin !== current.origin
        if (crossOrigin && request.redirect === 'same_origin') {
          throw new OutboundFailure(
            'redirect_refused',
            `${current.host} redirected to another origin (${next.host})`
          )
        }
        if (redirects.length >= this.#maxRedirects) {
          throw new OutboundFailure(
            'too_many_redirects',
            `${current.host} redirected more than ${this.#maxRedirects} times`
          )
        }
        outgoing = requestAfterRedirect(response.status, outgoing, crossOrigin)
        redirects.push(next.href)
        previous = current
        current = next
      }
    } catch (error) {
      if (!signal.aborted) throw error
      throw new OutboundFailure('timeout', `${current.host} did not answer within ${timeoutMs} ms`)
    } finally {
      deadline.clear()
    }
  }

  /** Checks the URL asked, or a redirect target (naming where the redirect came from). */
  async #checkHop(url: URL, redirectedFrom: URL | undefined, signal: AbortSignal) {
    try {
      return await this.#guard.check(url, signal)
    } catch (error) {
      if (!redirectedFrom || !(error instanceof OutboundFailure)) throw error
      throw new OutboundFailure(
        error.kind,
        `after a redirect from ${redirectedFrom.host}: ${error.message}`
      )
    }
  }

  #outgoing(request: OutboundRequest): OutgoingRequest {
    const headers: Record<string, string> = { 'user-agent': this.#userAgent }
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      headers[name.toLowerCase()] = value
    }
    const body = request.body === undefined ? undefined : Buffer.from(request.body)
    if (body) headers['content-length'] = String(body.byteLength)
    return { method: (request.method ?? 'GET').toUpperCase(), headers, body }
  }
}
