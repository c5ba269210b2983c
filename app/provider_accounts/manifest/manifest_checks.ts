import type { IntegrationMode } from '#models/provider'

/**
 * One line of the manifest report: what was expected and what was found.
 * `not_run` when there was no manifest to check (manifest_present says why).
 */
export interface ManifestCheck {
  name: string
  result: 'pass' | 'fail' | 'not_run'
  ok: boolean
  detail: string
}

export type ManifestDocument = Record<string, unknown>

/** What the manifest must agree with. */
export interface ManifestExpectations {
  /** The provider's handle on this marketplace. */
  handle: string
  /** This marketplace's PUBLIC_URL. */
  publicUrl: string
  integrationMode: IntegrationMode
  /** The path each live feed of the provider is listed under (see manifestFeedPath). */
  feedPaths: string[]
}

export const MANIFEST_VERSION = '1'
export const MARKETPLACE_NAME = 'tollbooth'
export const CONTENT_CHECK_NAMES = ['version', 'provider_handle', 'partnership', 'feed_paths']

/** A check's verdict. */
export function manifestCheck(name: string, ok: boolean, detail: string): ManifestCheck {
  return { name, result: ok ? 'pass' : 'fail', ok, detail }
}

/**
 * The content checks of a provider's discovery manifest, in report order.
 * Without a manifest (not fetched, not JSON) none is run.
 */
export function manifestContentChecks(
  manifest: ManifestDocument | null,
  expected: ManifestExpectations
): ManifestCheck[] {
  if (!manifest) {
    return CONTENT_CHECK_NAMES.map((name) => ({
      name,
      result: 'not_run',
      ok: false,
      detail: 'not run: no manifest to check',
    }))
  }
  return [
    versionCheck(manifest),
    providerHandleCheck(manifest, expected.handle),
    partnershipCheck(manifest, expected),
    feedPathsCheck(manifest, expected),
  ]
}

function versionCheck(manifest: ManifestDocument): ManifestCheck {
  const ok = manifest.version === MANIFEST_VERSION
  return manifestCheck(
    'version',
    ok,
    ok
      ? `version is "${MANIFEST_VERSION}"`
      : `expected version "${MANIFEST_VERSION}", found ${describe(manifest.version)}`
  )
}

function providerHandleCheck(manifest: ManifestDocument, handle: string): ManifestCheck {
  const provider = manifest.provider
  if (!isObject(provider)) {
    return failed(
      'provider_handle',
      `expected a provider object with handle "${handle}", found ${describe(provider)}`
    )
  }
  const ok = provider.handle === handle
  return manifestCheck(
    'provider_handle',
    ok,
    ok
      ? `provider.handle is "${handle}"`
      : `expected provider.handle "${handle}", found ${describe(provider.handle)}`
  )
}

/**
 * An entry for this marketplace under our handle: marketplace_handle equals
 * the handle, and marketplace_url shares PUBLIC_URL's origin or marketplace
 * is "tollbooth" (any case).
 */
function partnershipCheck(manifest: ManifestDocument, expected: ManifestExpectations) {
  const wanted =
    `a partnership with marketplace_handle "${expected.handle}" naming this marketplace ` +
    `(marketplace "${MARKETPLACE_NAME}" or marketplace_url on ${originOf(expected.publicUrl)})`
  const partnerships = manifest.partnerships
  if (!Array.isArray(partnerships)) {
    return failed(
      'partnership',
      `expected ${wanted}, but partnerships is ${describe(partnerships)}`
    )
  }
  const entries = partnerships.filter(isObject)
  const match = entries.find(
    (entry) =>
      entry.marketplace_handle === expected.handle &&
      (sameOrigin(entry.marketplace_url, expected.publicUrl) ||
        (typeof entry.marketplace === 'string' &&
          entry.marketplace.toLowerCase() === MARKETPLACE_NAME))
  )
  if (match) {
    return manifestCheck(
      'partnership',
      true,
      `partnership with ${describe(match.marketplace)} (${describe(match.marketplace_url)}) as "${expected.handle}"`
    )
  }
  const found = entries.length
    ? entries
        .map((entry) => `${describe(entry.marketplace)} as ${describe(entry.marketplace_handle)}`)
        .join(', ')
    : 'none'
  return failed('partnership', `expected ${wanted}; found: ${found}`)
}

/** How feeds[].path reads for each mode, in the feed_paths check's words. */
const FEED_PATH_WORDS: Record<IntegrationMode, { all: string; unknown: string }> = {
  partner_bridge: {
    all: 'registered Partner Bridge source paths',
    unknown: 'not a source_path of a live Partner Bridge feed of this provider',
  },
  hosted_mirror: {
    all: "marketplace paths of this provider's Hosted Mirror feeds",
    unknown:
      'not the marketplace path (/feeds/p/<handle>/<slug>) of a live Hosted Mirror feed of this provider',
  },
}

/** Every listed path must be one of the provider's live feeds' paths (manifestFeedPath). */
function feedPathsCheck(manifest: ManifestDocument, expected: ManifestExpectations) {
  const feeds = manifest.feeds
  if (!Array.isArray(feeds)) {
    return failed('feed_paths', `expected a feeds array, found ${describe(feeds)}`)
  }
  if (feeds.length === 0) {
    return failed('feed_paths', 'the manifest lists no feeds')
  }
  const words = FEED_PATH_WORDS[expected.integrationMode]
  const registered = new Set(expected.feedPaths)
  const unknown = feeds
    .map((feed, index) => {
      const path = isObject(feed) ? feed.path : undefined
      if (typeof path !== 'string') return `feeds[${index}] has no path`
      return registered.has(path) ? null : path
    })
    .filter((problem) => problem !== null)
  if (unknown.length === 0) {
    return manifestCheck('feed_paths', true, `all ${feeds.length} feed paths are ${words.all}`)
  }
  const known = registered.size ? [...registered].join(', ') : 'none'
  return failed('feed_paths', `${words.unknown}: ${unknown.join(', ')} (registered: ${known})`)
}

function failed(name: string, detail: string): ManifestCheck {
  return manifestCheck(name, false, detail)
}

function isObject(value: unknown): value is ManifestDocument {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function originOf(url: string) {
  return URL.parse(url)?.origin ?? url
}

function sameOrigin(url: unknown, publicUrl: string) {
  if (typeof url !== 'string') return false
  const origin = URL.parse(url)?.origin
  return origin !== undefined && origin !== 'null' && origin === URL.parse(publicUrl)?.origin
}

/** A found value for a detail: JSON, shortened; "none" when missing. */
function describe(value: unknown) {
  if (value === undefined) return 'none'
  const json = JSON.stringify(value)
  return json.length > 80 ? `${json.slice(0, 77)}...` : json
}
