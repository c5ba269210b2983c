import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import { Database } from '@adonisjs/lucid/database'
import type { ManifestConfig } from '#config/providers'
import { Clock } from '#core/clock'
import { ExpiringCache } from '#core/expiring_cache'
import Provider from '#models/provider'
import { OutboundClient } from '#outbound/outbound_client'
import { E_PROVIDER_NOT_FOUND } from '#provider_accounts/exceptions'
import {
  type ManifestCheck,
  manifestContentChecks,
} from '#provider_accounts/manifest/manifest_checks'
import { fetchWellKnownManifest } from '#provider_accounts/manifest/well_known_manifest'
import { publicUrl } from '#core/public_url'

/** GET /providers/:handle/manifest (docs/api.md, "Provider manifest verification"). */
export interface ManifestReport {
  handle: string
  website: string | null
  manifest_url: string | null
  /** When the site was fetched: a cached report keeps its time. */
  checked_at: string
  independence_attestation: {
    well_known_manifest_present: boolean
    final_url: string | null
    redirects: string[]
    http_status: number | null
  }
  checks: ManifestCheck[]
  /** Every check is ok. */
  verified: boolean
}

/**
 * Reports outlive the verifier (built per request): one cache per Clock. The
 * app's Clock is a singleton, so there is one cache in the app; a test that
 * swaps in its own clock starts with an empty one.
 */
const reportCaches = new WeakMap<Clock, ExpiringCache<ManifestReport>>()
const MAX_CACHED_REPORTS = 1_000

/**
 * Checks a provider's discovery manifest at `<website>/.well-known/tollbooth-feeds.json`
 * and reports on it. Each report is kept for `providers.manifest.cacheTtlMs`
 * per handle and website (a changed website is checked again), and concurrent
 * requests share one fetch (the cache holds the pending promise).
 */
@inject()
export class ManifestVerifier {
  constructor(
    private outbound: OutboundClient,
    private clock: Clock,
    private db: Database
  ) {}

  async report(handle: string): Promise<ManifestReport> {
    const provider = await Provider.findBy('handle', handle)
    if (!provider) throw new E_PROVIDER_NOT_FOUND([handle])
    const key = JSON.stringify([provider.handle, provider.website])
    return this.#cache().get(key, () => this.#verify(provider))
  }

  async #verify(provider: Provider): Promise<ManifestReport> {
    const settings = app.config.get<ManifestConfig>('providers.manifest')
    const checkedAt = new Date(this.clock.now()).toISOString()
    const [fetched, sourcePaths] = await Promise.all([
      fetchWellKnownManifest(this.outbound, provider.website, settings),
      this.#registeredSourcePaths(provider),
    ])
    const checks: ManifestCheck[] = [
      { name: 'manifest_present', ok: fetched.present, detail: fetched.detail },
      ...manifestContentChecks(fetched.manifest, {
        handle: provider.handle,
        publicUrl: publicUrl(),
        sourcePaths,
      }),
    ]
    return {
      handle: provider.handle,
      website: provider.website,
      manifest_url: fetched.manifestUrl,
      checked_at: checkedAt,
      independence_attestation: {
        well_known_manifest_present: fetched.present,
        final_url: fetched.finalUrl,
        redirects: fetched.redirects,
        http_status: fetched.httpStatus,
      },
      checks,
      verified: checks.every((check) => check.ok),
    }
  }

  /** The source_path of each live (not deleted) Partner Bridge feed of the provider. */
  async #registeredSourcePaths(provider: Provider): Promise<string[]> {
    const rows: { source_path: string | null }[] = await this.db
      .from('feeds')
      .where('provider_id', provider.id)
      .whereNull('deleted_at')
      .where('source_type', 'partner_bridge')
      .select(this.db.raw(`source_settings->>'source_path' AS source_path`))
    return rows.flatMap((row) => (row.source_path ? [row.source_path] : []))
  }

  #cache() {
    const clock = this.clock
    let cache = reportCaches.get(clock)
    if (!cache) {
      const { cacheTtlMs } = app.config.get<ManifestConfig>('providers.manifest')
      cache = new ExpiringCache({
        ttlMs: cacheTtlMs,
        maxEntries: MAX_CACHED_REPORTS,
        now: () => clock.now(),
      })
      reportCaches.set(clock, cache)
    }
    return cache
  }
}
