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
   * Withdrawals wait this long after the withdrawal wallet is changed, so the
   * owner can notice a change they did not make (ARCHITECTURE §11).
   */
  withdrawalWalletHoldMs: 24 * 60 * 60_000,
})

export default providersConfig
export type { ManifestConfig, ProvidersConfig } from '#provider_accounts/define_config'
