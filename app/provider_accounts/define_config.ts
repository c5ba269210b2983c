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

/** How many feeds one provider, and one owner wallet across its providers, may have. */
export interface FeedLimits {
  /** Live (active or paused, not deleted) feeds of one provider. */
  liveFeedsPerProvider: number
  /** Live feeds of all the providers one wallet owns. */
  liveFeedsPerOwner: number
  /** Active feeds with a polled source (mirrors:poll fetches them) across one wallet's providers. */
  polledFeedsPerOwner: number
}

export interface ProvidersConfigValues {
  manifest: ManifestConfig
  feedLimits: FeedLimits
  /** How long withdrawals wait after a wallet other than the owner wallet is linked (first link or change). */
  withdrawalWalletHoldMs: number
}

/** config/providers.ts, bound by ProviderAccountsProvider: `@inject()` classes take it as an argument. */
export class ProvidersConfig extends injectableConfig<ProvidersConfigValues>() {}

export function defineConfig(values: ProvidersConfigValues) {
  return new ProvidersConfig(values)
}
