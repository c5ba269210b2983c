import { injectableConfig } from '#core/injectable_config'
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
  /** How long withdrawals wait after a wallet other than the owner wallet is linked (first link or change). */
  withdrawalWalletHoldMs: number
}

/** config/providers.ts, bound by ProviderAccountsProvider: `@inject()` classes take it as an argument. */
export class ProvidersConfig extends injectableConfig<ProvidersConfigValues>() {}

export function defineConfig(values: ProvidersConfigValues) {
  return new ProvidersConfig(values)
}
