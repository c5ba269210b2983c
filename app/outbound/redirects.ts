import type { ExchangeResponse, OutgoingRequest } from '#outbound/http_exchange'
import { OutboundFailure } from '#outbound/outbound_failure'

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/** Headers that must not follow a redirect to another origin (as fetch does). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization']

/** Where a redirect answer points, or null when the answer is not a redirect. */
export function redirectTarget(response: ExchangeResponse, from: URL): URL | null {
  const location = response.headers['location']
  if (!REDIRECT_STATUSES.has(response.status) || !location) return null
  try {
    return new URL(location, from)
  } catch {
    throw new OutboundFailure('invalid_url', `${from.host} redirected to an invalid URL`)
  }
}

/**
 * The request to send to a redirect's target: 303 (and 301/302 after a POST)
 * become a GET without body; credentials are dropped when the origin changes.
 */
export function requestAfterRedirect(
  status: number,
  request: OutgoingRequest,
  crossOrigin: boolean
): OutgoingRequest {
  const headers = { ...request.headers }
  if (crossOrigin) for (const name of CREDENTIAL_HEADERS) delete headers[name]

  const becomesGet =
    (status === 303 && request.method !== 'HEAD') ||
    ((status === 301 || status === 302) && request.method === 'POST')
  if (!becomesGet) return { ...request, headers }

  delete headers['content-type']
  delete headers['content-length']
  return { method: 'GET', headers }
}
