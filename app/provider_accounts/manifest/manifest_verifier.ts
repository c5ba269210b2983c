import { inject } from '@adonisjs/core'
import { Clock } from '#core/clock'
import Feed from '#models/feed'
import Provider from '#models/provider'
import { OutboundClient } from '#outbound/outbound_client'
import { ProvidersConfig } from '#provider_accounts/define_config'
import { E_PROVIDER_NOT_FOUND } from '#provider_accounts/exceptions'
import { ManifestReportCache } from '#provider_accounts/manifest/manifest_report_cache'
import {
  type ManifestCheck,
  manifestCheck,
  manifestContentChecks,
} from '#provider_accounts/manifest/manifest_checks'
import { manifestFeedPath } from '#provider_accounts/manifest/manifest_template'
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
 * Checks a provider's discovery manifest at `<website>/.well-known/tollbooth-feeds.json`
 * and reports on it. Reports are kept for `providers.manifest.cacheTtlMs` per
 * handle and website, and concurrent requests share one fetch (ManifestReportCache).
 */
@inject()
export class ManifestVerifier {
  constructor(
    private outbound: OutboundClient,
    private clock: Clock,
    private reports: ManifestReportCache,
    private config: ProvidersConfig
  ) {}

  async report(handle: string): Promise<ManifestReport> {
    const provider = await Provider.findBy('handle', handle)
    if (!provider) throw new E_PROVIDER_NOT_FOUND([handle])
    return this.reports.reportOf(provider, () => this.#verify(provider))
  }

  async #verify(provider: Provider): Promise<ManifestReport> {
    const settings = this.config.manifest
    const checkedAt = new Date(this.clock.now()).toISOString()
    const [fetched, feedPaths] = await Promise.all([
      fetchWellKnownManifest(this.outbound, provider.website, settings),
      this.#feedPaths(provider),
    ])
    const checks: ManifestCheck[] = [
      manifestCheck('manifest_present', fetched.present, fetched.detail),
      ...manifestContentChecks(fetched.manifest, {
        handle: provider.handle,
        publicUrl: publicUrl(),
        integrationMode: provider.integrationMode,
        feedPaths,
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

  /** The manifest path of each live (not deleted) feed of the provider's mode. */
  async #feedPaths(provider: Provider): Promise<string[]> {
    const feeds = await Feed.query()
      .where('provider_id', provider.id)
      .whereNull('deleted_at')
      .select('slug', 'source_type', 'source_settings')
    return feeds.flatMap((feed) => manifestFeedPath(provider, feed) ?? [])
  }
}
