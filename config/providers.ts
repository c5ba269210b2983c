/**
 * Limits of the provider discovery-manifest check (GET /providers/:handle/manifest).
 * The fetch goes to a provider-controlled website, so it is short and capped:
 * a slow or oversized site only makes the report say so.
 */
const providersConfig = {
  manifest: {
    /** One deadline for DNS, every redirect hop and the body. */
    timeoutMs: 4_000,
    /** 256 KiB: a manifest is a small JSON file. */
    maxBytes: 262_144,
    /** How long a report is reused for the same handle and website. */
    cacheTtlMs: 60_000,
    /** How many reports one instance keeps. */
    cacheMaxEntries: 1_000,
  },
}

export default providersConfig
export type ProvidersConfig = typeof providersConfig
export type ManifestConfig = ProvidersConfig['manifest']
