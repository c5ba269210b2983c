import { signTollboothRequest } from '#partner_verifier'
import { isTooDeep } from '#core/storable_json'
import type { OutboundClient } from '#outbound/outbound_client'
import type { PartnerBridgeSettings } from '#feeds/partner_bridge/partner_bridge_settings'

/** Where and as whom Tollbooth calls a partner: read fresh on every call, so a rotation bites at once. */
export interface PartnerTarget {
  handle: string
  partnerEndpoint: string
  /** K = SHA-256(secret): the HMAC key of signature v1. */
  key: Buffer
}

export interface PartnerAnswer {
  status: number
  body: Buffer
  latencyMs: number
}

/**
 * The path Tollbooth signs and requests: the feed's source_path plus the
 * buyer's parameters the feed forwards, in the order the feed lists them.
 */
export function partnerPathFor(
  settings: Pick<PartnerBridgeSettings, 'source_path' | 'forward_query'>,
  query: Record<string, unknown> = {}
): string {
  const url = new URL(settings.source_path, 'https://partner.invalid')
  for (const name of settings.forward_query ?? []) {
    const value = query[name]
    if (typeof value === 'string') url.searchParams.append(name, value)
  }
  return `${url.pathname}${url.search}`
}

/**
 * One signed GET to a partner (Tollbooth signature v1,
 * docs/partner-bridge.md#the-signature-tollbooth-signature-v1)
 * through the SSRF-guarded client. Redirects are followed only on the
 * partner's own origin; the timestamp and the latency are the injectable
 * clock's. Outbound failures (time-out, refused target, size cap) are thrown
 * as OutboundFailure for the caller to classify.
 */
export async function requestPartner(
  outbound: OutboundClient,
  target: PartnerTarget,
  pathAndQuery: string,
  limits: { timeoutMs: number; maxBytes: number; now(): number }
): Promise<PartnerAnswer> {
  const started = limits.now()
  const headers = signTollboothRequest({
    key: target.key,
    method: 'GET',
    pathAndQuery,
    provider: target.handle,
    timestamp: Math.floor(started / 1000),
  })
  const response = await outbound.request(new URL(pathAndQuery, target.partnerEndpoint).href, {
    method: 'GET',
    headers: {
      ...headers,
      'accept': 'application/json',
      'user-agent': 'Tollbooth-PartnerBridge/1',
    },
    redirect: 'same_origin',
    timeoutMs: limits.timeoutMs,
    maxBytes: limits.maxBytes,
  })
  return {
    status: response.status,
    body: response.body,
    latencyMs: limits.now() - started,
  }
}

/**
 * The partner's answer parsed as JSON, or not ok when it is not JSON or nests
 * deeper than we can write back out (it is served and stored as JSON text).
 */
export function parsePartnerJson(
  answer: PartnerAnswer
): { ok: true; value: unknown } | { ok: false } {
  let value: unknown
  try {
    value = JSON.parse(answer.body.toString('utf8'))
  } catch {
    return { ok: false }
  }
  return isTooDeep(value) ? { ok: false } : { ok: true, value }
}
