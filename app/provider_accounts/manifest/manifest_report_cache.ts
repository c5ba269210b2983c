import type { LRUCache } from 'lru-cache'
import type { Clock } from '#core/clock'
import { clockedLruCache } from '#core/clocked_lru_cache'
import type Provider from '#models/provider'
import type { ManifestReport } from '#provider_accounts/manifest/manifest_verifier'

type Verify = () => Promise<ManifestReport>

/**
 * Manifest reports kept per handle and website for `ttlMs` (a changed
 * website is checked again at once); concurrent requests share one check.
 * One per process: the verifier is built per request.
 */
export class ManifestReportCache {
  #reports: LRUCache<string, ManifestReport, Verify>

  constructor(clock: Clock, options: { ttlMs: number; maxEntries: number }) {
    this.#reports = clockedLruCache(clock, {
      ttlMs: options.ttlMs,
      max: options.maxEntries,
      fetchMethod: (_key, _previous, { context: verify }) => verify(),
    })
  }

  reportOf(provider: Provider, verify: Verify): Promise<ManifestReport> {
    const key = JSON.stringify([provider.handle, provider.website])
    return this.#reports.forceFetch(key, { context: verify })
  }
}
