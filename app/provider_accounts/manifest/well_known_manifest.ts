import { OutboundFailure, type OutboundClient } from '#outbound/outbound_client'
import type { ManifestDocument } from '#provider_accounts/manifest/manifest_checks'
import { MAX_JSON_DEPTH, isTooDeep } from '#core/storable_json'

export const WELL_KNOWN_MANIFEST_PATH = '/.well-known/tollbooth-feeds.json'

/** The outcome of fetching a provider's discovery manifest. */
export interface ManifestFetch {
  /** `<website origin>/.well-known/tollbooth-feeds.json`; null without a usable website. */
  manifestUrl: string | null
  /** HTTP 200 with a JSON object, at the registered host (and port) after redirects. */
  present: boolean
  /** The URL that gave the last answer; null when nothing answered. */
  finalUrl: string | null
  redirects: string[]
  httpStatus: number | null
  /** What was expected and found, for the manifest_present check. */
  detail: string
  /**
   * The JSON object served with HTTP 200, even at another host (the content
   * checks still describe it); null when none was.
   */
  manifest: ManifestDocument | null
}

export interface ManifestFetchLimits {
  timeoutMs: number
  maxBytes: number
}

/**
 * Fetches the manifest at the exact registered host, following redirects
 * through the SSRF-guarded client. Nothing here throws for a site's fault: a
 * time-out, refused target, oversized or non-JSON answer is a false `present`
 * with a detail saying why.
 */
export async function fetchWellKnownManifest(
  outbound: OutboundClient,
  website: string | null,
  limits: ManifestFetchLimits
): Promise<ManifestFetch> {
  const absent = { present: false, finalUrl: null, redirects: [], httpStatus: null, manifest: null }
  if (!website) return { ...absent, manifestUrl: null, detail: 'no website registered' }

  const registered = URL.parse(website)
  if (!registered || !['http:', 'https:'].includes(registered.protocol)) {
    return { ...absent, manifestUrl: null, detail: `website ${website} is not an http(s) URL` }
  }
  const manifestUrl = new URL(WELL_KNOWN_MANIFEST_PATH, registered.origin).href

  let response
  try {
    response = await outbound.request(manifestUrl, {
      headers: { accept: 'application/json' },
      redirect: 'follow',
      timeoutMs: limits.timeoutMs,
      maxBytes: limits.maxBytes,
    })
  } catch (error) {
    if (!(error instanceof OutboundFailure)) throw error
    return {
      ...absent,
      manifestUrl,
      httpStatus: error.httpStatus,
      detail: `could not fetch ${manifestUrl}: ${error.message}`,
    }
  }

  const answered = {
    manifestUrl,
    finalUrl: response.url,
    redirects: response.redirects,
    httpStatus: response.status,
  }
  const parsed = response.status === 200 ? parseObject(response.body) : null
  const manifest = parsed?.object ?? null
  const finalHost = new URL(response.url).host

  if (finalHost !== registered.host) {
    return {
      ...answered,
      present: false,
      manifest,
      detail:
        `expected the manifest at the registered host ${registered.host}, but ${manifestUrl} ` +
        `redirected to another host, ${finalHost} (${response.url}, HTTP ${response.status})`,
    }
  }
  const at = `${response.url}${viaRedirects(response.redirects)}`
  if (response.status !== 200) {
    return {
      ...answered,
      present: false,
      manifest,
      detail: `expected HTTP 200 at ${at}, got HTTP ${response.status}`,
    }
  }
  if (!manifest) {
    const type = response.headers['content-type'] ?? 'none'
    return {
      ...answered,
      present: false,
      manifest,
      detail: `HTTP 200 at ${at}, but the body is ${parsed?.problem} (content-type: ${type})`,
    }
  }
  return { ...answered, present: true, manifest, detail: `HTTP 200 with a JSON object at ${at}` }
}

function viaRedirects(redirects: string[]) {
  return redirects.length
    ? ` (after ${redirects.length} redirect(s): ${redirects.join(' -> ')})`
    : ''
}

/** The body as a JSON object (a leading BOM tolerated), or what it is instead. */
function parseObject(body: Buffer): { object: ManifestDocument | null; problem?: string } {
  let value: unknown
  try {
    value = JSON.parse(body.toString('utf8').replace(/^\uFEFF/, ''))
  } catch {
    return { object: null, problem: 'not valid JSON' }
  }
  if (isTooDeep(value)) {
    return { object: null, problem: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return { object: value as ManifestDocument }
  }
  const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value
  return { object: null, problem: `JSON but not an object (${kind})` }
}
