export interface ManifestConfig {
  /** One deadline for DNS, every redirect hop and the body. */
  timeoutMs: number
  maxBytes: number
  /** How long a report is reused for the same handle and website. */
  cacheTtlMs: number
  /** How many reports one instance keeps. */
  cacheMaxEntries: number
}

export interface ProvidersConfigValues {
  manifest: ManifestConfig
}

/**
 * config/providers.ts, injectable: ProviderAccountsProvider binds the instance
 * the config file defines, so `@inject()` classes take it as a constructor argument.
 */
export interface ProvidersConfig extends ProvidersConfigValues {}
export class ProvidersConfig {
  constructor(values: ProvidersConfigValues) {
    Object.assign(this, values)
  }
}

export function defineConfig(values: ProvidersConfigValues) {
  return new ProvidersConfig(values)
}
