import { defineConfig } from '#provider_accounts/define_config'

/**
 * Limits of the provider discovery-manifest check (GET /providers/:handle/manifest).
 * The fetch goes to a provider-controlled website, so it is short and capped:
 * a slow or oversized site only makes the report say so.
 */
const providersConfig = defineConfig({
  manifest: {
    timeoutMs: 4_000,
    /** 256 KiB: a manifest is a small JSON file. */
    maxBytes: 262_144,
    cacheTtlMs: 60_000,
    cacheMaxEntries: 1_000,
  },
  /**
   * Withdrawals to a newly linked wallet other than the owner wallet wait
   * this long, a first link as a change, so the owner can notice a link it
   * did not mean before money leaves (docs/api.md, "Withdrawal wallet").
   */
  withdrawalWalletHoldMs: 24 * 60 * 60_000,
  /**
   * Feed caps (docs/operations.md#feed-limits). The polled cap bounds each
   * owner's share of mirrors:poll's work: 100 polled feeds × 50 owners is
   * what bench/mirror_polling.bench.ts measures. A mode switch lists up to
   * liveFeedsPerProvider feeds.
   */
  feedLimits: { liveFeedsPerProvider: 100, liveFeedsPerOwner: 250, polledFeedsPerOwner: 100 },
})

export default providersConfig
export type { ManifestConfig, ProvidersConfig } from '#provider_accounts/define_config'
